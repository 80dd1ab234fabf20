package server

import (
	"bytes"
	"compress/gzip"
	"log/slog"
	"net/http"
	"sync"
	"testing"

	"handy/internal/config"
	"handy/internal/pages"
	"handy/internal/pages/pagestest"
	"handy/internal/site"
)

// syncBuffer is a log destination safe for parallel handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const (
	httpOrigin  = "http://localhost:8080"
	httpsOrigin = "https://handy.example"
)

// testServer is a Server over the fixture, with its log.
type testServer struct {
	*Server
	log *syncBuffer
}

// quickCompression is an Option for servers whose tests are about something else than the
// compressed bytes (the API, the lifecycle): it builds their entries at the fastest levels
// without brotli, which under the race detector saves time a server. The page tests keep the
// real levels.
func quickCompression(s *Server) {
	s.pageOpts.Compression = pages.Compression{Gzip: gzip.BestSpeed, Brotli: 0}
}

// servers builds one Server per public URL and shares it between tests: building compresses
// every fixture file, which is slow under the race detector.
var servers sync.Map // public URL → func() (testServer, error)

func newTestServer(t testing.TB, publicURL string) testServer {
	t.Helper()
	build, _ := servers.LoadOrStore(publicURL, sync.OnceValues(func() (testServer, error) {
		log := &syncBuffer{}
		cfg := config.Config{Addr: "127.0.0.1:0", PublicURL: publicURL, LogFormat: "json"}
		s, err := New(cfg, site.Default(), fixtureDist(site.Default()), slog.New(slog.NewJSONHandler(log, &slog.HandlerOptions{Level: slog.LevelInfo})))
		return testServer{s, log}, err
	}))
	ts, err := build.(func() (testServer, error))()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return ts
}

// The fixture and the request helpers are pagestest's, shared with the pages' tests.
var (
	fixtureDist = pagestest.Dist
	decode      = pagestest.Decode
)

// request describes one request to send through the handler.
type request struct {
	method, target string
	header         map[string]string
}

// serve sends req through h and returns the response with its body read (pagestest.Serve).
func serve(t testing.TB, h http.Handler, req request) (*http.Response, string) {
	t.Helper()
	return pagestest.Serve(t, h, pagestest.Request{Method: req.method, Target: req.target, Header: req.header})
}

const fixtureStyleHash = pagestest.StyleHash

const (
	chromeUA    = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
	googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)
