// Package site holds the one table of locales, pages, route rules and account limits
// (site.json, shared with the front end) and the pure logic built on it: route names, URL building, path resolution,
// language matching, bot detection and route rules. It does no I/O besides embedding the table.
package site

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

//go:embed site.json
var siteJSON []byte

// defaultTable parses the embedded table once; the Table it returns is never modified.
var defaultTable = sync.OnceValue(func() *Table {
	t, err := Parse(siteJSON)
	if err != nil {
		panic(fmt.Sprintf("site: embedded site.json: %v", err)) // covered by TestDefault
	}
	return t
})

// Default returns the table embedded from site.json, parsed once. It is safe for concurrent use.
func Default() *Table { return defaultTable() }

// Locale is one language of the site.
type Locale struct {
	// Code appears in URLs, route names, cookies and file names ("jp").
	Code string `json:"code"`
	// Name is the language's name in that language ("日本語").
	Name string `json:"name"`
	// Lang is the BCP 47 tag used in <html lang>, hreflang and sitemaps ("ja").
	Lang string `json:"lang"`
}

// Page is one page of the site, the same in every locale.
type Page struct {
	// Name is the page's part of route names ("flip-image").
	Name string `json:"name"`
	// Path is the page's URL path in the default locale ("/flip-image", "/" for home).
	Path string `json:"path"`
	// Nav says where the page is linked from ("tool", "footer" or empty).
	Nav string `json:"nav,omitempty"`
}

// Table is the parsed site table. Its methods are safe for concurrent use; the slices they
// return are copies.
type Table struct {
	defaultLocale     Locale
	originPlaceholder string
	operator          OperatorPlaceholders
	tagManager        string
	locales           []Locale
	pages             []Page
	rules             []Rule
	maxRedirectHops   int
	limits            Limits
	history           History
	routes            []Route
	byPath            map[string]Route
	byCode            map[string]Locale
	pagePaths         map[string]bool
	tags              []localeTag
}

// localeTag is a locale's language tag, parsed once for matching.
type localeTag struct {
	locale Locale
	tag    string
	base   language.Base
}

// OperatorPlaceholders are the tokens the long-form content (privacy policy, terms) writes where
// the operator's own details go; the server replaces them at start-up.
type OperatorPlaceholders struct {
	ContactEmail string `json:"contactEmail"`
	Jurisdiction string `json:"jurisdiction"`
}

type tableJSON struct {
	DefaultLocale         string               `json:"defaultLocale"`
	OriginPlaceholder     string               `json:"originPlaceholder"`
	OperatorPlaceholders  OperatorPlaceholders `json:"operatorPlaceholders"`
	TagManagerPlaceholder string               `json:"tagManagerPlaceholder"`
	Locales               []Locale             `json:"locales"`
	Pages                 []Page               `json:"pages"`
	RouteRules            []Rule               `json:"routeRules"`
	MaxRedirectHops       int                  `json:"maxRedirectHops"`
	Limits                Limits               `json:"limits"`
	History               History              `json:"history"`
}

