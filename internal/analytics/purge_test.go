package analytics

import (
	"context"
	"slices"
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
			// A row in analytics_views, and by the triggers one in each rollup of migration 0007.
			if _, err := st.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES (?, 'faq', 'en', 'en', '', 'phone', 1)", d); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Exec(ctx, "INSERT INTO analytics_days (day, visitors, bots) VALUES (?, 1, 1)", d); err != nil {
				t.Fatal(err)
			}
		}
		tables := rollupTables()
		if len(tables) != 6 {
			t.Fatalf("rollup tables %v, want the four of migration 0007, analytics_views and analytics_days", tables)
		}
		n, err := in.purge(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(3 * len(tables)); n != want {
			t.Errorf("purged %d rows, want %d (three days in %d tables)", n, want, len(tables))
		}
		oldest := (today - 400).String()
		for _, table := range tables {
			if got := countRows(t, st, "SELECT COUNT(*) FROM "+table+" WHERE day >= ?", oldest); got != 4 {
				t.Errorf("%s keeps %d days from %s, want 4", table, got, oldest)
			}
			if got := countRows(t, st, "SELECT COUNT(*) FROM "+table); got != 4 {
				t.Errorf("%s keeps %d rows, want 4", table, got)
			}
		}
	})
}

// Every table of daily counts in the schema is purged: a rollup added later and forgotten in
// rollupTables would keep its rows forever, past what the privacy policy promises.
func TestPurgeCoversEveryRollup(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		// Tables with a day column, other than the salts and visitors (deleted after 48 hours
		// by salts.go).
		query := "SELECT table_name FROM information_schema.columns WHERE column_name = 'day' AND table_schema = current_schema()"
		if st.Engine() == store.SQLite {
			query = "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name = 'day'"
		}
		rows, err := st.Query(context.Background(), query)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		purged := rollupTables()
		seen := 0
		for rows.Next() {
			var table string
			if err := rows.Scan(&table); err != nil {
				t.Fatal(err)
			}
			switch {
			case slices.Contains(purged, table):
				seen++
			case table != "analytics_salts" && table != "analytics_visitors":
				t.Errorf("%s has a day column but is not purged", table)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if seen != len(purged) {
			t.Errorf("found %d of the %d tables purged: %v", seen, len(purged), purged)
		}
	})
}
