package pages

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"handy/internal/config"
	"handy/internal/pages/pagestest"
	"handy/internal/site"
	"handy/web"
)

// TestBuildCopies: the compressed copies the build wrote beside a file are served as they are,
// never at a URL of their own; a copy of a file the server writes the configuration into is
// stale and ignored; a .gz without its file beside it is an ordinary file.
func TestBuildCopies(t *testing.T) {
	t.Parallel()
	table := site.Default()
	dist := pagestest.Dist(table)
	js := dist["assets/app-3f9a1c.js"].Data
	// Not what the server would make of js: proof that it sends the build's bytes.
	builtGzip := mustGzip(t, append(js, "// built\n"...))
	builtBrotli := mustBrotli(t, append(js, "// built\n"...))
	dist["assets/app-3f9a1c.js.gz"] = &fstest.MapFile{Data: builtGzip}
	dist["assets/app-3f9a1c.js.br"] = &fstest.MapFile{Data: builtBrotli}
	stale := mustBrotli(t, dist["de/faq/_payload.json"].Data) // holds the origin placeholder
	dist["de/faq/_payload.json.br"] = &fstest.MapFile{Data: stale}
	dist["downloads/sample.txt.gz"] = &fstest.MapFile{Data: mustGzip(t, []byte("a download\n"))}
	s, err := Load(config.Config{Addr: "127.0.0.1:0", PublicURL: testOrigin}, table, dist,
		slog.New(slog.DiscardHandler), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for enc, want := range map[string][]byte{"gzip": builtGzip, "br": builtBrotli} {
		res, body := pagestest.Serve(t, handler(s), pagestest.Request{Target: "/assets/app-3f9a1c.js", Header: map[string]string{"Accept-Encoding": enc}})
		if res.Header.Get("Content-Encoding") != enc || body != string(want) {
			t.Errorf("%s: Content-Encoding %q, %d bytes; want the build's %d bytes", enc, res.Header.Get("Content-Encoding"), len(body), len(want))
		}
	}
	res, body := pagestest.Serve(t, handler(s), pagestest.Request{Target: "/de/faq/_payload.json", Header: map[string]string{"Accept-Encoding": "br"}})
	if got := pagestest.Decode(t, res, body); !strings.Contains(got, testOrigin) || body == string(stale) {
		t.Errorf("payload with a stale build copy: served %q", got)
	}
	for _, target := range []string{"/assets/app-3f9a1c.js.gz", "/assets/app-3f9a1c.js.br", "/de/faq/_payload.json.br"} {
		if res, _ := pagestest.Serve(t, handler(s), pagestest.Request{Target: target}); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404 (a copy has no URL)", target, res.StatusCode)
		}
	}
	if res, _ := pagestest.Serve(t, handler(s), pagestest.Request{Target: "/downloads/sample.txt.gz"}); res.StatusCode != http.StatusOK {
		t.Errorf("GET /downloads/sample.txt.gz: %d, want 200", res.StatusCode)
	}
}

