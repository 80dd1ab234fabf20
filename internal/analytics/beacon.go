package analytics

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"golang.org/x/text/language"

	"handy/internal/site"
)

// MaxBeacon bounds a page view's body: the five fields at their longest take about 400 bytes.
const MaxBeacon = 1024

// Screen classes, as the tracker reads them from the viewport.
const (
	ScreenPhone   = "phone"
	ScreenTablet  = "tablet"
	ScreenDesktop = "desktop"
)

// Bounds of the free-text fields.
const (
	maxLanguage = 35  // BCP 47 tags in practice (RFC 5646 section 4.4.1 recommends 35)
	maxHost     = 253 // a DNS name
)

// Beacon is the body navigator.sendBeacon sends: the server checks its keys against these
// fields before Record parses it.
type Beacon struct {
	Path     string `json:"p"`
	Locale   string `json:"l"`
	Language string `json:"bl"`
	Referrer string `json:"r"`
	Screen   string `json:"s"`
}

// view is a validated page view, normalised: what is counted.
type view struct {
	page, locale, lang, referrer, screen string
}

// pages is what the beacon's path and locale are checked against: every prerendered page path
// of the site table, and the host the site is served at.
type pages struct {
	routes  map[string]site.Route // by path: "/", "/de", "/de/faq"
	locales map[string]bool
	codes   string // "en, zh, …", for messages
	ownHost string // lower case, without port
}

func newPages(table *site.Table, ownHost string) pages {
	p := pages{routes: make(map[string]site.Route), locales: make(map[string]bool), ownHost: strings.ToLower(ownHost)}
	for _, r := range table.Routes() {
		p.routes[r.Path] = r
	}
	var codes []string
	for _, loc := range table.Locales() {
		p.locales[loc.Code] = true
		codes = append(codes, loc.Code)
	}
	p.codes = strings.Join(codes, ", ")
	return p
}

// parse reads and validates a beacon's body.
func (p pages) parse(body []byte) (view, error) {
	var b Beacon
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return view{}, &BeaconError{Field: typeErr.Field, Message: fmt.Sprintf("The field %q must be a string.", typeErr.Field)}
		}
		if strings.HasPrefix(err.Error(), "json: unknown field ") {
			return view{}, &BeaconError{Message: "The body has a field other than p, l, bl, r and s."}
		}
		return view{}, &BeaconError{Message: "The body must be one JSON object: {\"p\", \"l\", \"bl\", \"r\", \"s\"}."}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return view{}, &BeaconError{Message: "The body must be one JSON object: {\"p\", \"l\", \"bl\", \"r\", \"s\"}."}
	}
	route, ok := p.routes[b.Path]
	if !ok {
		return view{}, &BeaconError{Field: "p", Message: `The field "p" must be the path of one of the site's pages, such as "/" or "/de/faq", without query or fragment.`}
	}
	if !p.locales[b.Locale] {
		return view{}, &BeaconError{Field: "l", Message: fmt.Sprintf(`The field "l" must be one of the site's locale codes: %s.`, p.codes)}
	}
	if b.Locale != route.Locale.Code {
		return view{}, &BeaconError{Field: "l", Message: fmt.Sprintf(`The field "l" must be the locale of the path: %q for %q.`, route.Locale.Code, route.Path)}
	}
	lang, ok := normalizeLanguage(b.Language)
	if !ok {
		return view{}, &BeaconError{Field: "bl", Message: fmt.Sprintf(`The field "bl" must be a BCP 47 language tag of at most %d characters, such as "en-US".`, maxLanguage)}
	}
	ref, ok := p.referrer(b.Referrer)
	if !ok {
		return view{}, &BeaconError{Field: "r", Message: fmt.Sprintf(`The field "r" must be "" or a host name of at most %d characters, without scheme, port or path.`, maxHost)}
	}
	switch b.Screen {
	case ScreenPhone, ScreenTablet, ScreenDesktop:
	default:
		return view{}, &BeaconError{Field: "s", Message: `The field "s" must be "phone", "tablet" or "desktop".`}
	}
	return view{page: route.Page.Name, locale: route.Locale.Code, lang: lang, referrer: ref, screen: b.Screen}, nil
}

// normalizeLanguage returns the browser's language as language[-Script][-REGION] in canonical
// case ("en-US", "zh-Hans-CN"): variants, extensions and private use are dropped, which keeps
// the counters few and says nothing more of the visitor. A well-formed tag of an unknown
// language, and an empty one, are "und"; a tag that is not well-formed is refused.
func normalizeLanguage(s string) (string, bool) {
	if s == "" {
		return "und", true
	}
	if len(s) > maxLanguage || strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-')
	}) {
		return "", false
	}
	tag, err := language.Parse(s)
	var unknown language.ValueError
	switch {
	case errors.As(err, &unknown):
		return "und", true
	case err != nil:
		return "", false
	}
	base, script, region := tag.Raw()
	if base.String() == "und" {
		return "und", true
	}
	short, err := language.Compose(base, script, region)
	if err != nil {
		return "und", true
	}
	return short.String(), true
}

// referrer validates the referrer's host and returns what is counted: the host in lower case,
// or "" for none, for the site's own host (a visitor moving between its pages) and for an
// address rather than a name.
func (p pages) referrer(host string) (string, bool) {
	if host == "" {
		return "", true
	}
	if len(host) > maxHost {
		return "", false
	}
	h := strings.ToLower(host)
	if inner, ok := strings.CutPrefix(h, "["); ok {
		if inner, ok = strings.CutSuffix(inner, "]"); ok && net.ParseIP(inner) != nil && strings.Contains(inner, ":") {
			return "", true
		}
		return "", false
	}
	h = strings.TrimSuffix(h, ".") // the root's dot: "example.com." is example.com
	if !isHostname(h) {
		return "", false
	}
	if net.ParseIP(h) != nil || h == p.ownHost {
		return "", true
	}
	return h, true
}

// isHostname reports whether h is a DNS host name in lower case: labels of 1 to 63 letters,
// digits and hyphens, none at a label's start or end (RFC 1123).
func isHostname(h string) bool {
	if h == "" || len(h) > maxHost {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
