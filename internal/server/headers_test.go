package server

import (
	"net/http"
	"testing"
)

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"Content-Security-Policy":    "default-src 'self'; script-src 'self'; style-src 'self' " + fixtureStyleHash + "; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
		"X-Content-Type-Options":     "nosniff",
		"Referrer-Policy":            "strict-origin-when-cross-origin",
		"Cross-Origin-Opener-Policy": "same-origin",
		"Permissions-Policy":         "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
		"X-Frame-Options":            "DENY",
	}
	targets := []request{
		{target: "/de/faq"}, {target: "/"}, {target: "/", header: map[string]string{"Accept-Language": "de"}},
		{target: "/nope"}, {target: "/xx/faq"}, {target: "/de/faq/"}, {target: "/healthz"}, {target: "/readyz"},
		{target: "/sitemap.xml"}, {target: "/robots.txt"}, {target: "/assets/app-3f9a1c.js"},
		{method: http.MethodPost, target: "/faq"}, {target: "/nope", header: map[string]string{"User-Agent": googlebotUA}},
	}
	for _, origin := range []string{httpOrigin, httpsOrigin} {
		s := newTestServer(t, origin)
		ids := make(map[string]bool)
		for _, req := range targets {
			res, _ := serve(t, s.Handler(), req)
			for k, v := range want {
				if got := res.Header.Get(k); got != v {
					t.Errorf("%s %s %s: %s = %q, want %q", origin, req.method, req.target, k, got, v)
				}
			}
			hsts := res.Header.Get("Strict-Transport-Security")
			if wantHSTS := origin == httpsOrigin; wantHSTS != (hsts == "max-age=63072000; includeSubDomains") || !wantHSTS && hsts != "" {
				t.Errorf("%s %s: HSTS = %q", origin, req.target, hsts)
			}
			id := res.Header.Get("X-Request-Id")
			if id == "" || ids[id] {
				t.Errorf("%s %s: X-Request-Id %q missing or repeated", origin, req.target, id)
			}
			ids[id] = true
		}
	}
}

func TestRequestIDNotTakenFromClient(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	res, _ := serve(t, s.Handler(), request{target: "/faq", header: map[string]string{"X-Request-Id": "forged"}})
	if id := res.Header.Values("X-Request-Id"); len(id) != 1 || id[0] == "forged" {
		t.Errorf("X-Request-Id = %q", id)
	}
}

func TestHealth(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	for _, target := range []string{"/healthz", "/readyz"} {
		res, body := serve(t, s.Handler(), request{target: target})
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-store" || body == "" {
			t.Errorf("GET %s = %d %q", target, res.StatusCode, body)
		}
	}
}
