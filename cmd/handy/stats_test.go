package main

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"handy/internal/store"
)

// seedStatsDB makes a SQLite database in dir holding two days of rollups and a recent visitor.
func seedStatsDB(t *testing.T, dir string, now time.Time) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{"INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES ('2026-11-23', 'faq', 'de', 'de-DE', 'news.example', 'phone', 4)", nil},
		{"INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES ('2026-11-24', 'flip-image', 'en', 'en-US', '', 'desktop', 1200)", nil},
		{"INSERT INTO analytics_days (day, visitors, bots) VALUES ('2026-11-23', 3, 1), ('2026-11-24', 500, 96)", nil},
		{"INSERT INTO analytics_recent (minute, visitor) VALUES (?, 'a'), (?, 'b')", []any{now.Unix() / 60, now.Unix()/60 - 2}},
	} {
		if _, err := st.Exec(ctx, q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStatsCommand(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC)
	dir := t.TempDir()
	seedStatsDB(t, dir, now)
	var stdout, stderr bytes.Buffer
	code := runStats([]string{"-from", "2026-11-22", "-data-dir", dir, "--to=2026-11-24", "-log-level", "warn"}, func(string) string { return "" },
		func() time.Time { return now }, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := `Page views from 2026-11-22 to 2026-11-24 (UTC)

Visitors in the last 5 minutes:  2
Views:                           1204
Visitors (each day's, summed):   503
Bot views dropped:               97 (7.5% of all views)

DAY         VIEWS  VISITORS  BOTS
2026-11-22  0      0         0
2026-11-23  4      3         1
2026-11-24  1200   500       96

PAGE         VIEWS
/flip-image  1200
/de/faq      4

LOCALE  VIEWS
en      1200
de      4

BROWSER LANGUAGE  VIEWS
en-US             1200
de-DE             4

REFERRER      VIEWS
news.example  4

SCREEN   VIEWS
desktop  1200
phone    4
`
	if got := stdout.String(); got != want {
		t.Errorf("output\n%s\nwant\n%s", got, want)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestStatsCommandRefuses(t *testing.T) {
	t.Parallel()
	now := func() time.Time { return time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC) }
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-from", "24.11.2026"}, `handy stats: -from: "from" must be a date written YYYY-MM-DD.`},
		{[]string{"-from", "2026-11-25"}, `handy stats: -from: "from" must not be after "to".`},
		{[]string{"-to", "2026-11-24", "-from", "2025-01-01"}, "at most 400 days"},
		{[]string{"-to"}, "flag needs an argument: -to"},
		{[]string{"-nope"}, "-nope"},
	} {
		var stdout, stderr bytes.Buffer
		code := runStats(append([]string{"-data-dir", t.TempDir()}, tc.args...), func(string) string { return "" }, now, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

func TestSplitRangeFlags(t *testing.T) {
	t.Parallel()
	from, to, rest, err := splitRangeFlags([]string{"-data-dir", "d", "-from=2026-01-01", "--to", "2026-02-01", "-log-level", "warn"})
	if err != nil || from != "2026-01-01" || to != "2026-02-01" || !reflect.DeepEqual(rest, []string{"-data-dir", "d", "-log-level", "warn"}) {
		t.Errorf("splitRangeFlags = %q, %q, %q, %v", from, to, rest, err)
	}
}

// TestStatsDispatch runs `handy stats` through run, on today's empty range.
func TestStatsDispatch(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := run([]string{"stats", "-data-dir", t.TempDir(), "-log-level", "warn"}, func(string) string { return "" }, nil, &stdout, &stderr)
	today := time.Now().UTC()
	if code != 0 || !strings.Contains(stdout.String(), "to "+today.Format(time.DateOnly)+" (UTC)") || !strings.Contains(stdout.String(), "DAY ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
