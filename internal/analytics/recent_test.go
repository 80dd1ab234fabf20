package analytics

import (
	"context"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// RecentVisitors counts the distinct visitors of the last minutes, and maintain deletes the
// minutes past recentMinutes.
func TestRecentVisitors(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		ctx := context.Background()
		start := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		clock := newFakeClock(start)
		in := newIngester(t, st, WithClock(clock.now))
		at := func(minute int, addresses ...string) {
			clock.set(start.Add(time.Duration(minute)*time.Minute + 30*time.Second))
			for _, a := range addresses {
				record(t, in, visit(a, browserAgents[0]))
			}
		}
		at(0, "192.0.2.1", "192.0.2.2")
		at(2, "192.0.2.2", "192.0.2.3")
		at(6, "192.0.2.4", "192.0.2.4")
		flush(t, in)
		for minutes, want := range map[int]int64{1: 1, 4: 1, 5: 3, 7: 4, 15: 4} {
			got, err := in.RecentVisitors(ctx, minutes)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("visitors in the last %d minutes: %d, want %d", minutes, got, want)
			}
		}
		clock.set(start.Add(30 * time.Minute))
		if err := in.maintain(ctx); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, st, "SELECT COUNT(*) FROM analytics_recent"); n != 0 {
			t.Errorf("%d recent rows kept after 30 minutes", n)
		}
	})
}
