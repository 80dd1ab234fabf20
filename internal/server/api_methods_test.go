package server

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/store/storetest"
)

// Every API path asked with a method it does not take answers 405 with Allow and a JSON
// error, XSRF header or not; the methods it takes still work.
func TestWrongMethodsAnswer405(t *testing.T) {
	t.Parallel()
	s := newAPIServer(t, storetest.Engines()[0].Open(t), account.DefaultLimits)
	allow := map[string]string{
		"/api/v1/auth/signup":             "POST",
		"/api/v1/auth/signin":             "POST",
		"/api/v1/auth/signout":            "POST",
		"/api/v1/auth/signout-everywhere": "POST",
		"/api/v1/auth/password":           "POST",
		"/api/v1/auth/me":                 "GET, HEAD, PATCH, DELETE",
		"/api/v1/auth/me/export":          "GET, HEAD",
		"/api/v1/auth/xsrf":               "GET, HEAD",
	}
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
	for _, rt := range s.authRoutes() {
		if _, ok := allow[rt.path]; !ok {
			t.Errorf("%s %s: no expected Allow in this test", rt.method, rt.path)
		}
		if !slices.Contains(methods, rt.method) {
			t.Errorf("%s %s: a method this test does not try", rt.method, rt.path)
		}
	}
	for path, want := range allow {
		taken := strings.Split(want, ", ")
		for _, m := range methods {
			if slices.Contains(taken, m) {
				continue
			}
			for _, withXSRF := range []bool{true, false} {
				c := &client{t: t, h: s.handler}
				if withXSRF {
					c.do("GET", "/api/v1/auth/xsrf", "", "", nil)
				}
				a := c.json(m, path, `{}`)
				if a.status != http.StatusMethodNotAllowed || a.header.Get("Allow") != want || a.header.Get("Cache-Control") != cacheNoStore {
					t.Errorf("%s %s (XSRF %v): %d Allow %q Cache-Control %q, want 405 Allow %q no-store", m, path, withXSRF, a.status,
						a.header.Get("Allow"), a.header.Get("Cache-Control"), want)
				}
				if m != "HEAD" && errCode(a) != "method-not-allowed" {
					t.Errorf("%s %s: body %s, want the code method-not-allowed", m, path, a.raw)
				}
			}
		}
	}
	// Allowed methods still reach their endpoint; unknown paths stay 404.
	c := &client{t: t, h: s.handler}
	if a := c.do("HEAD", "/api/v1/auth/xsrf", "", "", nil); a.status != http.StatusNoContent {
		t.Errorf("HEAD /api/v1/auth/xsrf: %d", a.status)
	}
	if a := c.json("PUT", "/api/v1/auth/nope", `{}`); a.status != http.StatusNotFound || errCode(a) != "not-found" {
		t.Errorf("PUT /api/v1/auth/nope: %d %s", a.status, a.raw)
	}
}
