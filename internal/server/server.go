// Package server serves Handy Tools over HTTP: the one route table, middleware, security
// headers, health checks, the language redirect of / and route rules, the one error type and
// its adapter, and the JSON API's handlers. What it serves of the front-end build (pages,
// files, sitemaps, error pages) is internal/pages'.
package server

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"handy/internal/account"
	"handy/internal/analytics"
	"handy/internal/config"
	"handy/internal/docstore"
	"handy/internal/pages"
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

	pages    *pages.Pages
	pageOpts pages.Options     // how New loads the pages
	homes    map[string]string // home URL path by locale code

	securityHeaders []header
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
	metricsReg     prometheus.Registerer       // WithMetrics's registry, or nil
	metrics        *httpMetrics                // nil: no metrics
	routePatterns  map[string]bool             // the route table's patterns (metrics.go)

	handler http.Handler
	http    *http.Server
	// shutdownCtx ends when Shutdown begins: long polls answer at once instead of holding it.
	shutdownCtx context.Context
	// bodies bounds the request-body bytes held at once (readJSON reserves, the middleware
	// releases).
	bodies   *bodyBudget
	shutdown context.CancelFunc
	// spools bound the answers held while they are sent (spool.go); answerStall bounds each
	// write of one (answer.go); tests shorten it.
	spools      *spools
	answerStall time.Duration
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
	s := &Server{
		table:          table,
		logger:         logger,
		domainErrors:   newDomainErrorTable(table.Limits()),
		https:          cfg.HTTPS(),
		clientIPHeader: cfg.ClientIPHeader,
		bodies:         newBodyBudget(cfg.BodyBudgetOrDefault(), cfg.BodyBudgetPerUserOrDefault()),
		homes:          make(map[string]string),
		spools:         newSpools(cfg.AnswerSpoolDir, cfg.AnswerSpoolBytesOrDefault(), cfg.AnswerSpoolBytesPerUserOrDefault()),
		answerStall:    answerStall,
	}
	if cfg.AdminToken != "" {
		s.adminToken, s.hasAdmin = sha256.Sum256([]byte(cfg.AdminToken)), true
	}
	s.shutdownCtx, s.shutdown = context.WithCancel(context.Background())
	for _, o := range opts {
		o(s)
	}
	s.pageOpts.Admin = s.hasAdmin && s.reports != nil
	p, err := pages.Load(cfg, table, dist, logger, s.pageOpts)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s.pages = p
	s.securityHeaders = securityHeaders(cfg.HTTPS(), withTagManager(p.InlineHashes(), cfg.TagManagerOrigins()))
	for _, r := range table.Routes() {
		if r.Page.Path == "/" {
			s.homes[r.Locale.Code] = r.Path
		}
	}
	if err := s.registerMetrics(); err != nil {
		return nil, err
	}
	mux := s.routes()
	s.routePatterns = mux.patterns
	s.handler = s.middleware(mux)
	s.http = newHTTPServer(cfg.Addr, s.handler, logger)
	return s, nil
}

// ErrNotBuilt means the front-end build output lacks a page or an error page.
var ErrNotBuilt = pages.ErrNotBuilt

// WithCompressionCache keeps the best-level compressed pages in dir (created when needed) across
// restarts. Without it, every start recompresses them.
func WithCompressionCache(dir string) Option { return func(s *Server) { s.pageOpts.CacheDir = dir } }

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

// CompressBest recompresses the pages at the best levels in the background (see
// pages.Pages.CompressBest). Call it once.
func (s *Server) CompressBest(ctx context.Context) { s.pages.CompressBest(ctx) }

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