// TestCompressBest: Load compresses pages quickly; CompressBest makes them smaller, while
// requests keep reading them, and logs when done. Every answer decodes to the page.
func TestCompressBest(t *testing.T) {
	t.Parallel()
	log := &bytes.Buffer{}
	table := site.Default()
	s, err := Load(config.Config{Addr: "127.0.0.1:0", PublicURL: testOrigin}, table, pagestest.Dist(table),
		slog.New(slog.NewTextHandler(log, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	const page = "/de/area-calculator"
	_, identity := pagestest.Serve(t, handler(s), pagestest.Request{Target: page})
	before := map[string]*http.Response{}
	sizes := map[string]int{}
	for _, enc := range []string{"gzip", "br"} {
		res, body := pagestest.Serve(t, handler(s), pagestest.Request{Target: page, Header: map[string]string{"Accept-Encoding": enc}})
		before[enc], sizes[enc] = res, len(body)
	}

	ctx, cancel := context.WithCancel(context.Background())
	var readers sync.WaitGroup
	for _, enc := range []string{"gzip", "br", "br, gzip"} {
		readers.Go(func() {
			for ctx.Err() == nil {
				res, body := pagestest.Serve(t, handler(s), pagestest.Request{Target: page, Header: map[string]string{"Accept-Encoding": enc}})
				if pagestest.Decode(t, res, body) != identity {
					t.Errorf("%s: a body read during CompressBest does not decode to the page", enc)
					return
				}
			}
		})
	}
	s.CompressBest(context.Background())
	cancel()
	readers.Wait()

	for _, enc := range []string{"gzip", "br"} {
		res, body := pagestest.Serve(t, handler(s), pagestest.Request{Target: page, Header: map[string]string{"Accept-Encoding": enc}})
		if pagestest.Decode(t, res, body) != identity {
			t.Errorf("%s: body does not decode to the page", enc)
		}
		switch {
		case len(body) > sizes[enc]:
			t.Errorf("%s: %d bytes after CompressBest, %d before", enc, len(body), sizes[enc])
		case len(body) < sizes[enc] && res.Header.Get("Etag") == before[enc].Header.Get("Etag"):
			t.Errorf("%s: new bytes under the old ETag %s", enc, res.Header.Get("Etag"))
		}
	}
	if _, body := pagestest.Serve(t, handler(s), pagestest.Request{Target: page, Header: map[string]string{"Accept-Encoding": "br"}}); len(body) >= sizes["br"] {
		t.Errorf("br: %d bytes after CompressBest, not fewer than the %d Load made", len(body), sizes["br"])
	}
	if !strings.Contains(log.String(), "pages compressed at the best levels") {
		t.Errorf("CompressBest logged nothing:\n%s", log.String())
	}
}

// TestCompressBestStops: CompressBest returns at once, quietly, when its context has ended.
func TestCompressBestStops(t *testing.T) {
	t.Parallel()
	log := &bytes.Buffer{}
	table := site.Default()
	s, err := Load(config.Config{Addr: "127.0.0.1:0", PublicURL: testOrigin}, table, pagestest.Dist(table),
		slog.New(slog.NewTextHandler(log, nil)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.CompressBest(ctx)
	if log.String() != "" {
		t.Errorf("CompressBest after its context ended logged:\n%s", log.String())
	}
}

// TestBuildOutputPrecompressed checks `make build`'s output (web/dist): every file the server
// sends as it is has its compressed copies from the build (start-up compresses only what the
// configuration is written into), and no file holding a placeholder has any.
func TestBuildOutputPrecompressed(t *testing.T) {
	t.Parallel()
	dist, table := web.Dist(), site.Default()
	if _, err := fs.Stat(dist, "index.html"); err != nil {
		t.Fatalf("web/dist is not built (run make build): %v", err)
	}
	placeholders := [][]byte{[]byte(table.OriginPlaceholder()), []byte(table.TagManagerPlaceholder())}
	op := table.OperatorPlaceholders()
	placeholders = append(placeholders, []byte(op.ContactEmail), []byte(op.Jurisdiction))
	checked := 0
	err := fs.WalkDir(dist, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") || !compressible(name) {
			return err
		}
		body, err := fs.ReadFile(dist, name)
		if err != nil {
			return err
		}
		_, gzErr := fs.Stat(dist, name+gzipSuffix)
		_, brErr := fs.Stat(dist, name+brotliSuffix)
		if containsAny(body, placeholders) {
			if gzErr == nil || brErr == nil {
				t.Errorf("%s holds a placeholder yet has a compressed copy from the build", name)
			}
			return nil
		}
		checked++
		if gz := mustGzip(t, body); len(gz) < len(body) && gzErr != nil {
			t.Errorf("%s: no %s copy from the build (compresses %d → %d bytes)", name, gzipSuffix, len(body), len(gz))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Errorf("only %d files without placeholders checked: is web/dist complete?", checked)
	}
}

func containsAny(body []byte, subs [][]byte) bool {
	for _, s := range subs {
		if len(s) > 0 && bytes.Contains(body, s) {
			return true
		}
	}
	return false
}

func mustGzip(t testing.TB, b []byte) []byte {
	t.Helper()
	out, err := gzipBytes(b, bestCompression.Gzip)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mustBrotli(t testing.TB, b []byte) []byte {
	t.Helper()
	out, err := brotliBytes(b, bestCompression.Brotli)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCompressionCache: the best-level copies CompressBest makes are kept for the next start,
// which serves them from the first request and recompresses nothing; a copy that does not
// decode to its page is recompressed, never served; the copies of older builds and a crash's
// temporary files go; a cache that cannot be written is said once, and the pages are served.
func TestCompressionCache(t *testing.T) {
	t.Parallel()
	table := site.Default()
	cfg := config.Config{Addr: "127.0.0.1:0", PublicURL: testOrigin}
	dir := filepath.Join(t.TempDir(), "compressed")
	start := func(dir string) (*Pages, *bytes.Buffer) {
		log := &bytes.Buffer{}
		s, err := Load(cfg, table, pagestest.Dist(table), slog.New(slog.NewTextHandler(log, nil)), Options{CacheDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return s, log
	}
	const page = "/de/area-calculator"
	brotliOf := func(s *Pages) string {
		res, body := pagestest.Serve(t, handler(s), pagestest.Request{Target: page, Header: map[string]string{"Accept-Encoding": "br"}})
		if res.Header.Get("Content-Encoding") != "br" {
			t.Fatalf("Content-Encoding %q", res.Header.Get("Content-Encoding"))
		}
		return body
	}
	_, identity := pagestest.Serve(t, handler(load(t)), pagestest.Request{Target: page})
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := []string{strings.Repeat("0", 64) + ".br", ".tmp-123"}
	for _, name := range stale {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	first, log := start(dir)
	if len(first.belowBest) == 0 {
		t.Fatal("the first start has nothing to compress")
	}
	first.CompressBest(context.Background())
	if !strings.Contains(log.String(), "from_cache=0") {
		t.Errorf("first start:\n%s", log.String())
	}
	best := brotliOf(first)
	files, _ := os.ReadDir(dir)
	if len(files) != 2*len(first.cached) {
		t.Errorf("%d files in the cache, want 2 × %d", len(files), len(first.cached))
	}
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there: %v", name, err)
		}
	}

	second, log := start(dir)
	if len(second.belowBest) != 0 || second.cacheHits != len(second.cached) {
		t.Errorf("second start: %d to compress, %d of %d from the cache", len(second.belowBest), second.cacheHits, len(second.cached))
	}
	if got := brotliOf(second); got != best {
		t.Errorf("second start serves %d bytes of brotli before CompressBest, want the best level's %d", len(got), len(best))
	}
	second.CompressBest(context.Background())
	if !strings.Contains(log.String(), "files=0") {
		t.Errorf("second start:\n%s", log.String())
	}

	// A torn or altered copy: recompressed, and the page served right meanwhile.
	key := filepath.Join(dir, cacheKey([]byte(identity)))
	if err := os.WriteFile(key+".br", []byte(best[:len(best)/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	third, _ := start(dir)
	if len(third.belowBest) != 1 {
		t.Errorf("with one copy torn, %d files to compress, want 1", len(third.belowBest))
	}
	res, body := pagestest.Serve(t, handler(third), pagestest.Request{Target: page, Header: map[string]string{"Accept-Encoding": "br"}})
	if pagestest.Decode(t, res, body) != identity {
		t.Error("with its copy torn, the page does not decode")
	}
	third.CompressBest(context.Background())
	if got, _ := os.ReadFile(key + ".br"); string(got) != best {
		t.Error("the torn copy was not replaced")
	}

	// A cache under a file cannot be made: said once, and the pages still compressed.
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	unwritable, log := start(filepath.Join(blocker, "compressed"))
	unwritable.CompressBest(context.Background())
	if n := strings.Count(log.String(), "not keeping the compressed pages"); n != 1 {
		t.Errorf("the failure was logged %d times:\n%s", n, log.String())
	}
	if got := brotliOf(unwritable); got != best {
		t.Error("without a cache, the page is not at the best level after CompressBest")
	}
}
