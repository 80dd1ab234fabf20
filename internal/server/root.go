package server

import (
	"net/http"
	"time"

	"handy/internal/pages"
	"handy/internal/site"
)

// Language cookie (DESIGN.md "Language resolution"). The front end rewrites it to the language
// of the page in use, so it is not HttpOnly.
const (
	langCookieName   = "i18n_redirected"
	langCookieMaxAge = 365 * 24 * time.Hour
)

// serveRoot answers /: bots and visitors who chose English get the English home; others are
// sent (302) to the home of their cookie's locale or, without a valid cookie, of the best match
// for their Accept-Language, which then becomes their cookie.
func (s *Server) serveRoot(w http.ResponseWriter, r *http.Request) error {
	home, _ := s.pages.File("/")
	if site.IsBot(r.UserAgent()) {
		home.Write(w, r, http.StatusOK)
		return nil
	}
	if c, err := r.Cookie(langCookieName); err == nil {
		if loc, ok := s.table.Locale(c.Value); ok {
			return s.goHome(w, r, home, loc)
		}
	}
	loc := s.table.MatchLanguage(r.Header.Get("Accept-Language"))
	http.SetCookie(w, s.langCookie(loc))
	return s.goHome(w, r, home, loc)
}

// goHome serves the English home for the default locale and redirects to loc's home otherwise.
func (s *Server) goHome(w http.ResponseWriter, r *http.Request, home *pages.Entry, loc site.Locale) error {
	if s.table.IsDefault(loc) {
		home.Write(w, r, http.StatusOK)
		return nil
	}
	w.Header()["Vary"] = home.Vary()
	redirect(w, r, s.homes[loc.Code], http.StatusFound)
	return nil
}

// langCookie remembers loc for a year; Secure when the site is served over https.
func (s *Server) langCookie(loc site.Locale) *http.Cookie {
	return &http.Cookie{
		Name:     langCookieName,
		Value:    loc.Code,
		Path:     "/",
		MaxAge:   int(langCookieMaxAge.Seconds()),
		Expires:  time.Now().Add(langCookieMaxAge),
		SameSite: http.SameSiteLaxMode,
		Secure:   s.https,
	}
}
