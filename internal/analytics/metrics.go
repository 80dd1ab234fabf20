package analytics

import (
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the Ingester's Prometheus metrics. They always count; WithMetrics exports them.
type metrics struct {
	reg      prometheus.Registerer
	accepted prometheus.Counter
	dropped  *prometheus.CounterVec // by reason: dropInvalid, dropOverBudget, dropBufferFull, dropClosed
	flush    prometheus.Histogram
	failed   prometheus.Counter
}

// Why Record turned a page view away, as the dropped counter's reason label.
const (
	dropInvalid    = "invalid"     // not a valid beacon (*BeaconError)
	dropOverBudget = "over_budget" // the visitor's views a minute, or the minute's visitors (ErrOverBudget)
	dropBufferFull = "buffer_full" // too many views waiting to be written (ErrBusy)
	dropClosed     = "closed"      // shutting down (ErrClosed)
	dropOther      = "other"
)

// flushBuckets span a small flush on an idle SQLite to flushTimeout.
var flushBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

func newMetrics() *metrics {
	m := &metrics{
		accepted: prometheus.NewCounter(prometheus.CounterOpts{Name: "handy_pageviews_accepted_total",
			Help: "Page-view beacons accepted (204): buffered as views or as bots', or not counted at all under Global Privacy Control."}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "handy_pageviews_dropped_total",
			Help: "Page-view beacons refused, by reason: invalid, over_budget (-analytics-views-per-minute, -analytics-budget-visitors), buffer_full (the database is behind), closed (shutting down)."},
			[]string{"reason"}),
		flush: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "handy_pageviews_flush_duration_seconds",
			Help: "Time of one flush of buffered page views to the database (one transaction), failed ones included.", Buckets: flushBuckets}),
		failed: prometheus.NewCounter(prometheus.CounterOpts{Name: "handy_pageviews_flush_failures_total",
			Help: "Flushes that failed; their views stay buffered and are written again."}),
	}
	for _, r := range []string{dropInvalid, dropOverBudget, dropBufferFull, dropClosed, dropOther} {
		m.dropped.WithLabelValues(r)
	}
	return m
}

// WithMetrics registers the Ingester's metrics with reg: views accepted and dropped by reason,
// the buffer's depth and capacity, and the flushes' duration and failures. nil changes nothing.
func WithMetrics(reg prometheus.Registerer) Option {
	return func(in *Ingester) { in.metrics.reg = reg }
}

// register exports the metrics, if WithMetrics named a registry.
func (in *Ingester) register() error {
	reg := in.metrics.reg
	if reg == nil {
		return nil
	}
	m := in.metrics
	for _, c := range []prometheus.Collector{
		m.accepted, m.dropped, m.flush, m.failed,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "handy_pageviews_buffered",
			Help: "Page views acknowledged and not yet written, the flush in progress included."},
			func() float64 { return float64(in.buf.pending()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "handy_pageviews_buffer_capacity",
			Help: "Page views the buffer may hold; past it beacons are dropped (buffer_full)."},
			func() float64 { return float64(in.buf.capacity) }),
	} {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("analytics: register metrics: %w", err)
		}
	}
	return nil
}

// recorded counts Record's outcome.
func (m *metrics) recorded(err error) {
	var beacon *BeaconError
	switch {
	case err == nil:
		m.accepted.Inc()
	case errors.As(err, &beacon):
		m.dropped.WithLabelValues(dropInvalid).Inc()
	case errors.Is(err, ErrOverBudget):
		m.dropped.WithLabelValues(dropOverBudget).Inc()
	case errors.Is(err, ErrBusy):
		m.dropped.WithLabelValues(dropBufferFull).Inc()
	case errors.Is(err, ErrClosed):
		m.dropped.WithLabelValues(dropClosed).Inc()
	default:
		m.dropped.WithLabelValues(dropOther).Inc()
	}
}

// flushed counts a flush that took since start.
func (m *metrics) flushed(start time.Time, err error) {
	m.flush.Observe(time.Since(start).Seconds())
	if err != nil {
		m.failed.Inc()
	}
}
