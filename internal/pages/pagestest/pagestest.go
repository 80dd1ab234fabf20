// Package pagestest is what the tests of internal/pages and internal/server share: a build
// output made from the site table, and a way to send requests and read their answers.
package pagestest

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"handy/internal/site"
)

// detailMarker is pages.DetailMarker, written here so that the pages' own tests can use the
// fixture (a test of package pages cannot import a package that imports pages).
const detailMarker = "<!--handy:detail-->"

// filler makes fixture documents long enough for compression to pay.
var filler = strings.Repeat("<p>Handy Tools flips images and computes areas and speeds.</p>\n", 12)

// Style is the inline stylesheet of every fixture document; StyleHash allows it.
const (
	Style     = "<style>body{margin:0}</style>"
	StyleHash = "'sha256-IAdwN3biDCQ3brrgp1m8kBEsPQYyqfREKOEfeoREopc='"
)

// Dist is a build output as docs/architecture.md describes it, made from the site
// table: one small document per page × locale, error pages, a payload, an asset and builds.
func Dist(table *site.Table) fstest.MapFS {
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
		doc := `<!doctype html><html lang="` + r.Locale.Lang + `"><head><title>` + r.Name + `</title>` + Style +
			`<link rel="canonical" href="` + origin + r.Path + `"></head><body><h1>` + r.Name + "</h1>\n" + filler + "</body></html>\n"
		fsys[document(r.Path)] = &fstest.MapFile{Data: []byte(doc)}
	}
	for _, loc := range table.Locales() {
		for _, status := range []string{"404", "500"} {
			doc := `<!doctype html><html lang="` + loc.Lang + `"><head>` + Style + `</head><body><h1>error ` + status + ` ` + loc.Code + `</h1>`
			if status == "404" {
				doc += detailMarker
			}
			doc += filler + "</body></html>\n"
			fsys["_errors/"+loc.Code+"/"+status+".html"] = &fstest.MapFile{Data: []byte(doc)}
		}
		doc := `<!doctype html><html lang="` + loc.Lang + `"><head><meta name="robots" content="noindex">` + Style + `</head><body><h1>admin ` + loc.Code + "</h1></body></html>\n"
		dir := loc.Code
		if table.IsDefault(loc) {
			dir = ""
		}
		fsys[path.Join("_admin", dir, "admin/index.html")] = &fstest.MapFile{Data: []byte(doc)}
	}
	return fsys
}

// document names the build output file of a page URL: / → index.html, /de/faq → de/faq/index.html.
func document(url string) string {
	if url == "/" {
		return "index.html"
	}
	return strings.TrimPrefix(url, "/") + "/index.html"
}

// Request describes one request to send through the handler.
type Request struct {
	Method, Target string // Method defaults to GET
	Header         map[string]string
}

// Serve sends req through h and returns the response with its body read (and decoded when
// decode is set and the response is compressed).
func Serve(t testing.TB, h http.Handler, req Request) (*http.Response, string) {
	t.Helper()
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	r := httptest.NewRequest(method, req.Target, nil)
	for k, v := range req.Header {
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

// Decode undoes the response's Content-Encoding.
func Decode(t testing.TB, res *http.Response, body string) string {
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
