package server

import "net/http"

// routes is the whole HTTP surface. Everything the table does not name (pages, payloads,
// assets, build manifests, public files, route rules, the language redirect of /, 404s) goes
// to serveSite.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", s.handle(s.healthz))
	mux.Handle("GET /readyz", s.handle(s.readyz))
	mux.Handle("GET /robots.txt", s.handle(s.robots))
	// /sitemap.xml and /{code}/sitemap.xml, one exact pattern per locale: exact patterns keep
	// ServeMux from allocating wildcard matches on every page request.
	for _, path := range s.pages.SitemapPaths() {
		mux.Handle("GET "+path, s.handle(s.sitemap))
	}
	if s.accounts != nil {
		s.apiRoutes(mux, s.authRoutes())
	}
	if s.accounts != nil && s.docs != nil {
		s.apiRoutes(mux, s.dbRoutes())
	}
	if s.analytics != nil {
		s.cookielessRoutes(mux, s.pageviewRoutes())
	}
	if s.reports != nil && s.hasAdmin {
		s.cookielessRoutes(mux, s.statsRoutes())
	}
	for _, path := range s.pages.AdminPaths() {
		mux.Handle("GET "+path, s.handle(s.adminPage))
	}
	// Anything else under /api/ is a JSON 404, never a page.
	mux.Handle(apiRoot, s.api(func(http.ResponseWriter, *http.Request) error { return errAPINotFound }))
	mux.Handle("/", s.handle(s.serveSite))
	return mux
}

// robots serves robots.txt, generated at start-up.
func (s *Server) robots(w http.ResponseWriter, r *http.Request) error {
	s.pages.Robots().Write(w, r, http.StatusOK)
	return nil
}

// sitemap serves a sitemap generated at start-up. Any other /{x}/sitemap.xml is left to
// serveSite: route rules (/ja/sitemap.xml → /jp/sitemap.xml), else 404.
func (s *Server) sitemap(w http.ResponseWriter, r *http.Request) error {
	e, _ := s.pages.Sitemap(r.URL.Path)
	e.Write(w, r, http.StatusOK)
	return nil
}

// adminPage serves the operator's dashboard, which exists only with an admin token configured
// (without one its paths are ordinary 404s). The page holds no data: it asks for the token and
// reads GET /api/v1/stats with it. It is never indexed, and no sitemap names it.
func (s *Server) adminPage(w http.ResponseWriter, r *http.Request) error {
	w.Header()["X-Robots-Tag"] = []string{"noindex, nofollow"}
	e, _ := s.pages.Admin(r.URL.Path)
	e.Write(w, r, http.StatusOK)
	return nil
}
