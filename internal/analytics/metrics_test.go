package analytics

import (
	"context"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"handy/internal/store/storetest"
)

// TestMetrics checks what the Ingester's metrics count: views accepted and dropped by reason,
// the buffer, and the flushes, as a registry exports them.
func TestMetrics(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	reg := prometheus.NewRegistry()
	in := newIngester(t, st, WithBuffer(2), WithBudget(1, 100), WithMetrics(reg))
	record(t, in, visit("192.0.2.1", browserAgents[0]))
	in.Record(visit("192.0.2.1", browserAgents[0]))                        // over the visitor's budget
	in.Record(Hit{Body: []byte(`{"p":"/nowhere"}`), Address: "192.0.2.2"}) // invalid
	record(t, in, visit("192.0.2.3", browserAgents[0]))                    // fills the buffer
	in.Record(visit("192.0.2.4", browserAgents[0]))                        // buffer full
	want := `
# HELP handy_pageviews_buffered Page views acknowledged and not yet written, the flush in progress included.
# TYPE handy_pageviews_buffered gauge
handy_pageviews_buffered 2
# HELP handy_pageviews_buffer_capacity Page views the buffer may hold; past it beacons are dropped (buffer_full).
# TYPE handy_pageviews_buffer_capacity gauge
handy_pageviews_buffer_capacity 2
# HELP handy_pageviews_dropped_total Page-view beacons refused, by reason: invalid, over_budget (-analytics-views-per-minute, -analytics-budget-visitors), buffer_full (the database is behind), closed (shutting down).
# TYPE handy_pageviews_dropped_total counter
handy_pageviews_dropped_total{reason="buffer_full"} 1
handy_pageviews_dropped_total{reason="closed"} 0
handy_pageviews_dropped_total{reason="invalid"} 1
handy_pageviews_dropped_total{reason="other"} 0
handy_pageviews_dropped_total{reason="over_budget"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "handy_pageviews_buffered", "handy_pageviews_buffer_capacity", "handy_pageviews_dropped_total"); err != nil {
		t.Error(err)
	}
	flush(t, in)
	if err := in.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	in.Record(visit("192.0.2.5", browserAgents[0])) // closed
	for name, c := range map[string]struct {
		got, want float64
	}{
		"accepted":         {testutil.ToFloat64(in.metrics.accepted), 2},
		"closed":           {testutil.ToFloat64(in.metrics.dropped.WithLabelValues(dropClosed)), 1},
		"flush failures":   {testutil.ToFloat64(in.metrics.failed), 0},
		"buffered at last": {float64(in.buf.pending()), 0},
	} {
		if c.got != c.want {
			t.Errorf("%s: %g, want %g", name, c.got, c.want)
		}
	}
	all, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	flushes := uint64(0)
	for _, mf := range all {
		if mf.GetName() == "handy_pageviews_flush_duration_seconds" {
			flushes = mf.GetMetric()[0].GetHistogram().GetSampleCount()
		}
	}
	if flushes < 1 {
		t.Errorf("%d flushes observed, want at least the test's", flushes)
	}
}
