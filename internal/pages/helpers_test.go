package pages

import (
	"log/slog"
	"net/http"
	"testing"

	"handy/internal/config"
	"handy/internal/pages/pagestest"
	"handy/internal/site"
)

// testOrigin is the public URL the tests' pages are loaded with.
const testOrigin = "http://localhost:8080"

// load loads the fixture at the start-up levels.
func load(t testing.TB) *Pages {
	t.Helper()
	p, err := Load(config.Config{PublicURL: testOrigin}, site.Default(), pagestest.Dist(site.Default()), slog.New(slog.DiscardHandler), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// handler serves the build output's files by exact path, else 404: what the server does with
// them once its routes and rules are through.
func handler(p *Pages) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e, ok := p.File(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		e.Write(w, r, http.StatusOK)
	})
}
