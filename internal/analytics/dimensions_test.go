package analytics

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// rollupRows reads a query of (day, key…, views) rows into "day|key…" → views.
func rollupRows(t *testing.T, st *store.Store, query string, keyColumns int) map[string]int64 {
	t.Helper()
	rows, err := st.Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := make(map[string]int64)
	for rows.Next() {
		key := make([]string, 1+keyColumns)
		dest := make([]any, 0, len(key)+1)
		for i := range key {
			dest = append(dest, &key[i])
		}
		var views int64
		if err := rows.Scan(append(dest, &views)...); err != nil {
			t.Fatal(err)
		}
		out[strings.Join(key, "|")] = views
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkDimensions fails unless every per-dimension rollup holds analytics_views summed over the
// other columns (a rollup row left at 0 counts as absent: the reports skip it).
func checkDimensions(t *testing.T, st *store.Store) {
	t.Helper()
	for _, d := range dimensions {
		cols := "day, " + strings.Join(d.key, ", ")
		want := rollupRows(t, st, "SELECT "+cols+", SUM(views) FROM analytics_views GROUP BY "+cols+" HAVING SUM(views) <> 0", len(d.key))
		got := rollupRows(t, st, "SELECT "+cols+", views FROM "+d.table+" WHERE views <> 0", len(d.key))
		if len(want) == 0 {
			t.Errorf("%s: analytics_views is empty", d.table)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s =\n%v\nwant (analytics_views summed)\n%v", d.table, got, want)
		}
	}
}

// The writer's flushes reach every per-dimension rollup: after views of many kinds over two
// days and several flushes (rows inserted, then added to by the upsert), each rollup is
// analytics_views summed.
func TestDimensionsFollowTheWriter(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		clock := newFakeClock(time.Date(2026, 11, 23, 23, 0, 0, 0, time.UTC))
		in := newIngester(t, st, WithClock(clock.now))
		paths := [][2]string{{"/", "en"}, {"/de/faq", "de"}, {"/jp/flip-image", "jp"}, {"/area-calculator", "en"}}
		langs := []string{"en-US", "de-DE", "ja", "", "pt-BR"}
		refs := []string{"", "www.google.com", "news.example", "handy.example"} // the last is the site itself: ""
		screens := []string{ScreenPhone, ScreenTablet, ScreenDesktop}
		for round := range 4 {
			if round == 2 {
				clock.set(time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC))
			}
			for i := range 60 {
				p := paths[(i+round)%len(paths)]
				body := fmt.Sprintf(`{"p":%q,"l":%q,"bl":%q,"r":%q,"s":%q}`, p[0], p[1], langs[i%len(langs)], refs[(i/2)%len(refs)], screens[(i/3)%len(screens)])
				record(t, in, Hit{Body: []byte(body), Header: browserHeader(browserAgents[0]), Address: fmt.Sprintf("192.0.2.%d", i)})
			}
			flush(t, in)
		}
		if n := countRows(t, st, "SELECT SUM(views) FROM analytics_views"); n != 240 {
			t.Fatalf("analytics_views holds %d views, want 240", n)
		}
		checkDimensions(t, st)
	})
}

