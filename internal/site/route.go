package site

import (
	"errors"
	"slices"
	"strings"
)

// ErrUnknownPath is returned by Resolve for a path that names no page.
var ErrUnknownPath = errors.New("site: unknown path")

// ErrInvalidPath is returned by Resolve for a path shaped like a localized page whose locale
// prefix fails validation, such as /xx/faq or /en/faq (English has no prefix).
var ErrInvalidPath = errors.New("site: invalid locale prefix")

// Route is one page in one locale: one of the prerendered URLs.
type Route struct {
	// Name is "{page}___{code}", e.g. "flip-image___jp".
	Name string
	// Path is the canonical URL path: "/faq", "/de/faq", "/" or "/de".
	Path   string
	Page   Page
	Locale Locale
}

// Path builds the canonical URL path of page in loc: the default locale has no prefix
// ("/faq", "/"), the others do ("/de/faq", "/de").
func (t *Table) Path(page Page, loc Locale) string {
	if t.IsDefault(loc) {
		return page.Path
	}
	if page.Path == "/" {
		return "/" + loc.Code
	}
	return "/" + loc.Code + page.Path
}

// Routes returns every page × locale route, grouped by locale in table order.
func (t *Table) Routes() []Route { return slices.Clone(t.routes) }

// Resolve finds the route served at path. It returns ErrInvalidPath when the first segment has
// the shape of a locale code (two lowercase letters) without being a prefixed locale and the
// rest is empty or a page path (/xx, /xx/faq, /en/faq), and ErrUnknownPath for anything else
// that names no page. Route rules (redirects such as /ja → /jp) are applied before Resolve.
func (t *Table) Resolve(path string) (Route, error) {
	if r, ok := t.byPath[path]; ok {
		return r, nil
	}
	first, rest := splitFirst(path)
	if !isLocaleCode(first) {
		return Route{}, ErrUnknownPath
	}
	if loc, ok := t.byCode[first]; ok && !t.IsDefault(loc) {
		return Route{}, ErrUnknownPath // a valid prefix with an unknown page
	}
	if rest == "" || (rest != "/" && t.pagePaths[rest]) {
		return Route{}, ErrInvalidPath
	}
	return Route{}, ErrUnknownPath
}

// LocaleOf returns the locale named by path's prefix (/de/nope → de), else the default locale.
func (t *Table) LocaleOf(path string) Locale {
	first, _ := splitFirst(path)
	if loc, ok := t.byCode[first]; ok {
		return loc
	}
	return t.defaultLocale
}

// splitFirst splits "/de/faq" into "de" and "/faq", "/de" into "de" and "".
func splitFirst(path string) (first, rest string) {
	if !strings.HasPrefix(path, "/") {
		return "", path
	}
	path = path[1:]
	if i := strings.IndexByte(path, '/'); i >= 0 {
		return path[:i], path[i:]
	}
	return path, ""
}