// Parse reads and validates a site table in the format of site.json.
func Parse(data []byte) (*Table, error) {
	var raw tableJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("site: parse table: %w", err)
	}
	t := &Table{
		originPlaceholder: raw.OriginPlaceholder,
		operator:          raw.OperatorPlaceholders,
		tagManager:        raw.TagManagerPlaceholder,
		locales:           raw.Locales,
		pages:             raw.Pages,
		byPath:            make(map[string]Route),
		byCode:            make(map[string]Locale),
		pagePaths:         make(map[string]bool),
	}
	if !strings.HasPrefix(raw.OriginPlaceholder, "https://") && !strings.HasPrefix(raw.OriginPlaceholder, "http://") {
		return nil, fmt.Errorf("site: parse table: originPlaceholder %q is not an http(s) origin", raw.OriginPlaceholder)
	}
	if op := raw.OperatorPlaceholders; len(op.ContactEmail) < 4 || len(op.Jurisdiction) < 4 || op.ContactEmail == op.Jurisdiction {
		return nil, fmt.Errorf("site: parse table: operatorPlaceholders need two distinct tokens, got %+v", op)
	}
	// Optional (a table without it has no tag manager to configure), but never a token that
	// another placeholder or a short string could contain.
	if tm, op := raw.TagManagerPlaceholder, raw.OperatorPlaceholders; tm != "" && (len(tm) < 4 || tm == raw.OriginPlaceholder || tm == op.ContactEmail || tm == op.Jurisdiction) {
		return nil, fmt.Errorf("site: parse table: tagManagerPlaceholder %q must be a distinct token of at least 4 characters", tm)
	}
	for _, loc := range raw.Locales {
		if !isLocaleCode(loc.Code) {
			return nil, fmt.Errorf("site: parse table: locale code %q is not two lowercase letters", loc.Code)
		}
		if _, dup := t.byCode[loc.Code]; dup {
			return nil, fmt.Errorf("site: parse table: duplicate locale %q", loc.Code)
		}
		tag, err := language.Parse(loc.Lang)
		if err != nil {
			return nil, fmt.Errorf("site: parse table: locale %q lang %q: %w", loc.Code, loc.Lang, err)
		}
		base, _ := tag.Base()
		t.byCode[loc.Code] = loc
		t.tags = append(t.tags, localeTag{locale: loc, tag: tag.String(), base: base})
	}
	def, ok := t.byCode[raw.DefaultLocale]
	if !ok {
		return nil, fmt.Errorf("site: parse table: default locale %q is not a locale", raw.DefaultLocale)
	}
	t.defaultLocale = def
	names := make(map[string]bool)
	for _, p := range raw.Pages {
		if names[p.Name] || t.pagePaths[p.Path] {
			return nil, fmt.Errorf("site: parse table: duplicate page %q (%s)", p.Name, p.Path)
		}
		if !validPagePath(p.Path) {
			return nil, fmt.Errorf("site: parse table: page %q path %q must be / or /segment", p.Name, p.Path)
		}
		names[p.Name] = true
		t.pagePaths[p.Path] = true
	}
	if !t.pagePaths["/"] {
		return nil, fmt.Errorf("site: parse table: no home page with path /")
	}
	for _, loc := range t.locales {
		for _, p := range t.pages {
			r := Route{Name: p.Name + "___" + loc.Code, Path: t.Path(p, loc), Page: p, Locale: loc}
			t.routes = append(t.routes, r)
			t.byPath[r.Path] = r
		}
	}
	if err := raw.Limits.validate(); err != nil {
		return nil, fmt.Errorf("site: parse table: %w", err)
	}
	t.limits = raw.Limits
	if err := raw.History.validate(); err != nil {
		return nil, fmt.Errorf("site: parse table: %w", err)
	}
	t.history = raw.History
	// A bound in the tens keeps a chain of rules cheap to follow for any request.
	if raw.MaxRedirectHops < 1 || raw.MaxRedirectHops > 64 {
		return nil, fmt.Errorf("site: parse table: maxRedirectHops %d must be 1 to 64", raw.MaxRedirectHops)
	}
	t.maxRedirectHops = raw.MaxRedirectHops
	t.rules = raw.RouteRules
	for i := range t.rules {
		if err := t.rules[i].compile(); err != nil {
			return nil, fmt.Errorf("site: parse table: %w", err)
		}
	}
	return t, nil
}

// validPagePath reports whether p is "/" or one lowercase path segment such as "/faq".
func validPagePath(p string) bool {
	if p == "/" {
		return true
	}
	if len(p) < 2 || p[0] != '/' {
		return false
	}
	for _, c := range p[1:] {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// isLocaleCode reports whether s has the shape of a locale code: two lowercase ASCII letters.
func isLocaleCode(s string) bool {
	return len(s) == 2 && s[0] >= 'a' && s[0] <= 'z' && s[1] >= 'a' && s[1] <= 'z'
}

// DefaultLocale returns the locale whose URLs have no prefix (English).
func (t *Table) DefaultLocale() Locale { return t.defaultLocale }

// OriginPlaceholder returns the origin the front-end build writes into absolute URLs, which the
// server replaces with the configured public URL.
func (t *Table) OriginPlaceholder() string { return t.originPlaceholder }

// OperatorPlaceholders returns the tokens the server replaces with the operator's details.
func (t *Table) OperatorPlaceholders() OperatorPlaceholders { return t.operator }

// TagManagerPlaceholder returns the token every page's boot data holds where the URL of the
// tag manager's container script goes (empty when none is configured); "" if the table has none.
func (t *Table) TagManagerPlaceholder() string { return t.tagManager }

// Locales returns every locale in table order, the default first.
func (t *Table) Locales() []Locale { return slices.Clone(t.locales) }

// Locale returns the locale with the given code.
func (t *Table) Locale(code string) (Locale, bool) {
	loc, ok := t.byCode[code]
	return loc, ok
}

// Pages returns every page in table order.
func (t *Table) Pages() []Page { return slices.Clone(t.pages) }

// IsDefault reports whether loc is the default locale, the one without a URL prefix.
func (t *Table) IsDefault(loc Locale) bool { return loc.Code == t.defaultLocale.Code }
