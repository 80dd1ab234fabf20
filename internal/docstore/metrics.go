package docstore

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"handy/internal/docstore/status"
)

// metrics are the Store's Prometheus metrics. They always exist and count (an atomic add each),
// and are exported only when WithMetrics names a registry, so that the code that counts needs
// no test for whether anyone is watching.
type metrics struct {
	reg      prometheus.Registerer
	commits  *prometheus.CounterVec // by result: "ok", a status code, "canceled" or "error"
	latency  prometheus.Histogram
	refusals *prometheus.CounterVec // by reason: refusalRate, refusalQuota, refusalListens
	// queued is the committer's own queue (fairQueue), which only its goroutine may read.
	queued atomic.Int64
}

// Why a commit or a listen was refused for a limit, as the refusals counter's reason label.
const (
	refusalRate    = "write_rate"
	refusalQuota   = "storage_quota"
	refusalListens = "listens"
)

// commitResults are every value of the commits counter's result label.
var commitResults = []error{status.ErrInvalidArgument, status.ErrUnauthenticated, status.ErrNotFound, status.ErrPermissionDenied,
	status.ErrFailedPrecondition, status.ErrAborted, status.ErrResourceExhausted, status.ErrUnavailable}

// commitBuckets span a lone commit on an idle SQLite (a millisecond) to a group's timeout.
var commitBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

func newMetrics() *metrics {
	m := &metrics{
		commits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "handy_docstore_commits_total",
			Help: "Commits of clients' batches answered, by result: ok, the document store's error code (invalid-argument, resource-exhausted, ...), canceled (the client left) or error."},
			[]string{"result"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "handy_docstore_commit_duration_seconds",
			Help: "Time from a client's commit being checked to its answer: the committer's queue and the group's transaction.", Buckets: commitBuckets}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "handy_docstore_refusals_total",
			Help: "Commits and listens refused for a per-user limit, by reason: write_rate (-write-rate), storage_quota (-storage-quota), listens (too many at once)."},
			[]string{"reason"}),
	}
	// Every label value from the start: a series that appears only with its first refusal
	// makes rate() miss that refusal.
	for _, r := range []string{"ok", "canceled", "error"} {
		m.commits.WithLabelValues(r)
	}
	for _, c := range commitResults {
		m.commits.WithLabelValues(c.Error())
	}
	for _, r := range []string{refusalRate, refusalQuota, refusalListens} {
		m.refusals.WithLabelValues(r)
	}
	return m
}

// WithMetrics registers the Store's metrics with reg: commits by result and their latency, the
// committer's queue, the listens held, and refusals for the write rate, the storage quota and
// the listens per user. nil changes nothing.
func WithMetrics(reg prometheus.Registerer) Option { return func(s *Store) { s.metrics.reg = reg } }

// register exports the metrics, if WithMetrics named a registry.
func (s *Store) register() error {
	reg := s.metrics.reg
	if reg == nil {
		return nil
	}
	for _, c := range []prometheus.Collector{
		s.metrics.commits, s.metrics.latency, s.metrics.refusals,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "handy_docstore_commit_queue",
			Help: "Commits waiting for the committer (at most 8192: past 4096 in its channel, Commit waits)."},
			func() float64 { return float64(s.metrics.queued.Load()) + float64(len(s.queue)) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "handy_docstore_listens",
			Help: "Listens (GET /api/v1/db/listen) held open on this instance."},
			func() float64 { return float64(s.hub.count()) }),
	} {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("docstore: register metrics: %w", err)
		}
	}
	return nil
}

// commitDone counts a client's commit, answered with err after start.
func (m *metrics) commitDone(err error, start time.Time) {
	m.latency.Observe(time.Since(start).Seconds())
	m.commits.WithLabelValues(commitResult(err)).Inc()
}

// commitResult is err as the commits counter's result label: one of a bounded set.
func commitResult(err error) string {
	if err == nil {
		return "ok"
	}
	for _, c := range commitResults {
		if errors.Is(err, c) {
			return c.Error()
		}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "canceled"
	}
	return "error"
}

// refused counts a refusal for reason, one of the refusal constants ("" counts nothing).
func (m *metrics) refused(reason string) {
	if reason != "" {
		m.refusals.WithLabelValues(reason).Inc()
	}
}
