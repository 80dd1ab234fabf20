package server

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHostilePaths(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	long := "/" + strings.Repeat("a", 2100)
	tests := []struct {
		target string
		want   []int // any of these
	}{
		// ServeMux answers an unclean path with 307 to its clean form; any lookup is an exact
		// map look-up, so a dot segment can never reach outside the build output.
		{"/../../etc/passwd", []int{307, 404}},
		{"/%2e%2e/%2e%2e/etc/passwd", []int{301, 404}},
		{"/de/%2e%2e/faq", []int{307, 404}},
		{"/assets/..%2f..%2fgo.mod", []int{301, 404}},
		{"/de%2Ffaq", []int{200, 404}},
		{"/%2F%2Fevil.example/", []int{301, 404}},
		{"//evil.example/", []int{307, 404}},
		{"/a%00b", []int{404}},
		{"/de/%00", []int{404}},
		{"/%ff%fe", []int{404}},
		{"/xx/%ff", []int{404}},
		{"/de/faq%20", []int{404}},
		{long, []int{414}},
		{long + "?q=1", []int{414}},
		{"/faq?" + strings.Repeat("q", 3000), []int{414}},
		{"/faq?%zz", []int{200}},
	}
	for _, tt := range tests {
		t.Run(tt.target[:min(len(tt.target), 40)], func(t *testing.T) {
			t.Parallel()
			res, _ := serve(t, s.Handler(), request{target: tt.target, header: map[string]string{"User-Agent": chromeUA}})
			ok := false
			for _, w := range tt.want {
				ok = ok || res.StatusCode == w
			}
			if !ok {
				t.Errorf("GET %q = %d, want one of %v", tt.target, res.StatusCode, tt.want)
			}
			if loc := res.Header.Get("Location"); strings.HasPrefix(loc, "//") || strings.Contains(loc, "evil.example") && !strings.HasPrefix(loc, "/") {
				t.Errorf("GET %q redirects off-site to %q", tt.target, loc)
			}
		})
	}
}

func TestHostileHeaders(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	headers := []map[string]string{
		{"Accept-Language": strings.Repeat("de-DE-x-", 2000)},
		{"Accept-Language": "\xff\xfe;q=\xff"},
		{"Accept-Language": "*;q=1e400, de;q=-1"},
		{"Cookie": "i18n_redirected=\xff; i18n_redirected=de"},
		{"Cookie": strings.Repeat("a=b; ", 2000)},
		{"Cookie": "i18n_redirected"},
		{"Accept-Encoding": strings.Repeat("br;q=0,", 1000)},
		{"If-None-Match": strings.Repeat(`W/"x",`, 1000)},
		{"User-Agent": strings.Repeat("bot", 1000)},
	}
	for _, h := range headers {
		for _, target := range []string{"/", "/de/faq", "/nope", "/xx/faq"} {
			res, _ := serve(t, s.Handler(), request{target: target, header: h})
			if res.StatusCode >= 500 {
				t.Errorf("GET %s with %.60q = %d", target, h, res.StatusCode)
			}
		}
	}
}

// TestRawRequests sends bytes no client library would, through a real connection.
func TestRawRequests(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	tests := []struct{ name, requestLine string }{
		{"NUL byte", "GET /de\x00/faq HTTP/1.1"},
		{"invalid UTF-8", "GET /de/\xff\xfe HTTP/1.1"},
		{"dot segments", "GET /de/../../../etc/passwd HTTP/1.1"},
		{"backslashes", `GET /\evil.example/ HTTP/1.1`},
		{"absolute form", "GET http://evil.example/de/faq/ HTTP/1.1"},
		{"no slash", "GET de/faq HTTP/1.1"},
		{"asterisk", "GET * HTTP/1.1"},
		{"space in path", "GET /de/ faq HTTP/1.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Write([]byte(tt.requestLine + "\r\nHost: localhost\r\nConnection: close\r\n\r\n")); err != nil {
				t.Fatal(err)
			}
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("read response: %v", err)
			}
			res.Body.Close()
			if res.StatusCode >= 500 {
				t.Errorf("%q = %d", tt.requestLine, res.StatusCode)
			}
			if loc := res.Header.Get("Location"); strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, `/\`) || strings.Contains(loc, "://") {
				t.Errorf("%q redirects off-site to %q", tt.requestLine, loc)
			}
		})
	}
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	var readErr error
	h := s.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, readErr = io.Copy(io.Discard, r.Body)
	}))
	r := httptest.NewRequest(http.MethodPost, "/api/v1/x", strings.NewReader(strings.Repeat("x", maxBodyBytes+1)))
	h.ServeHTTP(httptest.NewRecorder(), r)
	var tooLarge *http.MaxBytesError
	if !errors.As(readErr, &tooLarge) {
		t.Errorf("reading a body over 1 MiB: %v, want *http.MaxBytesError", readErr)
	}
}

func FuzzServe(f *testing.F) {
	seeds := []struct{ path, acceptLanguage, cookie, acceptEncoding, ifNoneMatch, userAgent string }{
		{"/", "de-DE,de;q=0.9", "", "gzip, br", "", chromeUA},
		{"/de/faq/", "", "i18n_redirected=jp", "", "", ""},
		{"/xx/faq", "*", "i18n_redirected=xx", "br;q=0", "*", googlebotUA},
		{"/ja/faq?x=1", ";;", "=;", "*;q=0", `W/"a", "b"`, "bot"},
		{"/%2e%2e/x", "\xff", "\x00", "\xff", "\xff", "\xff"},
	}
	for _, s := range seeds {
		f.Add(s.path, s.acceptLanguage, s.cookie, s.acceptEncoding, s.ifNoneMatch, s.userAgent)
	}
	s := newTestServer(f, httpOrigin)
	f.Fuzz(func(t *testing.T, path, acceptLanguage, cookie, acceptEncoding, ifNoneMatch, userAgent string) {
		r, err := http.NewRequest(http.MethodGet, "http://localhost"+path, nil)
		if err != nil || r.URL.Host != "localhost" {
			return // not a request a client can send
		}
		r.RequestURI = r.URL.RequestURI()
		for k, v := range map[string]string{"Accept-Language": acceptLanguage, "Cookie": cookie, "Accept-Encoding": acceptEncoding,
			"If-None-Match": ifNoneMatch, "User-Agent": userAgent} {
			r.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, r)
		if rec.Code >= 500 {
			t.Fatalf("GET %q = %d", path, rec.Code)
		}
		if loc := rec.Header().Get("Location"); strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, `/\`) {
			t.Fatalf("GET %q redirects off-site to %q", path, loc)
		}
	})
}