// Whatever changes analytics_views, the rollups follow in the same statement: multi-row
// inserts, the writer's upsert, an update that moves a row to other keys, deletes (an
// operator's clean-up), and a statement that fails changes neither.
func TestDimensionsFollowEveryChange(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		ctx := context.Background()
		exec := func(query string, args ...any) {
			t.Helper()
			if _, err := st.Exec(ctx, query, args...); err != nil {
				t.Fatalf("%s: %v", query, err)
			}
		}
		const upsert = "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES " +
			"(?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?)" +
			" ON CONFLICT (day, page, locale, lang, referrer, screen) DO UPDATE SET views = analytics_views.views + excluded.views"
		exec(upsert,
			"2026-11-23", "index", "en", "en-US", "", "desktop", 5,
			"2026-11-23", "faq", "de", "de", "spam.example", "phone", 7,
			"2026-11-24", "index", "en", "en-US", "www.google.com", "phone", 2)
		checkDimensions(t, st)
		// One row added to, one new: the upsert both updates and inserts.
		exec(upsert,
			"2026-11-23", "index", "en", "en-US", "", "desktop", 3,
			"2026-11-24", "faq", "de", "de-AT", "", "tablet", 4,
			"2026-11-24", "index", "en", "en-US", "www.google.com", "phone", 1)
		checkDimensions(t, st)
		exec("UPDATE analytics_views SET lang = 'en-GB', screen = 'tablet' WHERE day = '2026-11-23' AND page = 'index'")
		checkDimensions(t, st)
		exec("DELETE FROM analytics_views WHERE referrer = 'spam.example'")
		checkDimensions(t, st)
		if n := countRows(t, st, "SELECT COUNT(*) FROM analytics_referrers WHERE referrer = 'spam.example' AND views <> 0"); n != 0 {
			t.Errorf("the deleted referrer keeps %d rows with views", n)
		}
		// The report lists neither the deleted referrer nor the language it alone had.
		rep, err := NewReporter(st, site.Default(), nil).Report(ctx, time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		wantRefs, wantLangs := []Count{{"www.google.com", 3}}, []Count{{"en-GB", 8}, {"de-AT", 4}, {"en-US", 3}}
		wantPages := []PageCount{{Path: "/", Page: "index", Locale: "en", Views: 11}, {Path: "/de/faq", Page: "faq", Locale: "de", Views: 4}}
		if !reflect.DeepEqual(rep.Refs, wantRefs) || !reflect.DeepEqual(rep.Langs, wantLangs) || !reflect.DeepEqual(rep.Pages, wantPages) || rep.Totals.Views != 15 {
			t.Errorf("report after the clean-up: referrers %v, languages %v, pages %v, %d views; want %v, %v, %v, 15",
				rep.Refs, rep.Langs, rep.Pages, rep.Totals.Views, wantRefs, wantLangs, wantPages)
		}
		// The second row conflicts with the first within one statement: the statement fails
		// whole, and the rollups with it.
		if _, err := st.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES "+
			"('2026-11-25', 'faq', 'en', 'en', '', 'phone', 1), ('2026-11-25', 'faq', 'en', 'en', '', 'phone', 1)"); err == nil {
			t.Fatal("a duplicate key was inserted")
		}
		checkDimensions(t, st)
		if n := countRows(t, st, "SELECT COUNT(*) FROM analytics_pages WHERE day = '2026-11-25'"); n != 0 {
			t.Errorf("a failed insert left %d rows in analytics_pages", n)
		}
	})
}

// Migration 0007 fills the per-dimension rollups with the views counted before it.
func TestMigrationFillsDimensions(t *testing.T) {
	t.Parallel()
	for _, e := range []struct {
		name string
		url  func(t *testing.T) string
	}{
		{store.SQLite, func(*testing.T) string { return "" }},
		{store.Postgres, func(t *testing.T) string { return storetest.URL(t) }},
	} {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			st, err := store.Open(ctx, e.url(t), t.TempDir()) // without the schema
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			all, err := store.Migrations(st.Engine())
			if err != nil {
				t.Fatal(err)
			}
			// Every migration before this one, then rows as the writer left them.
			var dims *store.Migration
			for _, m := range all {
				if strings.Contains(m.Name, "_analytics_dimensions.") {
					dims = &m
					break
				}
				if _, err := st.Exec(ctx, m.SQL); err != nil {
					t.Fatalf("%s: %v", m.Name, err)
				}
			}
			if dims == nil {
				t.Fatal("no migration NNNN_analytics_dimensions")
			}
			for i, v := range []struct {
				day, page, locale, lang, referrer, screen string
			}{
				{"2026-11-22", "index", "en", "en-US", "", "desktop"},
				{"2026-11-22", "index", "en", "en-US", "www.google.com", "desktop"},
				{"2026-11-22", "index", "en", "de", "", "phone"},
				{"2026-11-22", "faq", "de", "de", "", "phone"},
				{"2026-11-23", "index", "en", "en-US", "", "desktop"},
				{"2026-11-23", "flip-image", "jp", "ja", "news.example", "tablet"},
			} {
				if _, err := st.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES (?, ?, ?, ?, ?, ?, ?)",
					v.day, v.page, v.locale, v.lang, v.referrer, v.screen, 10+i); err != nil {
					t.Fatal(err)
				}
			}
			// As Migrate applies it: one transaction.
			if err := st.InTx(ctx, func(tx *store.Tx) error { _, err := tx.Exec(ctx, dims.SQL); return err }); err != nil {
				t.Fatalf("%s: %v", dims.Name, err)
			}
			checkDimensions(t, st)
			// And the triggers follow from there.
			if _, err := st.Exec(ctx, "UPDATE analytics_views SET views = views + 5 WHERE page = 'index'"); err != nil {
				t.Fatal(err)
			}
			checkDimensions(t, st)
		})
	}
}
