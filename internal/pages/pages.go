// Package pages holds the front-end build output (docs/architecture.md, "The build output
// contract") in memory, ready to serve: every file with the configuration written in and in
// every encoding worth keeping, the sitemaps and robots.txt made from the site table, the
// styled error pages and the hashes of the inline styles and scripts for the CSP. It knows
// nothing of routes or the API: internal/server decides which entry answers a request.
package pages

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"html"
	"io/fs"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"handy/internal/config"
	"handy/internal/site"
)

// Pages is the build output held in memory. Everything is built by Load; afterwards only
// CompressBest swaps in smaller encodings, atomically, so it serves any number of requests
// concurrently.
type Pages struct {
	logger *slog.Logger

	files              map[string]*Entry // build output by URL path
	sitemaps           map[string]*Entry // by URL path
	robots             *Entry
	admin              map[string]*Entry // the operator's dashboard by URL path; empty unless Options.Admin
	notFound           map[string]*Entry // by locale code
	internalError      map[string]*Entry // by locale code
	notFoundDetailPage []byte            // the default locale's 404 page, for validation details
	inline             InlineHashes

	belowBest []*Entry        // entries CompressBest compresses better
	cache     *compressCache  // nil: no cache of the best-level copies
	cached    map[string]bool // the cache keys of the files Load compressed or found in the cache
	cacheHits int             // files Load found in the cache
}

// Options says what Load builds besides the site's files.
type Options struct {
	// Admin serves the operator's dashboard (an admin token is configured).
	Admin bool
	// CacheDir, when set, keeps the best-level compressed pages there (created when needed)
	// across restarts. Without it, every start recompresses them.
	CacheDir string
	// Compression is the levels Load compresses at what the build did not; the zero value is
	// the fastest levels that still pay. Tests about something else than the
	// compressed bytes pass faster ones.
	Compression Compression
}

// Load reads the front-end build output from dist, made for the site table, writes cfg's
// public URL and operator details into it, checks that every page and error page is there
// (else ErrNotBuilt), generates sitemaps and robots.txt and precompresses everything.
func Load(cfg config.Config, table *site.Table, dist fs.FS, logger *slog.Logger, o Options) (*Pages, error) {
	files, err := readDist(dist, table, substitutions(table, cfg))
	if err != nil {
		return nil, fmt.Errorf("pages: %w", err)
	}
	p := &Pages{logger: logger, inline: hashInline(files)}
	if o.CacheDir != "" {
		p.cache = &compressCache{dir: o.CacheDir}
	}
	levels := o.Compression
	if levels == (Compression{}) {
		levels = startCompression
	}
	if err := p.buildEntries(table, files, cfg.PublicURL, o.Admin, levels); err != nil {
		return nil, fmt.Errorf("pages: %w", err)
	}
	return p, nil
}

// buildEntries turns the build output, the sitemaps and robots.txt into compressed entries.
func (p *Pages) buildEntries(table *site.Table, files distFiles, origin string, admin bool, levels Compression) error {
	p.files = make(map[string]*Entry)
	p.sitemaps = make(map[string]*Entry)
	p.notFound = make(map[string]*Entry)
	p.internalError = make(map[string]*Entry)
	p.admin = make(map[string]*Entry)
	var jobs []entryJob
	for url, f := range files.byURL {
		spec := entrySpec{
			body:         f.body,
			contentType:  contentTypeOf(f.name),
			cacheControl: cacheRevalidate,
			vary:         varyEncoding,
			etag:         true,
			compress:     compressible(f.name),
			built:        f.built,
		}
		if strings.HasPrefix(url, "/assets/") {
			spec.cacheControl = cacheImmutable
		}
		if url == "/" {
			spec.vary = varyRoot
		}
		jobs = append(jobs, entryJob{spec, func(e *Entry) { p.files[url] = e }})
	}
	if admin {
		for url, f := range files.adminPages {
			spec := entrySpec{body: f.body, contentType: contentTypeOf(f.name), cacheControl: cacheRevalidate,
				vary: varyEncoding, etag: true, compress: true, built: f.built}
			jobs = append(jobs, entryJob{spec, func(e *Entry) { p.admin[url] = e }})
		}
	}
	for code, pages := range files.errorPages {
		for status, f := range pages {
			byCode := p.internalError
			if status == "404" {
				byCode = p.notFound
			}
			spec := entrySpec{body: f.body, contentType: contentTypeOf(f.name), cacheControl: cacheNoStore, vary: varyEncoding,
				compress: true, built: f.built}
			jobs = append(jobs, entryJob{spec, func(e *Entry) { byCode[code] = e }})
		}
	}
	for _, loc := range table.Locales() {
		path := SitemapPath(table, loc)
		spec := entrySpec{body: buildSitemap(table, origin, loc), contentType: contentTypeOf(path),
			cacheControl: cacheRevalidate, vary: varyEncoding, etag: true, compress: true}
		jobs = append(jobs, entryJob{spec, func(e *Entry) { p.sitemaps[path] = e }})
	}
	robots := entrySpec{body: buildRobots(table, origin), contentType: contentTypeOf("robots.txt"),
		cacheControl: cacheRevalidate, vary: varyEncoding, etag: true, compress: true}
	jobs = append(jobs, entryJob{robots, func(e *Entry) { p.robots = e }})
	p.fromCache(jobs)
	below, err := buildEntries(jobs, levels)
	if err != nil {
		return err
	}
	p.belowBest = below

	en404 := files.errorPages[table.DefaultLocale().Code]["404"]
	p.notFoundDetailPage = en404.body
	if !bytes.Contains(en404.body, []byte(DetailMarker)) {
		p.logger.Warn("the 404 page has no detail marker: validation failures will not name the path",
			slog.String("file", en404.name), slog.String("marker", DetailMarker))
	}
	return nil
}

