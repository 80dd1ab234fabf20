package server

import (
	"errors"
	"net/http"
	"net/url"

	"handy/internal/site"
)

// serveSite answers every request the route table does not name: route rules, the language
// redirect of /, then the build output by exact path, else a 404.
func (s *Server) serveSite(w http.ResponseWriter, r *http.Request) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header()["Allow"] = []string{"GET, HEAD"}
		return errMethodNotAllowed
	}
	path := r.URL.Path
	if target, status, ok := s.table.Redirect(path); ok {
		redirect(w, r, target, status)
		return nil
	}
	if path == "/" {
		return s.serveRoot(w, r)
	}
	if e, ok := s.pages.File(path); ok {
		e.Write(w, r, http.StatusOK)
		return nil
	}
	if _, err := s.table.Resolve(path); errors.Is(err, site.ErrInvalidPath) {
		return errInvalidPath(path)
	}
	return errNotFound
}

// redirect answers with a relative Location: the target path and the request's query.
func redirect(w http.ResponseWriter, r *http.Request, target string, status int) {
	loc := (&url.URL{Path: target, RawQuery: r.URL.RawQuery}).String()
	w.Header()["Location"] = []string{loc}
	w.WriteHeader(status)
}
