package server

import (
	"net/http"

	"handy/internal/docstore/status"
)

// routes is the whole HTTP surface. Everything the table does not name (pages, payloads,
// assets, build manifests, public files, route rules, the language redirect of /, 404s) goes
// to serveSite. The API's paths are those of internal/site/api.json, which the front end builds
// its URLs from (TestRoutesMatchAPIJSON keeps the two the same); docs/api.md says what each
// endpoint takes and answers.
func (s *Server) routes() *routeMux {
	mux := newRouteMux()
	mux.Handle("GET /healthz", s.handle(s.healthz))
	mux.Handle("GET /readyz", s.handle(s.readyz))
	mux.Handle("GET /robots.txt", s.handle(s.robots))
	// /sitemap.xml and /{code}/sitemap.xml, one exact pattern per locale: exact patterns keep
	// ServeMux from allocating wildcard matches on every page request.
	for _, path := range s.pages.SitemapPaths() {
		mux.Handle("GET "+path, s.handle(s.sitemap))
	}
	// The operator's dashboard: only with an admin token (else its paths are ordinary 404s).
	for _, path := range s.pages.AdminPaths() {
		mux.Handle("GET "+path, s.handle(s.adminPage))
	}

	// The JSON API: each group's endpoints are listed below.
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
	// Anything else under /api/ is a JSON 404, never a page.
	mux.Handle(apiRoot, s.api(func(http.ResponseWriter, *http.Request) error { return errAPINotFound }))
	mux.Handle("/", s.handle(s.serveSite))
	return mux
}

// authRoutes are the account endpoints (docs/architecture.md, "Accounts"): the XSRF cookie
// issued and checked.
func (s *Server) authRoutes() []apiRoute {
	return []apiRoute{
		{http.MethodPost, "/api/v1/auth/signup", s.signup},                        // {email, password, displayName?, locale?} → 201 {token, user, profile}
		{http.MethodPost, "/api/v1/auth/signin", s.signin},                        // {email, password, locale?} → 200 {token, user, profile}
		{http.MethodPost, "/api/v1/auth/signout", s.signout},                      // → 204
		{http.MethodPost, "/api/v1/auth/signout-everywhere", s.signoutEverywhere}, // → 204, every session of the account ended
		{http.MethodPost, "/api/v1/auth/password", s.changePassword},              // {currentPassword, newPassword} → 204, every other session ended
		{http.MethodGet, "/api/v1/auth/me", s.me},                                 // → 200 {user, profile}
		{http.MethodPatch, "/api/v1/auth/me", s.updateMe},                         // {displayName?, avatar?, locale?, preferences?} → 200 {user, profile}
		{http.MethodDelete, "/api/v1/auth/me", s.deleteMe},                        // {password} → 204
		{http.MethodGet, "/api/v1/auth/me/export", s.exportMe},                    // → 200, all the account's data
		{http.MethodGet, "/api/v1/auth/xsrf", s.xsrf},                             // → 204, sets the XSRF-TOKEN cookie
	}
}

// dbRoutes are the document store's endpoints (docs/api.md, "Document store"), for signed-in
// accounts.
func (s *Server) dbRoutes() []apiRoute {
	return []apiRoute{
		{http.MethodGet, "/api/v1/db/documents/{path...}", s.dbGet}, // → 200 document | 404
		{http.MethodGet, "/api/v1/db/documents", func(http.ResponseWriter, *http.Request) error {
			return &status.Error{Code: status.ErrInvalidArgument, Message: "name a document: /api/v1/db/documents/users/{uid}/…"}
		}},
		{http.MethodPost, "/api/v1/db/commit", s.dbCommit}, // {writes, clientId?, batchId?} → 200 {writeResults, commitTime, version}
		{http.MethodPost, "/api/v1/db/query", s.dbQuery},   // {parent, structuredQuery} → 200 {documents}
		{http.MethodGet, "/api/v1/db/listen", s.dbListen},  // ?since={version}&timeout={5..30}s → 200 {reset, version, changes}
	}
}

// pageviewRoutes is the page-view beacon (docs/api.md, "Page views"), cookieless: no XSRF
// cookie is issued or asked for.
func (s *Server) pageviewRoutes() []apiRoute {
	return []apiRoute{
		{http.MethodPost, "/api/v1/pageviews", s.pageview}, // {p, l, bl, r, s} → 204
	}
}

// statsRoutes is the operator's page-view report (docs/api.md, "Stats"), registered only when
// an admin token is configured: without one, the path is the API's plain 404. Cookieless: the
// operator's client is curl or a script, and a GET changes nothing.
func (s *Server) statsRoutes() []apiRoute {
	return []apiRoute{
		{http.MethodGet, "/api/v1/stats", s.stats}, // ?from=YYYY-MM-DD&to=YYYY-MM-DD[&format=csv], Authorization: Bearer <admin token>
	}
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
