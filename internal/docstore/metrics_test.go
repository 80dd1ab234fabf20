package docstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"handy/internal/docstore/status"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestMetrics checks what the Store's metrics count: commits by result, the refusals for the
// write rate, the storage quota and the listens, and the listens held, as a registry exports them.
func TestMetrics(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		reg := prometheus.NewRegistry()
		s := openStore(t, st, WithClock(newTestClock().Now), WithWriteRate(1, testMaxWrites), WithStorageQuota(100_000), WithMetrics(reg))
		full := make([]Write, testMaxWrites)
		for i := range full {
			full[i] = put(fmt.Sprintf("users/u1/d/%d", i), nil)
		}
		commit(t, s, "u1", full...)
		_, err := s.Commit(ctx, "u1", CommitRequest{Writes: full[:1]})
		wantCode(t, err, status.ErrResourceExhausted, "too many writes")
		_, err = s.Commit(ctx, "u2", CommitRequest{Writes: []Write{put("users/u2/d/big", blob(120_000))}})
		wantCode(t, err, status.ErrResourceExhausted, "storage quota exceeded")
		_, err = s.Commit(ctx, "u2", CommitRequest{Writes: []Write{put("users/u1/d/x", nil)}})
		wantCode(t, err, status.ErrPermissionDenied, "no access")

		var stops []func()
		for range maxListeners {
			_, stop, ok := s.hub.wait("u3")
			if !ok {
				t.Fatal("a listen refused below the limit")
			}
			stops = append(stops, stop)
		}
		_, err = s.Listen(ctx, "u3", 0, MinListenTimeout, nil)
		wantCode(t, err, status.ErrResourceExhausted, "too many listens")

		want := fmt.Sprintf(`
# HELP handy_docstore_listens Listens (GET /api/v1/db/listen) held open on this instance.
# TYPE handy_docstore_listens gauge
handy_docstore_listens %d
# HELP handy_docstore_refusals_total Commits and listens refused for a per-user limit, by reason: write_rate (-write-rate), storage_quota (-storage-quota), listens (too many at once).
# TYPE handy_docstore_refusals_total counter
handy_docstore_refusals_total{reason="listens"} 1
handy_docstore_refusals_total{reason="storage_quota"} 1
handy_docstore_refusals_total{reason="write_rate"} 1
`, maxListeners)
		if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "handy_docstore_listens", "handy_docstore_refusals_total"); err != nil {
			t.Error(err)
		}
		for _, stop := range stops {
			stop()
		}
		for result, n := range map[string]float64{"ok": 1, "resource-exhausted": 2, "permission-denied": 1, "canceled": 0} {
			if got := testutil.ToFloat64(s.metrics.commits.WithLabelValues(result)); got != n {
				t.Errorf("commits with result %s: %g, want %g", result, got, n)
			}
		}
		if n := testutil.CollectAndCount(s.metrics.latency); n != 1 {
			t.Errorf("%d latency series", n)
		}
		for name, want := range map[string]float64{"handy_docstore_listens": 0, "handy_docstore_commit_queue": 0} {
			if got := gauge(t, reg, name); got != want {
				t.Errorf("%s = %g, want %g", name, got, want)
			}
		}
		// A caller that left, and a database failure.
		for err, want := range map[error]string{
			fmt.Errorf("docstore: commit: %w", context.Canceled):                            "canceled",
			fmt.Errorf("docstore: commit: %w: %w", errors.New("disk I/O error"), errClosed): "unavailable",
			errors.New("disk I/O error"):                                                    "error",
		} {
			if got := commitResult(err); got != want {
				t.Errorf("commitResult(%v) = %s, want %s", err, got, want)
			}
		}
	})
}

// gauge returns the value of the gauge name in reg.
func gauge(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	all, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range all {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no gauge %s", name)
	return 0
}
