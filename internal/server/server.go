// Package server serves Handy Tools over HTTP: the prerendered pages and files of the front-end
// build, held in memory and precompressed, sitemaps and robots.txt, the language redirect of /,
// route rules, styled error pages, health checks and security headers.
package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"handy/internal/account"
	"handy/internal/analytics"
	"handy/internal/config"
	"handy/internal/docstore"
	"handy/internal/site"
)

// Timeouts and limits of the HTTP server.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 15 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
)

// Server is the HTTP server of Handy Tools. Everything it serves is built by New; afterwards only
// CompressBest swaps in smaller encodings, atomically, so one Server serves any number of
// requests concurrently.
type Server struct {
	table  *site.Table
	logger *slog.Logger
	https  bool

	files              map[string]*entry // build output by URL path
	sitemaps           map[string]*entry // by URL path
	robotsTxt          *entry
	admin              map[string]*entry // the operator's dashboard by URL path; empty without an admin token
	notFound           map[string]*entry // by locale code
	internalError      map[string]*entry // by locale code
	notFoundDetailPage []byte            // the default locale's 404 page, for validation details
	homes              map[string]string // home URL path by locale code

	securityHeaders []header
	compression     compression     // levels New compresses at what the build did not
	belowBest       []*entry        // entries CompressBest compresses better
	cache           *compressCache  // nil: no cache of the best-level copies
	cached          map[string]bool // the cache keys of the files New compressed or found in the cache
	cacheHits       int             // files New found in the cache
	draining        atomic.Bool

	domainErrors   domainErrorTable            // what clients are told of domain errors
	clientIPHeader string                      // a trusted proxy's client-address header, or ""
	accounts       *account.Service            // nil: no account endpoints
	docs           *docstore.Store             // nil: no document store endpoints
	analytics      *analytics.Ingester         // nil: no page-view endpoint
	reports        *analytics.Reporter         // nil, or no admin token: no stats endpoint
	adminToken     [32]byte                    // SHA-256 of the admin token, when hasAdmin
	hasAdmin       bool                        // an admin token is configured
	ready          func(context.Context) error // the database answers, for /readyz; nil: nothing to check

	handler http.Handler
	http    *http.Server
	// shutdownCtx ends when Shutdown begins: long polls answer at once instead of holding it.
	shutdownCtx context.Context
	shutdown    context.CancelFunc
}

// Option adds a dependency to the server.
type Option func(*Server)

// WithAccounts serves the account endpoints under /api/v1/auth with svc.
func WithAccounts(svc *account.Service) Option { return func(s *Server) { s.accounts = svc } }

// WithDocuments serves the document store's endpoints under /api/v1/db with docs; they need
// WithAccounts too, whose tokens say who the caller is.
func WithDocuments(docs *docstore.Store) Option { return func(s *Server) { s.docs = docs } }

// WithAnalytics serves the page-view beacon, POST /api/v1/pageviews, with in. The caller closes
// in after Shutdown, so that every view acknowledged is written.
func WithAnalytics(in *analytics.Ingester) Option { return func(s *Server) { s.analytics = in } }

// WithReports serves the operator's page-view report, GET /api/v1/stats, with r, when the
// configuration holds an admin token; without one the endpoint does not exist.
func WithReports(r *analytics.Reporter) Option { return func(s *Server) { s.reports = r } }

// WithReadiness makes /readyz answer 503 while check fails (the database is unreachable).
func WithReadiness(check func(context.Context) error) Option {
	return func(s *Server) { s.ready = check }
}

// New reads the front-end build output from dist (layout in docs/architecture.md), made for
// the site table, writes cfg.PublicURL into it, checks that every page and error page is there
// (else ErrNotBuilt), generates sitemaps and robots.txt and precompresses everything.
func New(cfg config.Config, table *site.Table, dist fs.FS, logger *slog.Logger, opts ...Option) (*Server, error) {
	files, err := readDist(dist, table, substitutions(table, cfg))
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s := &Server{
		table:           table,
		logger:          logger,
		domainErrors:    newDomainErrorTable(table.Limits()),
		https:           cfg.HTTPS(),
		clientIPHeader:  cfg.ClientIPHeader,
		homes:           make(map[string]string),
		securityHeaders: securityHeaders(cfg.HTTPS(), withTagManager(hashInline(files), cfg.TagManagerOrigins())),
		compression:     startCompression,
	}
	if cfg.AdminToken != "" {
		s.adminToken, s.hasAdmin = sha256.Sum256([]byte(cfg.AdminToken)), true
	}
	s.shutdownCtx, s.shutdown = context.WithCancel(context.Background())
	for _, o := range opts {
		o(s)
	}
	if err := s.buildEntries(files, cfg.PublicURL); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.handler = s.middleware(s.routes())
	s.http = newHTTPServer(cfg.Addr, s.handler, logger)
	return s, nil
}

