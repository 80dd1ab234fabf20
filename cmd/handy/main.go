// Command handy serves Handy Tools: the front end embedded from web/dist, and its HTTP API.
// Run `handy -help` for its flags and their HANDY_* environment variables; `handy migrate
// [flags]` applies the database migrations and exits (serving applies them too); `handy stats
// [-from D] [-to D] [flags]` prints the page-view report from the database and exits; `handy
// backup [-force] [flags] DEST` writes a checked copy of the SQLite database, even while the
// server runs, and exits; `handy restored [flags]` moves a database restored from elsewhere
// (pg_restore) past the old server's versions, and exits; `handy healthcheck [flags]` asks the
// server those flags configure for /healthz and exits 0 or 1; `handy version` prints the build's
// version, commit and time.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/crypto/acme/autocert"

	"handy/internal/account"
	"handy/internal/analytics"
	"handy/internal/buildinfo"
	"handy/internal/config"
	"handy/internal/docstore"
	"handy/internal/server"
	"handy/internal/site"
	"handy/internal/store"
	"handy/web"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, web.Dist(), os.Stdout, os.Stderr))
}

// run is main with its dependencies passed in; it returns the exit code.
func run(args []string, getenv func(string) string, dist fs.FS, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "stats" {
		return runStats(args[1:], getenv, time.Now, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "healthcheck" {
		return runHealthcheck(args[1:], getenv, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "version" {
		return runVersion(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "backup" {
		return runBackup(args[1:], getenv, stdout, stderr)
	}
	if len(args) > 0 && args[0] == "restored" {
		return runRestored(args[1:], getenv, stdout, stderr)
	}
	migrateOnly := len(args) > 0 && args[0] == "migrate"
	if migrateOnly {
		args = args[1:]
	}
	cfg, code, ok := loadConfig("handy", args, getenv, stdout, stderr)
	if !ok {
		return code
	}
	logger := cfg.Logger(stderr)
	b := buildinfo.Get()
	logger.Info("starting", slog.String("version", b.Version), slog.String("commit", b.Commit), slog.String("built", b.Built))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := openStore(ctx, cfg, logger)
	if err != nil {
		fmt.Fprintln(stderr, "handy:", err)
		return 1
	}
	defer st.Close()
	if migrateOnly {
		return 0
	}
	reg, err := newRegistry(cfg, st)
	if err != nil {
		fmt.Fprintln(stderr, "handy:", err)
		return 1
	}
	metrics := registerer(reg)
	table := site.Default()
	// The store's rules for this application's data are the site table's, which the front end's
	// offline queue and history follow too: commits of at most MaxWritesPerCommit writes, and
	// users/{uid}/history capped (a commit past the cap prunes the oldest entries).
	// The documents the server reads (users/{uid}, the history entries) keep the account's
	// schema on every write: the store asks it about each document a commit leaves, and the
	// account's endpoints check their fields with the same rules.
	history := table.History()
	schema := account.NewSchema(table.Limits(), table.Locales(), history)
	docs := docstore.New(st, docstore.Config{
		MaxWrites: table.Limits().MaxWritesPerCommit,
		Capped:    []docstore.Capped{{Collection: history.Collection, Max: history.MaxEntries}},
		Check:     schema.Check,
	}, docstore.WithLogger(logger), docstore.WithStorageQuota(cfg.StorageQuota), docstore.WithWriteRate(cfg.WriteRate, cfg.WriteBurst),
		docstore.WithTombstoneRetention(cfg.TombstoneRetention), docstore.WithMetrics(metrics))
	defer docs.Close() // after the server's shutdown: every acknowledged commit is answered
	accounts, err := account.New(st, docs, logger, table.Limits(), account.WithSchema(schema),
		account.WithLimits(account.Limits{SignupsPerAddress: cfg.SignupLimit, Signups: 100 * cfg.SignupLimit}),
		account.WithMetrics(metrics))
	if err != nil {
		fmt.Fprintln(stderr, "handy:", err)
		return 1
	}
	if _, err := accounts.MoveLegacyDocuments(ctx); err != nil {
		fmt.Fprintln(stderr, "handy:", err)
		return 1
	}
	// Expired sessions, spent limits, old networks and failures. Stopped and waited for before
	// the store closes, on every way out of run: a prune still running then failed on the
	// closed database and logged after run had returned (a race in TestNotBuilt).
	pruneCtx, stopPrune := context.WithCancel(ctx)
	pruned := make(chan struct{})
	go func() {
		defer close(pruned)
		accounts.PruneLoop(pruneCtx)
	}()
	defer func() {
		stopPrune()
		<-pruned
	}()
	// -backup-dir's schedule, stopped and waited for like the prune (a backup in progress is
	// interrupted and removes its temporary file).
	defer startBackups(ctx, cfg, st, logger)()
	pageviews, err := analytics.New(ctx, st, table, cfg.PublicURL, analytics.WithLogger(logger),
		analytics.WithRetention(cfg.AnalyticsRetention), analytics.WithBudget(cfg.AnalyticsViewsPerMinute, cfg.AnalyticsBudgetVisitors),
		analytics.WithReferrersPerDay(cfg.AnalyticsReferrersPerDay), analytics.WithMetrics(metrics))
	if err != nil {
		fmt.Fprintln(stderr, "handy:", err)
		return 1
	}
	// After the server's shutdown (deferred calls run last first, and serve returns once no
	// request is in flight): every page view acknowledged is written before the database closes.
	defer closeAnalytics(pageviews, cfg, logger)
	srv, err := server.New(cfg, table, dist, logger, server.WithAccounts(accounts), server.WithDocuments(docs),
		server.WithAnalytics(pageviews), server.WithReports(analytics.NewReporter(st, table, nil)), server.WithReadiness(st.Ping),
		server.WithCompressionCache(filepath.Join(cfg.DataDir, "compressed")), server.WithMetrics(metrics))
	if err != nil {
		fmt.Fprintln(stderr, "handy:", err)
		return 1
	}
	if err := serve(ctx, srv, reg, cfg, logger); err != nil {
		logger.Error("server stopped", slog.String("error", err.Error()))
		return 1
	}
	return 0
}

// loadConfig reads the flags and HANDY_* variables of the server and of the commands that
// read its configuration (name is the command, for its errors). Not ok: -help was written (0),
// or the configuration was refused (2, said on stderr); the caller exits with code.
func loadConfig(name string, args []string, getenv func(string) string, stdout, stderr io.Writer) (_ config.Config, code int, ok bool) {
	cfg, err := config.Load(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		if err := config.Usage(stdout); err != nil {
			return cfg, 1, false
		}
		return cfg, 0, false
	}
	if err != nil {
		fmt.Fprintln(stderr, name+":", err)
		return cfg, 2, false
	}
	return cfg, 0, true
}

// closeAnalytics writes the page views still buffered, within the shutdown timeout.
func closeAnalytics(pageviews *analytics.Ingester, cfg config.Config, logger *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := pageviews.Close(ctx); err != nil {
		logger.Error("page views lost", slog.String("error", err.Error()))
	}
}

// openStore opens the configured database and applies the migrations it lacks.
func openStore(ctx context.Context, cfg config.Config, logger *slog.Logger) (*store.Store, error) {
	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	applied, err := st.Migrate(ctx)
	if err != nil {
		st.Close()
		return nil, err
	}
	where := cfg.DataDir
	if st.Engine() == store.Postgres {
		where = "HANDY_DATABASE_URL"
	}
	logger.Info("database ready", slog.String("engine", st.Engine()), slog.String("at", where), slog.Any("migrations_applied", applied))
	return st, nil
}

// serve listens on cfg.Addr (HTTPS with -tls-cert, else HTTP), on cfg.HTTPAddr for the
// redirect to HTTPS and on cfg.MetricsAddr for reg's metrics, until ctx ends, then shuts down
// gracefully within cfg.ShutdownTimeout: /readyz turns 503 and in-flight requests finish.
func serve(ctx context.Context, srv *server.Server, reg *prometheus.Registry, cfg config.Config, logger *slog.Logger) error {
	var tlsConfig *tls.Config
	scheme, redirectTo := "http", server.RedirectToHTTPS(cfg.PublicURL)
	switch {
	case cfg.TLSCert != "":
		certs, err := server.NewCertFiles(cfg.TLSCert, cfg.TLSKey, logger)
		if err != nil {
			return err
		}
		tlsConfig, scheme = server.TLSConfig(certs.GetCertificate), "https"
	case cfg.ACMEDomains != "":
		m, err := acmeManager(cfg)
		if err != nil {
			return err
		}
		tlsConfig, scheme = server.TLSConfig(m.GetCertificate, server.ACMEALPN), "https"
		redirectTo = m.HTTPHandler(redirectTo) // HTTP-01 challenges first
		logger.Info("certificates from an ACME CA", slog.String("directory", cfg.ACMEDirectory), slog.Any("domains", cfg.ACMEHosts()))
	}
	stopMetrics, err := listenMetrics(cfg, reg, logger)
	if err != nil {
		return err
	}
	defer stopMetrics() // last: a scrape during the shutdown still sees the requests draining
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	var redirect *http.Server
	if cfg.HTTPAddr != "" {
		rln, err := net.Listen("tcp", cfg.HTTPAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("listen for the redirect to https: %w", err)
		}
		redirect = server.NewRedirectServer(cfg.HTTPAddr, redirectTo, logger)
		go redirect.Serve(rln) // ends with its Shutdown below
		logger.Info("redirecting to https", slog.String("addr", rln.Addr().String()), slog.String("to", cfg.PublicURL))
	}
	logger.Info("listening", slog.String("addr", ln.Addr().String()), slog.String("url", scheme+"://"+ln.Addr().String()),
		slog.String("public_url", cfg.PublicURL))
	compressed := make(chan struct{})
	go func() {
		defer close(compressed)
		srv.CompressBest(ctx) // the pages, better than start-up had time for
	}()
	served := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			served <- srv.ServeTLS(ln, tlsConfig)
		} else {
			served <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", slog.Duration("timeout", cfg.ShutdownTimeout))
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if redirect != nil {
		redirect.Shutdown(shutdownCtx) // redirects only: nothing in flight worth waiting for
	}
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-served; err != nil {
		return err
	}
	<-compressed // it stops after the file at hand, which it may be writing to the data directory
	logger.Info("stopped")
	return nil
}

// acmeManager is the ACME certificate manager the configuration asks for: its certificates
// and account key under the data directory, which must be kept (a new account and new
// certificates at each start would meet the CA's rate limits).
func acmeManager(cfg config.Config) (*autocert.Manager, error) {
	o := server.ACMEOptions{Domains: cfg.ACMEHosts(), Email: cfg.ACMEEmail, Directory: cfg.ACMEDirectory, CacheDir: filepath.Join(cfg.DataDir, "acme")}
	if cfg.ACMERoots != "" {
		pem, err := os.ReadFile(cfg.ACMERoots)
		if err != nil {
			return nil, fmt.Errorf("acme: %w", err)
		}
		o.Roots = x509.NewCertPool()
		if !o.Roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("acme: %s holds no PEM certificate", cfg.ACMERoots)
		}
	}
	return server.NewACME(o), nil
}
