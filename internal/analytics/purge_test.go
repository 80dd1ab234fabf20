package analytics

import (
	"context"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// Rollups older than the retention are deleted; the day exactly the retention ago is kept.
func TestPurge(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		ctx := context.Background()
		now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		today := dayOf(now)
		// The ingester purges once as it starts (then hourly): a row past the retention, put
		// there first, tells when that purge is done, so that the one below is alone.
		if _, err := st.Exec(ctx, "INSERT INTO analytics_days (day, visitors, bots) VALUES (?, 1, 1)", (today - 5000).String()); err != nil {
			t.Fatal(err)
		}
		in := newIngester(t, st, WithClock(newFakeClock(now).now), WithRetention(400))
		for deadline := time.Now().Add(10 * time.Second); countRows(t, st, "SELECT COUNT(*) FROM analytics_days") > 0; {
			if time.Now().After(deadline) {
				t.Fatal("the start-up purge did not run")
			}
			time.Sleep(5 * time.Millisecond)
		}
		for _, age := range []day{0, 1, 399, 400, 401, 402, 1000} {
			d := (today - age).String()
			if _, err := st.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES (?, 'faq', 'en', 'en', '', 'phone', 1)", d); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Exec(ctx, "INSERT INTO analytics_days (day, visitors, bots) VALUES (?, 1, 1)", d); err != nil {
				t.Fatal(err)
			}
		}
		n, err := in.purge(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 6 {
			t.Errorf("purged %d rows, want 6 (three days in two tables)", n)
		}
		oldest := (today - 400).String()
		for _, table := range []string{"analytics_views", "analytics_days"} {
			if got := countRows(t, st, "SELECT COUNT(*) FROM "+table+" WHERE day >= ?", oldest); got != 4 {
				t.Errorf("%s keeps %d days from %s, want 4", table, got, oldest)
			}
			if got := countRows(t, st, "SELECT COUNT(*) FROM "+table); got != 4 {
				t.Errorf("%s keeps %d rows, want 4", table, got)
			}
		}
	})
}