// newHTTPServer is an http.Server around h with the server's timeouts and limits, logging
// net/http's own complaints (bad TLS handshakes, hijack failures) as warnings.
func newHTTPServer(addr string, h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// buildEntries turns the build output, the sitemaps and robots.txt into compressed entries.
func (s *Server) buildEntries(files distFiles, origin string) error {
	s.files = make(map[string]*entry)
	s.sitemaps = make(map[string]*entry)
	s.notFound = make(map[string]*entry)
	s.internalError = make(map[string]*entry)
	s.admin = make(map[string]*entry)
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
		jobs = append(jobs, entryJob{spec, func(e *entry) { s.files[url] = e }})
	}
	if s.hasAdmin && s.reports != nil {
		for url, f := range files.adminPages {
			spec := entrySpec{body: f.body, contentType: contentTypeOf(f.name), cacheControl: cacheRevalidate,
				vary: varyEncoding, etag: true, compress: true, built: f.built}
			jobs = append(jobs, entryJob{spec, func(e *entry) { s.admin[url] = e }})
		}
	}
	for code, pages := range files.errorPages {
		for status, f := range pages {
			byCode := s.internalError
			if status == "404" {
				byCode = s.notFound
			}
			spec := entrySpec{body: f.body, contentType: contentTypeOf(f.name), cacheControl: cacheNoStore, vary: varyEncoding,
				compress: true, built: f.built}
			jobs = append(jobs, entryJob{spec, func(e *entry) { byCode[code] = e }})
		}
	}
	for _, loc := range s.table.Locales() {
		p := sitemapPath(s.table, loc)
		spec := entrySpec{body: buildSitemap(s.table, origin, loc), contentType: contentTypeOf(p),
			cacheControl: cacheRevalidate, vary: varyEncoding, etag: true, compress: true}
		jobs = append(jobs, entryJob{spec, func(e *entry) { s.sitemaps[p] = e }})
	}
	robots := entrySpec{body: buildRobots(s.table, origin), contentType: contentTypeOf("robots.txt"),
		cacheControl: cacheRevalidate, vary: varyEncoding, etag: true, compress: true}
	jobs = append(jobs, entryJob{robots, func(e *entry) { s.robotsTxt = e }})
	s.fromCache(jobs)
	below, err := buildEntries(jobs, s.compression)
	if err != nil {
		return err
	}
	s.belowBest = below

	for _, r := range s.table.Routes() {
		if r.Page.Path == "/" {
			s.homes[r.Locale.Code] = r.Path
		}
	}
	en404 := files.errorPages[s.table.DefaultLocale().Code]["404"]
	s.notFoundDetailPage = en404.body
	if !bytes.Contains(en404.body, []byte(detailMarker)) {
		s.logger.Warn("the 404 page has no detail marker: validation failures will not name the path",
			slog.String("file", en404.name), slog.String("marker", detailMarker))
	}
	return nil
}

// fromCache gives the jobs New would compress itself their copies from the cache, where it has
// them, reading and checking them on all CPUs, and notes every such job's key, for the cache's
// pruning.
func (s *Server) fromCache(jobs []entryJob) {
	if s.cache == nil {
		return
	}
	s.cached = make(map[string]bool)
	var hits atomic.Int64
	limit := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, job := range jobs {
		if !job.spec.compress || job.spec.built != nil {
			continue
		}
		key := cacheKey(job.spec.body)
		s.cached[key] = true
		wg.Go(func() {
			limit <- struct{}{}
			defer func() { <-limit }()
			if jobs[i].spec.built = s.cache.load(key, job.spec.body); jobs[i].spec.built != nil {
				hits.Add(1)
			}
		})
	}
	wg.Wait()
	s.cacheHits = int(hits.Load())
}

// CompressBest recompresses at the best levels, one file at a time (on one core: the others
// keep serving), what New compressed quickly, and swaps each in as it is done: about 7 s after
// start-up on this machine, unless the cache had them (WithCompressionCache), which it then
// keeps to this build's. It returns when all are done, or at once when ctx ends. Call it once.
func (s *Server) CompressBest(ctx context.Context) {
	start := time.Now()
	keep := s.cache != nil
	if err := compressBest(ctx, s.belowBest, func(body []byte, p precompressed) {
		if !keep {
			return
		}
		if err := s.cache.store(body, p); err != nil {
			s.logger.Warn("not keeping the compressed pages for the next start", slog.String("error", err.Error()))
			keep = false // once is enough: the next would fail alike
		}
	}); err != nil {
		if ctx.Err() == nil {
			s.logger.Error("compressing at the best level", slog.String("error", err.Error()))
		}
		return
	}
	if s.cache != nil {
		if err := s.cache.prune(s.cached); err != nil {
			s.logger.Warn("pruning the compressed pages of older builds", slog.String("error", err.Error()))
		}
	}
	s.logger.Info("pages compressed at the best levels", slog.Int("files", len(s.belowBest)),
		slog.Int("from_cache", s.cacheHits), slog.Duration("took", time.Since(start).Round(time.Millisecond)))
}

// Handler returns the server's HTTP handler, middleware included.
func (s *Server) Handler() http.Handler { return s.handler }

// Serve accepts connections on ln until Shutdown. It returns nil after a shutdown.
func (s *Server) Serve(ln net.Listener) error {
	if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("server: serve: %w", err)
	}
	return nil
}

// Shutdown turns /readyz to 503, stops accepting connections and waits until in-flight
// requests finish or ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.draining.Store(true)
	s.shutdown()
	if err := s.http.Shutdown(ctx); err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	return nil
}