// fromCache gives the jobs Load would compress itself their copies from the cache, where it
// has them, reading and checking them on all CPUs, and notes every such job's key, for the
// cache's pruning.
func (p *Pages) fromCache(jobs []entryJob) {
	if p.cache == nil {
		return
	}
	p.cached = make(map[string]bool)
	var hits atomic.Int64
	limit := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, job := range jobs {
		if !job.spec.compress || job.spec.built != nil {
			continue
		}
		key := cacheKey(job.spec.body)
		p.cached[key] = true
		wg.Go(func() {
			limit <- struct{}{}
			defer func() { <-limit }()
			if jobs[i].spec.built = p.cache.load(key, job.spec.body); jobs[i].spec.built != nil {
				hits.Add(1)
			}
		})
	}
	wg.Wait()
	p.cacheHits = int(hits.Load())
}

// CompressBest recompresses at the best levels, one file at a time (on one core: the others
// keep serving), what Load compressed quickly, and swaps each in as it is done: about 7 s after
// start-up on this machine, unless the cache had them (Options.CacheDir), which it then keeps
// to this build's. It returns when all are done, or at once when ctx ends. Call it once.
func (p *Pages) CompressBest(ctx context.Context) {
	start := time.Now()
	keep := p.cache != nil
	if err := compressBest(ctx, p.belowBest, func(body []byte, c precompressed) {
		if !keep {
			return
		}
		if err := p.cache.store(body, c); err != nil {
			p.logger.Warn("not keeping the compressed pages for the next start", slog.String("error", err.Error()))
			keep = false // once is enough: the next would fail alike
		}
	}); err != nil {
		if ctx.Err() == nil {
			p.logger.Error("compressing at the best level", slog.String("error", err.Error()))
		}
		return
	}
	if p.cache != nil {
		if err := p.cache.prune(p.cached); err != nil {
			p.logger.Warn("pruning the compressed pages of older builds", slog.String("error", err.Error()))
		}
	}
	p.logger.Info("pages compressed at the best levels", slog.Int("files", len(p.belowBest)),
		slog.Int("from_cache", p.cacheHits), slog.Duration("took", time.Since(start).Round(time.Millisecond)))
}

// File returns the build output file served at the URL path, if there is one.
func (p *Pages) File(path string) (*Entry, bool) {
	e, ok := p.files[path]
	return e, ok
}

// Sitemap returns the sitemap served at the URL path, if there is one.
func (p *Pages) Sitemap(path string) (*Entry, bool) {
	e, ok := p.sitemaps[path]
	return e, ok
}

// SitemapPaths returns the URL paths of the sitemaps: /sitemap.xml and /{code}/sitemap.xml.
func (p *Pages) SitemapPaths() []string { return keysOf(p.sitemaps) }

// Robots returns robots.txt.
func (p *Pages) Robots() *Entry { return p.robots }

// Admin returns the operator's dashboard document served at the URL path, if there is one.
func (p *Pages) Admin(path string) (*Entry, bool) {
	e, ok := p.admin[path]
	return e, ok
}

// AdminPaths returns the URL paths of the operator's dashboard, one per locale; none unless
// Options.Admin.
func (p *Pages) AdminPaths() []string { return keysOf(p.admin) }

// InlineHashes returns the CSP sources of the inline scripts and styles of the build's HTML.
func (p *Pages) InlineHashes() InlineHashes { return p.inline }

// NotFound returns the styled 404 page of the locale code.
func (p *Pages) NotFound(code string) *Entry { return p.notFound[code] }

// InternalError returns the styled 500 page of the locale code.
func (p *Pages) InternalError(code string) *Entry { return p.internalError[code] }

// DetailMarker is where the 404 page takes the detail of a validation failure.
const DetailMarker = "<!--handy:detail-->"

// NotFoundDetail returns the default locale's 404 page with the escaped detail in place of its
// marker, gzipped on the fly (it is made per request).
func (p *Pages) NotFoundDetail(detail string) *Entry {
	html := `<p class="error-detail">` + html.EscapeString(strings.ToValidUTF8(detail, "\uFFFD")) + `</p>`
	body := bytes.Replace(p.notFoundDetailPage, []byte(DetailMarker), []byte(html), 1)
	e, err := buildEntry(entrySpec{body: body, contentType: contentTypeOf(".html"), cacheControl: cacheNoStore,
		vary: varyEncoding, compress: true}, gzip.DefaultCompression, -1)
	if err != nil {
		// Only a broken gzip writer fails here; the page is sent uncompressed instead.
		e, _ = buildEntry(entrySpec{body: body, contentType: contentTypeOf(".html"), cacheControl: cacheNoStore, vary: varyEncoding}, 0, -1)
	}
	return e
}

func keysOf(m map[string]*Entry) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
