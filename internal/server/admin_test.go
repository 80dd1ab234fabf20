package server

import (
	"net/http"
	"strings"
	"testing"

	"handy/internal/store/storetest"
)

// The dashboard's pages exist only with an admin token configured; they are never indexed and
// no sitemap names them.
func TestAdminPages(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	withToken := newStatsServer(t, st, testAdminToken).Handler()
	without := newStatsServer(t, st, "").Handler()

	for _, target := range []string{"/admin", "/jp/admin", "/de/admin"} {
		res, body := serve(t, without, request{target: target})
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("no token configured: %s answered %d, want 404", target, res.StatusCode)
		}
		if strings.Contains(body, "<h1>admin") {
			t.Errorf("no token configured: %s served the dashboard", target)
		}
	}

	tests := []struct {
		method, target string
		status         int
		h1             string // the fixture's heading, when served
	}{
		{http.MethodGet, "/admin", 200, "admin en"},
		{http.MethodGet, "/jp/admin", 200, "admin jp"},
		{http.MethodHead, "/ko/admin", 200, ""},
		{http.MethodGet, "/en/admin", 404, ""}, // English has no prefix, as on the site
		{http.MethodGet, "/admin/", 301, ""},   // the trailing-slash rule, as for any page
		{http.MethodPost, "/admin", 405, ""},
		{http.MethodGet, "/admin/stats", 404, ""},
	}
	for _, tt := range tests {
		res, body := serve(t, withToken, request{method: tt.method, target: tt.target})
		if res.StatusCode != tt.status {
			t.Errorf("%s %s: status %d, want %d", tt.method, tt.target, res.StatusCode, tt.status)
			continue
		}
		if tt.status != 200 {
			continue
		}
		if got := res.Header.Get("X-Robots-Tag"); got != "noindex, nofollow" {
			t.Errorf("%s: X-Robots-Tag %q", tt.target, got)
		}
		if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", tt.target, got)
		}
		if !strings.Contains(res.Header.Get("Content-Security-Policy"), fixtureStyleHash) {
			t.Errorf("%s: the CSP does not allow the dashboard's inline style", tt.target)
		}
		if tt.h1 != "" && !strings.Contains(body, "<h1>"+tt.h1+"</h1>") {
			t.Errorf("%s: body %.200q", tt.target, body)
		}
	}

	for _, target := range []string{"/sitemap.xml", "/jp/sitemap.xml", "/robots.txt"} {
		_, body := serve(t, withToken, request{target: target})
		if strings.Contains(body, "admin") {
			t.Errorf("%s names the dashboard:\n%s", target, body)
		}
	}
}
