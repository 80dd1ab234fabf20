package site

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/language"
)

// maxAcceptLanguages bounds how many entries of an Accept-Language header are considered.
const maxAcceptLanguages = 32

// MatchLanguage returns the locale that best serves an Accept-Language header. Entries are
// tried by weight (header order among equal weights); for each, an exact tag match wins, then
// the base language: ja-JP → jp, zh-TW → zh, de-CH → de. The first entry that matches decides,
// so "en-US,de" is English. No match, an empty or a malformed header give the default locale;
// malformed entries are skipped, never fatal.
func (t *Table) MatchLanguage(acceptLanguage string) Locale {
	for _, tag := range parseAcceptLanguage(acceptLanguage) {
		if loc, ok := t.matchTag(tag); ok {
			return loc
		}
	}
	return t.defaultLocale
}

func (t *Table) matchTag(tag language.Tag) (Locale, bool) {
	s := tag.String()
	for _, lt := range t.tags {
		if lt.tag == s {
			return lt.locale, true
		}
	}
	base, conf := tag.Base()
	if conf != language.Exact {
		return Locale{}, false
	}
	for _, lt := range t.tags {
		if lt.base == base {
			return lt.locale, true
		}
	}
	return Locale{}, false
}

// parseAcceptLanguage returns the acceptable tags of header, highest weight first. Unlike
// language.ParseAcceptLanguage, one bad entry does not discard the others.
func parseAcceptLanguage(header string) []language.Tag {
	type weighted struct {
		tag language.Tag
		q   float64
	}
	var entries []weighted
	for entry := range strings.SplitSeq(header, ",") {
		if len(entries) == maxAcceptLanguages {
			break
		}
		name, params, _ := strings.Cut(entry, ";")
		name = strings.TrimSpace(name)
		if name == "" || name == "*" {
			continue
		}
		q, ok := parseQ(params)
		if !ok || q == 0 {
			continue
		}
		tag, err := language.Parse(name)
		if err != nil {
			continue
		}
		entries = append(entries, weighted{tag, q})
	}
	slices.SortStableFunc(entries, func(a, b weighted) int { return cmp.Compare(b.q, a.q) })
	tags := make([]language.Tag, len(entries))
	for i, e := range entries {
		tags[i] = e.tag
	}
	return tags
}

// parseQ reads the weight from an entry's parameters ("q=0.8"); no weight means 1.
func parseQ(params string) (float64, bool) {
	params = strings.TrimSpace(params)
	if params == "" {
		return 1, true
	}
	key, value, found := strings.Cut(params, "=")
	if !found || !strings.EqualFold(strings.TrimSpace(key), "q") {
		return 0, false
	}
	q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || !(q >= 0 && q <= 1) { // also rejects NaN
		return 0, false
	}
	return q, true
}
