package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"handy/internal/buildinfo"
	"handy/internal/config"
	"handy/internal/server"
	"handy/internal/store"
)

// newRegistry returns the registry that -metrics-addr serves, holding the process's own
// collectors (the Go runtime, the process, the build, the database pool), or nil when metrics
// are off. It is passed to each part through its WithMetrics option; the global default
// registry is never used, so that what is exported is what is wired here.
func newRegistry(cfg config.Config, st *store.Store) (*prometheus.Registry, error) {
	if cfg.MetricsAddr == "" {
		return nil, nil
	}
	b := buildinfo.Get()
	reg := prometheus.NewRegistry()
	for _, c := range []prometheus.Collector{
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "handy_build_info",
			Help:        "Always 1; the labels say which build of handy runs (handy version).",
			ConstLabels: prometheus.Labels{"version": b.Version, "commit": b.Commit, "built": b.Built}},
			func() float64 { return 1 }),
		st.Collector(),
	} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
	}
	return reg, nil
}

// registerer is reg as the parts' WithMetrics options take it: a nil interface when metrics
// are off (a nil *Registry in the interface would not compare equal to nil).
func registerer(reg *prometheus.Registry) prometheus.Registerer {
	if reg == nil {
		return nil
	}
	return reg
}

// listenMetrics serves reg's metrics on cfg.MetricsAddr, when set, until stop, which shuts the
// listener down within the shutdown timeout.
func listenMetrics(cfg config.Config, reg *prometheus.Registry, logger *slog.Logger) (stop func(), err error) {
	if reg == nil {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return nil, fmt.Errorf("listen for metrics: %w", err)
	}
	srv := server.NewMetricsServer(cfg.MetricsAddr, reg, logger)
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics listener stopped", slog.String("error", err.Error()))
		}
	}()
	logger.Info("serving metrics", slog.String("addr", ln.Addr().String()), slog.String("url", "http://"+ln.Addr().String()+"/metrics"))
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
		defer cancel()
		srv.Shutdown(ctx) // scrapes only: nothing in flight worth more than the timeout
		<-served
	}, nil
}
