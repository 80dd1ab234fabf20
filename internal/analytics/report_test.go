package analytics

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// SeedReport writes rollups for the report tests: three days of views, visitors and bots, one
// day outside the range, and recent visitors.
func seedReport(t *testing.T, st *store.Store, now time.Time) {
	t.Helper()
	ctx := context.Background()
	views := []struct {
		day, page, locale, lang, referrer, screen string
		views                                     int64
	}{
		{"2026-11-20", "index", "en", "en-US", "", "desktop", 10},
		{"2026-11-20", "faq", "de", "de-DE", "news.example", "phone", 4},
		{"2026-11-22", "index", "en", "en-US", "search.example", "desktop", 5},
		{"2026-11-22", "faq", "de", "de", "news.example", "tablet", 4},
		{"2026-11-22", "flip-image", "jp", "ja", "", "phone", 7},
		{"2026-11-22", "gone-page", "en", "und", "", "desktop", 1},
		{"2026-11-19", "index", "en", "en-US", "old.example", "desktop", 1000}, // before the range
	}
	for _, v := range views {
		if _, err := st.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES (?, ?, ?, ?, ?, ?, ?)",
			v.day, v.page, v.locale, v.lang, v.referrer, v.screen, v.views); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []struct {
		day            string
		visitors, bots int64
	}{{"2026-11-19", 500, 500}, {"2026-11-20", 6, 3}, {"2026-11-22", 9, 0}} {
		if _, err := st.Exec(ctx, "INSERT INTO analytics_days (day, visitors, bots) VALUES (?, ?, ?)", d.day, d.visitors, d.bots); err != nil {
			t.Fatal(err)
		}
	}
	minute := now.Unix() / 60
	for _, r := range []struct {
		ago     int64
		visitor string
	}{{0, "a"}, {1, "a"}, {4, "b"}, {5, "c"}, {10, "d"}} {
		if _, err := st.Exec(ctx, "INSERT INTO analytics_recent (minute, visitor) VALUES (?, ?)", minute-r.ago, r.visitor); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReport(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		now := time.Date(2026, 11, 24, 12, 30, 0, 0, time.UTC)
		seedReport(t, st, now)
		r := NewReporter(st, site.Default(), func() time.Time { return now })
		got, err := r.Report(context.Background(), time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		want := &Report{
			From: "2026-11-20", To: "2026-11-22",
			Days: []DayCount{
				{Day: "2026-11-20", Views: 14, Visitors: 6, Bots: 3},
				{Day: "2026-11-21"},
				{Day: "2026-11-22", Views: 17, Visitors: 9},
			},
			Totals: Totals{Views: 31, Visitors: 15, Bots: 3, BotShare: 3.0 / 34},
			Pages: []PageCount{
				{Path: "/", Page: "index", Locale: "en", Views: 15},
				{Path: "/de/faq", Page: "faq", Locale: "de", Views: 8},
				{Path: "/jp/flip-image", Page: "flip-image", Locale: "jp", Views: 7},
				{Path: "gone-page___en", Page: "gone-page", Locale: "en", Views: 1},
			},
			Locales:  []Count{{"en", 16}, {"de", 8}, {"jp", 7}},
			Langs:    []Count{{"en-US", 15}, {"ja", 7}, {"de", 4}, {"de-DE", 4}, {"und", 1}},
			Refs:     []Count{{"news.example", 8}, {"search.example", 5}},
			Screens:  []Count{{"desktop", 16}, {"phone", 11}, {"tablet", 4}},
			Realtime: Realtime{Minutes: 5, Visitors: 2},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Report =\n%+v\nwant\n%+v", got, want)
		}
	})
}

func TestReportEmptyAndRange(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
		r := NewReporter(st, site.Default(), func() time.Time { return now })
		if got := r.Today(); !got.Equal(time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("Today = %v", got)
		}
		got, err := r.Report(context.Background(), now, now)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Days) != 1 || got.Totals != (Totals{}) || len(got.Refs) != 0 || got.Refs == nil || got.Pages == nil || len(got.Pages) != 0 {
			t.Errorf("empty report = %+v", got)
		}
		day := 24 * time.Hour
		for _, tc := range []struct {
			from, to time.Time
			ok       bool
		}{
			{now, now.Add(-day), false},
			{now.Add(-(MaxReportDays - 1) * day), now, true},
			{now.Add(-MaxReportDays * day), now, false},
		} {
			_, err := r.Report(context.Background(), tc.from, tc.to)
			if tc.ok != (err == nil) || !tc.ok && !errors.Is(err, ErrRange) {
				t.Errorf("Report(%s, %s) = %v", tc.from.Format(time.DateOnly), tc.to.Format(time.DateOnly), err)
			}
		}
	})
}

// BenchmarkReport reads a year's report over a year of rollups (about 36,000 rows).
func BenchmarkReport(b *testing.B) {
	st := storetest.Engines()[0].Open(b)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	err := st.InTx(ctx, func(tx *store.Tx) error {
		for d := range 365 {
			day := now.AddDate(0, 0, -d).Format(time.DateOnly)
			for i := range 100 {
				if _, err := tx.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES (?, 'home', 'en', ?, ?, 'desktop', 3)",
					day, fmt.Sprintf("l%d", i%20), fmt.Sprintf("r%d.example", i)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	r := NewReporter(st, site.Default(), func() time.Time { return now })
	for b.Loop() {
		if _, err := r.Report(ctx, now.AddDate(0, 0, -364), now); err != nil {
			b.Fatal(err)
		}
	}
}
