package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"handy/internal/site"
	"handy/internal/store"
)

type runOptions struct {
	handy, adminURL string
	days, views     int
	n30, n365       int
	clients         int
	goal30, goal365 time.Duration
	timeout         time.Duration // of one answer
}

// measured is a range to measure: how many requests, and the goal of their p95.
type measured struct {
	span
	n    int
	goal time.Duration
}

// warmUp is how many answers of each range are thrown away first: the first reads fill the
// page caches and the connection pools.
const warmUp = 5

// runEngine seeds a fresh database of engine, starts handy on it and measures the reports.
func runEngine(engine string, o runOptions) error {
	label := fmt.Sprintf("  %-10s", engine)
	dir, err := os.MkdirTemp("", "handy-benchstats-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var dbURL string
	switch engine {
	case store.SQLite:
	case store.Postgres, "postgresql":
		if o.adminURL == "" {
			fmt.Println("bench: no PostgreSQL (HANDY_TEST_DATABASE_URL unset): the PostgreSQL figures are skipped")
			return nil
		}
		var drop func()
		if dbURL, drop, err = createDatabase(o.adminURL); err != nil {
			return err
		}
		defer drop()
	default:
		return fmt.Errorf("unknown engine %q (sqlite or postgres)", engine)
	}

	ctx := context.Background()
	st, err := openStore(ctx, dbURL, dir)
	if err != nil {
		return err
	}
	today := time.Now().UTC()
	s, err := seed(ctx, st, site.Default(), today, o.days, o.views, 1)
	if err != nil {
		st.Close()
		return err
	}
	size := databaseSize(ctx, st, dir)
	if err := st.Close(); err != nil {
		return err
	}
	fmt.Printf("%s %s; database %s\n", label, s.line(), size)

	h, err := startHandy(o.handy, dir, dbURL)
	if err != nil {
		return err
	}
	defer h.stop()
	c := &statsClient{http: &http.Client{Timeout: o.timeout, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}, base: h.base, token: h.token}
	// The day handy counts as today, in case the seed and handy straddle midnight.
	to := s.last
	spans := []measured{
		{newSpan("30 days", to, 30, int64(o.views)), o.n30, o.goal30},
		{newSpan("365 days", to, 365, int64(o.views)), o.n365, o.goal365},
	}
	spans = slices.DeleteFunc(spans, func(sp measured) bool { return sp.n <= 0 }) // not asked for
	for _, sp := range spans {
		if _, err := c.run(sp.span, warmUp, 1); err != nil {
			return err
		}
	}
	fmt.Printf("%s load average before measuring: %s\n", label, loadAverage())
	for _, sp := range spans {
		d, err := c.run(sp.span, sp.n, 1)
		if err != nil {
			return err
		}
		l := summarise(d)
		verdict := "met"
		if l.p95 > sp.goal {
			verdict = "MISSED"
		}
		fmt.Printf("%s GET /api/v1/stats, %s, %d requests one at a time: p50 %s, p95 %s, max %s (goal p95 ≤ %s): %s\n",
			label, sp.label, l.n, ms(l.p50), ms(l.p95), ms(l.max), ms(sp.goal), verdict)
	}
	if o.clients > 1 {
		for _, sp := range spans {
			d, err := c.run(sp.span, max(sp.n/o.clients, 1), o.clients)
			if err != nil {
				return err
			}
			l := summarise(d)
			fmt.Printf("%s GET /api/v1/stats, %s, %d clients at once, %d requests: p50 %s, p95 %s, max %s (no goal: the dashboard has one reader)\n",
				label, sp.label, o.clients, l.n, ms(l.p50), ms(l.p95), ms(l.max))
		}
	}
	if err := h.stop(); err != nil {
		return fmt.Errorf("handy did not exit cleanly: %v\n%s", err, h.Log)
	}
	if log := strings.TrimSpace(h.Log.String()); log != "" {
		fmt.Printf("%s handy's log (warnings and errors), last lines:\n", label)
		lines := strings.Split(log, "\n")
		for _, l := range lines[max(len(lines)-5, 0):] {
			fmt.Printf("    %.200s\n", l)
		}
	}
	return nil
}

// newSpan is the range of days days ending on to, in which every day has views views.
func newSpan(label, to string, days int, views int64) span {
	t, _ := time.Parse(time.DateOnly, to)
	return span{label: label, from: t.AddDate(0, 0, -(days - 1)).Format(time.DateOnly), to: to, days: days, views: int64(days) * views}
}

// databaseSize is the database's size on disk, for the record.
func databaseSize(ctx context.Context, st *store.Store, dir string) string {
	var n int64
	if st.Engine() == store.Postgres {
		if err := st.QueryRow(ctx, "SELECT pg_database_size(current_database())").Scan(&n); err != nil {
			return "?"
		}
	} else {
		for _, suffix := range []string{"", "-wal"} {
			if fi, err := os.Stat(filepath.Join(dir, store.SQLiteFile+suffix)); err == nil {
				n += fi.Size()
			}
		}
	}
	return fmt.Sprintf("%.0f MB", float64(n)/1e6)
}

// loadAverage is the 1-, 5- and 15-minute load averages: the machine's other work moves the
// figures.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], ", ")
}
