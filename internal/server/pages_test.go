package server

import (
	"net/http"
	"strings"
	"testing"

	"handy/internal/site"
)

func TestEveryPage(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpsOrigin)
	routes := site.Default().Routes()
	if len(routes) != 56 {
		t.Fatalf("%d routes, want 56", len(routes))
	}
	for _, r := range routes {
		t.Run(r.Name, func(t *testing.T) {
			t.Parallel()
			// The cookie keeps / from redirecting; every other URL ignores it.
			res, body := serve(t, s.Handler(), request{target: r.Path, header: map[string]string{"Cookie": "i18n_redirected=en"}})
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s = %d", r.Path, res.StatusCode)
			}
			if want := `<link rel="canonical" href="` + httpsOrigin + r.Path + `">`; !strings.Contains(body, want) {
				t.Errorf("GET %s body lacks %s", r.Path, want)
			}
			if strings.Contains(body, site.Default().OriginPlaceholder()) || !strings.Contains(body, "<h1>"+r.Name+"</h1>") {
				t.Errorf("GET %s body = %.200q", r.Path, body)
			}
			wantHeaders := map[string]string{
				"Content-Type":   "text/html; charset=utf-8",
				"Cache-Control":  "no-cache",
				"Content-Length": itoa(len(body)),
			}
			for k, v := range wantHeaders {
				if got := res.Header.Get(k); got != v {
					t.Errorf("GET %s %s = %q, want %q", r.Path, k, got, v)
				}
			}
			if etag := res.Header.Get("Etag"); !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 10 {
				t.Errorf("GET %s ETag = %q, want a strong tag", r.Path, etag)
			}
		})
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	tests := []struct {
		target, wantType, wantCache, wantBody string
		wantStatus                            int
	}{
		{"/_payload.json", "application/json", "no-cache", `{"canonical":"http://localhost:8080/"}`, 200},
		{"/de/faq/_payload.json", "application/json", "no-cache", `{"canonical":"http://localhost:8080/de/faq"}`, 200},
		{"/builds/latest.json", "application/json", "no-cache", `{"id":"b1","timestamp":1700000000000}`, 200},
		{"/builds/meta/b1.json", "application/json", "no-cache", `"origin":"http://localhost:8080"`, 200},
		{"/assets/app-3f9a1c.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable", "console.log('handy');", 200},
		{"/assets/logo-77aa00.png", "image/png", "public, max-age=31536000, immutable", "PNG", 200},
		{"/favicon.ico", "image/x-icon", "no-cache", "icon", 200},
		{"/index.html", "text/html; charset=utf-8", "no-store", "error 404 en", 404},
		{"/de/index.html", "text/html; charset=utf-8", "no-store", "error 404 de", 404},
		{"/faq/index.html", "text/html; charset=utf-8", "no-store", "error 404 en", 404},
		{"/.gitkeep", "text/html; charset=utf-8", "no-store", "error 404 en", 404},
		{"/_errors/en/404.html", "text/html; charset=utf-8", "no-store", "error 404 en", 404},
		{"/_errors/notes.txt", "text/html; charset=utf-8", "no-store", "error 404 en", 404},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			t.Parallel()
			res, body := serve(t, s.Handler(), request{target: tt.target})
			if res.StatusCode != tt.wantStatus || res.Header.Get("Content-Type") != tt.wantType ||
				res.Header.Get("Cache-Control") != tt.wantCache || !strings.Contains(body, tt.wantBody) {
				t.Errorf("GET %s = %d %q %q %.100q; want %d %q %q %q", tt.target, res.StatusCode, res.Header.Get("Content-Type"),
					res.Header.Get("Cache-Control"), body, tt.wantStatus, tt.wantType, tt.wantCache, tt.wantBody)
			}
		})
	}
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	tests := []struct {
		target, wantLocation string
		wantStatus           int
	}{
		{"/de/faq/", "/de/faq", 301},
		{"/faq/", "/faq", 301},
		{"/de/", "/de", 301},
		{"/ja", "/jp", 301},
		{"/ja/faq", "/jp/faq", 301},
		{"/ja/faq/", "/jp/faq", 301},
		{"/ja/area-calculator?w=2&h=3", "/jp/area-calculator?w=2&h=3", 301},
		{"/de/area-calculator/?w=2,5&unit=m%C2%B2", "/de/area-calculator?w=2,5&unit=m%C2%B2", 301},
		{"/ja/sitemap.xml", "/jp/sitemap.xml", 301},
		{"/nope/", "/nope", 301},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			t.Parallel()
			res, _ := serve(t, s.Handler(), request{target: tt.target, header: map[string]string{"User-Agent": chromeUA}})
			if res.StatusCode != tt.wantStatus || res.Header.Get("Location") != tt.wantLocation {
				t.Errorf("GET %s = %d Location %q, want %d %q", tt.target, res.StatusCode, res.Header.Get("Location"), tt.wantStatus, tt.wantLocation)
			}
		})
	}
}

func TestMethods(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
		for _, target := range []string{"/faq", "/de", "/", "/healthz", "/sitemap.xml", "/nope"} {
			res, body := serve(t, s.Handler(), request{method: method, target: target})
			if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" || body != "405 Method Not Allowed\n" {
				t.Errorf("%s %s = %d Allow %q %q, want 405 with Allow: GET, HEAD", method, target, res.StatusCode, res.Header.Get("Allow"), body)
			}
		}
	}
	res, body := serve(t, s.Handler(), request{method: http.MethodHead, target: "/de/faq", header: map[string]string{"Accept-Encoding": "gzip"}})
	if res.StatusCode != http.StatusOK || body != "" || res.Header.Get("Content-Length") == "" || res.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("HEAD /de/faq = %d, %d body bytes, Content-Length %q", res.StatusCode, len(body), res.Header.Get("Content-Length"))
	}
}
