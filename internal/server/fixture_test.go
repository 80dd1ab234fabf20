package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"handy/internal/config"
	"handy/internal/site"
)

// filler makes fixture documents long enough for compression to pay.
var filler = strings.Repeat("<p>Handy Tools flips images and computes areas and speeds.</p>\n", 12)

// fixtureStyle is the inline stylesheet of every fixture document; fixtureStyleHash allows it.
const (
	fixtureStyle     = "<style>body{margin:0}</style>"
	fixtureStyleHash = "'sha256-IAdwN3biDCQ3brrgp1m8kBEsPQYyqfREKOEfeoREopc='"
)

// fixtureDist is a build output as docs/architecture.md describes it, made from the site
// table: one small document per page × locale, error pages, a payload, an asset and builds.
func fixtureDist(table *site.Table) fstest.MapFS {
	origin := table.OriginPlaceholder()
	fsys := fstest.MapFS{
		".gitkeep":               {Data: nil},
		"assets/app-3f9a1c.js":   {Data: []byte(strings.Repeat("console.log('handy');\n", 40))},
		"assets/logo-77aa00.png": {Data: []byte("\x89PNG\r\n\x1a\nnot really a png")},
		"favicon.ico":            {Data: []byte("icon")},
		"builds/latest.json":     {Data: []byte(`{"id":"b1","timestamp":1700000000000}`)},
		"builds/meta/b1.json":    {Data: []byte(`{"id":"b1","timestamp":1700000000000,"routeRules":{},"prerendered":["/"],"origin":"` + origin + `"}`)},
		"_payload.json":          {Data: []byte(`{"canonical":"` + origin + `/"}`)},
		"de/faq/_payload.json":   {Data: []byte(`{"canonical":"` + origin + `/de/faq"}`)},
		"_errors/notes.txt":      {Data: []byte("not an error page")},
	}
	for _, r := range table.Routes() {
		doc := `<!doctype html><html lang="` + r.Locale.Lang + `"><head><title>` + r.Name + `</title>` + fixtureStyle +
			`<link rel="canonical" href="` + origin + r.Path + `"></head><body><h1>` + r.Name + "</h1>\n" + filler + "</body></html>\n"
		fsys[documentOf(r.Path)] = &fstest.MapFile{Data: []byte(doc)}
	}
	for _, loc := range table.Locales() {
		for _, status := range []string{"404", "500"} {
			doc := `<!doctype html><html lang="` + loc.Lang + `"><head>` + fixtureStyle + `</head><body><h1>error ` + status + ` ` + loc.Code + `</h1>`
			if status == "404" {
				doc += detailMarker
			}
			doc += filler + "</body></html>\n"
			fsys["_errors/"+loc.Code+"/"+status+".html"] = &fstest.MapFile{Data: []byte(doc)}
		}
		doc := `<!doctype html><html lang="` + loc.Lang + `"><head><meta name="robots" content="noindex">` + fixtureStyle + `</head><body><h1>admin ` + loc.Code + "</h1></body></html>\n"
		dir := loc.Code
		if table.IsDefault(loc) {
			dir = ""
		}
		fsys[path.Join(adminDir, dir, "admin/index.html")] = &fstest.MapFile{Data: []byte(doc)}
	}
	return fsys
}

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
func quickCompression(s *Server) { s.compression = compression{gzip: gzip.BestSpeed, brotli: 0} }

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

// request describes one request to send through the handler.
type request struct {
	method, target string
	header         map[string]string
}

// serve sends req through h and returns the response with its body read (and decoded when
// decode is set and the response is compressed).
func serve(t testing.TB, h http.Handler, req request) (*http.Response, string) {
	t.Helper()
	method := req.method
	if method == "" {
		method = http.MethodGet
	}
	r := httptest.NewRequest(method, req.target, nil)
	for k, v := range req.header {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	res := rec.Result()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

// decode undoes the response's Content-Encoding.
func decode(t testing.TB, res *http.Response, body string) string {
	t.Helper()
	var r io.Reader
	switch res.Header.Get("Content-Encoding") {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(strings.NewReader(body))
	default:
		t.Fatalf("unexpected Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const (
	chromeUA    = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
	googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)
