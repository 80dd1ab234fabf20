package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestNotFound(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	tests := []struct {
		name, target, ua, wantBody string
		wantNot                    string
	}{
		{"English unknown", "/nope", chromeUA, "<h1>error 404 en</h1>", "error-detail"},
		{"German unknown", "/de/nope", chromeUA, "<h1>error 404 de</h1>", "error-detail"},
		{"Japanese unknown", "/jp/faq/extra", chromeUA, "<h1>error 404 jp</h1>", ""},
		{"unknown prefix", "/xx/faq", chromeUA, `<p class="error-detail">Page Not Found: /xx/faq</p>`, "<!--handy:detail-->"},
		{"unknown prefix alone", "/xx", chromeUA, `<p class="error-detail">Page Not Found: /xx</p>`, ""},
		{"English has no prefix", "/en/faq", chromeUA, `<p class="error-detail">Page Not Found: /en/faq</p>`, ""},
		{"bot unknown", "/de/nope", googlebotUA, "404 Page Not Found\n", "<h1>"},
		{"bot invalid prefix", "/xx/faq", googlebotUA, "404 Page Not Found\n", "<h1>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, body := serve(t, s.Handler(), request{target: tt.target, header: map[string]string{"User-Agent": tt.ua}})
			if res.StatusCode != http.StatusNotFound || res.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("GET %s = %d Cache-Control %q, want 404 no-store", tt.target, res.StatusCode, res.Header.Get("Cache-Control"))
			}
			if !strings.Contains(body, tt.wantBody) || (tt.wantNot != "" && strings.Contains(body, tt.wantNot)) {
				t.Errorf("GET %s body = %.300q, want %q without %q", tt.target, body, tt.wantBody, tt.wantNot)
			}
			if tt.ua == googlebotUA && (body != tt.wantBody || res.Header.Get("Content-Type") != "text/plain; charset=utf-8") {
				t.Errorf("bot body = %q (%s), want exactly %q", body, res.Header.Get("Content-Type"), tt.wantBody)
			}
		})
	}
}

func TestNotFoundCompressed(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	for _, target := range []string{"/de/nope", "/xx/faq"} {
		res, body := serve(t, s.Handler(), request{target: target, header: map[string]string{"Accept-Encoding": "gzip"}})
		if res.StatusCode != 404 || res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Etag") != "" {
			t.Errorf("GET %s = %d Content-Encoding %q ETag %q, want gzip without ETag", target, res.StatusCode,
				res.Header.Get("Content-Encoding"), res.Header.Get("Etag"))
		}
		if !strings.Contains(decode(t, res, body), "error 404") {
			t.Errorf("GET %s decoded body lacks the 404 page", target)
		}
	}
}

// logEntry is one JSON log line of the test server.
type logEntry struct {
	Level     string `json:"level"`
	Msg       string `json:"msg"`
	RequestID string `json:"request_id"`
	Error     string `json:"error"`
	Path      string `json:"path"`
	Stack     string `json:"stack"`
}

func logLines(t *testing.T, log string, requestID string) []logEntry {
	t.Helper()
	var found []logEntry
	for line := range strings.Lines(log) {
		var e logEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if e.RequestID == requestID {
			found = append(found, e)
		}
	}
	return found
}

func TestInternalError(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	failing := s.middleware(s.handle(func(w http.ResponseWriter, r *http.Request) error {
		return errors.New("database on fire: secret detail")
	}))
	wrapping := s.middleware(s.handle(func(w http.ResponseWriter, r *http.Request) error {
		return &Error{Status: http.StatusInternalServerError, Code: "internal", Cause: errors.New("database on fire: secret detail")}
	}))
	panicking := s.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic("nil map: secret detail")
	}))
	tests := []struct {
		name, target, ua, wantBody, wantLogged string
		h                                      http.Handler
		wantStack                              bool
	}{
		{"returned error, German", "/de/faq", chromeUA, "<h1>error 500 de</h1>", "database on fire", failing, false},
		{"returned error, English", "/x", chromeUA, "<h1>error 500 en</h1>", "database on fire", failing, false},
		{"panic, Korean", "/ko/x", chromeUA, "<h1>error 500 ko</h1>", "panic: nil map", panicking, true},
		{"returned error, bot", "/de/faq", googlebotUA, "500 Internal Server Error\n", "database on fire", failing, false},
		{"panic, bot", "/", googlebotUA, "500 Internal Server Error\n", "panic: nil map", panicking, true},
		// The API answers JSON, whatever failed.
		{"returned error, API", "/api/v1/auth/me", chromeUA, apiInternal, "database on fire", failing, false},
		{"panic, API", "/api/v1/auth/me", chromeUA, apiInternal, "panic: nil map", panicking, true},
		// A wrapped cause behind a public 5xx is logged too, and not shown.
		{"wrapped cause", "/de/faq", chromeUA, "<h1>error 500 de</h1>", "database on fire", wrapping, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, body := serve(t, tt.h, request{target: tt.target, header: map[string]string{"User-Agent": tt.ua}})
			if res.StatusCode != http.StatusInternalServerError || res.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("status %d Cache-Control %q, want 500 no-store", res.StatusCode, res.Header.Get("Cache-Control"))
			}
			if !strings.Contains(body, tt.wantBody) || strings.Contains(body, "secret") {
				t.Errorf("body = %.300q, want %q and no cause", body, tt.wantBody)
			}
			id := res.Header.Get("X-Request-Id")
			if id == "" {
				t.Fatal("no X-Request-Id")
			}
			lines := logLines(t, s.log.String(), id)
			if len(lines) != 1 {
				t.Fatalf("%d log lines for request %s, want 1:\n%s", len(lines), id, s.log.String())
			}
			l := lines[0]
			if l.Level != "ERROR" || !strings.Contains(l.Error, tt.wantLogged) || l.Path != tt.target {
				t.Errorf("log line = %+v", l)
			}
			if tt.wantStack != (l.Stack != "") {
				t.Errorf("stack logged = %v for %s", l.Stack != "", tt.name)
			}
		})
	}
}

const apiInternal = `{"error":{"code":"internal","message":"Something went wrong on our side."}}` + "\n"

// Errors raised before any route, such as a request target over the length limit, are JSON on
// API paths too; everywhere else they are plain text.
func TestURITooLong(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	long := strings.Repeat("a", maxURILength)
	for _, tt := range []struct{ target, contentType, body string }{
		{"/api/v1/" + long, "application/json; charset=utf-8", `{"error":{"code":"uri-too-long","message":"The request URI is too long."}}` + "\n"},
		{"/" + long, "text/plain; charset=utf-8", "414 Request URI Too Long\n"},
	} {
		res, body := serve(t, s.Handler(), request{target: tt.target, header: map[string]string{"User-Agent": chromeUA}})
		if res.StatusCode != http.StatusRequestURITooLong || res.Header.Get("Content-Type") != tt.contentType || body != tt.body {
			t.Errorf("GET %.20s… = %d %s %q, want 414 %s %q", tt.target, res.StatusCode, res.Header.Get("Content-Type"), body, tt.contentType, tt.body)
		}
	}
}

func TestPanicAfterWrite(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	h := s.middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		panic("late")
	}))
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, http.ErrAbortHandler) {
			t.Errorf("recovered %v, want http.ErrAbortHandler so the connection is cut", err)
		}
	}()
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
}
