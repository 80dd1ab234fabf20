package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// discardWriter is a ResponseWriter that keeps nothing but a reusable header map, so that the
// benchmark measures the server, not the recorder.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }

// BenchmarkServePage serves /de/area-calculator gzipped through the whole handler (middleware,
// route table, look-up, headers, write), as scripts/bench.sh does over the network.
func BenchmarkServePage(b *testing.B) {
	s := newTestServer(b, httpsOrigin)
	h := s.Handler()
	r := httptest.NewRequest(http.MethodGet, "/de/area-calculator", nil)
	r.Header.Set("Accept-Encoding", "gzip, deflate, br;q=0")
	r.Header.Set("User-Agent", chromeUA)
	w := &discardWriter{h: make(http.Header)}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		h.ServeHTTP(w, r)
	}
	if w.status != http.StatusOK || w.h.Get("Content-Encoding") != "gzip" {
		b.Fatalf("status %d, Content-Encoding %q", w.status, w.h.Get("Content-Encoding"))
	}
}
