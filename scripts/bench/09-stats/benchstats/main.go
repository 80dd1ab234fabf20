// Command benchstats backs `make bench`'s ninth part (scripts/bench/bench.sh): how fast the operator's
// page-view report, GET /api/v1/stats, answers over a year of page views.
//
//	benchstats seed [-data-dir DIR] [-database-url URL] [-days 366] [-views 30000] [-seed 1]
//
// opens the store as handy does (SQLite in DIR, or PostgreSQL at URL), migrates it and writes
// -days days of rollups ending today (UTC), -views page views a day, one transaction per day,
// straight into the tables: multi-row INSERTs into analytics_views (whose triggers, migration
// 0007, fill the per-dimension rollups the report reads, as they do for the ingest's writer) and
// one analytics_days row a day with its unique visitors (a visitor views 1.5–1.7 pages) and bots
// (20–33 % of the views). The salts and visitor keys, kept 48 hours, are not seeded: no report
// reads them.
//
//	benchstats run -handy ./handy [-engines sqlite,postgres] [-database-url ADMIN_URL] [-n30 200] [-n365 50] [-clients 4]
//
// per engine: seeds a fresh database (SQLite in a temporary directory; on PostgreSQL a database
// of its own in the cluster of ADMIN_URL, default $HANDY_TEST_DATABASE_URL, dropped afterwards),
// starts handy on it with an admin token, warms up, then asks for the report of the last 30 days
// -n30 times and of the last 365 days -n365 times, one request at a time, then the same again
// from -clients clients at once. Every answer is checked (its range, and every view seeded in
// it counted). One line per engine and range: p50, p95 and max, against the goal (p95 ≤ 150 ms
// for 30 days, ≤ 500 ms for 365) and met or MISSED. It fails only when something breaks.
//
// How many rows a day, and why that is realistic: analytics_views is keyed by day, page, locale,
// browser language, referrer host and screen class, so its size is the number of distinct
// combinations a day's views fall into, not the number of views. The seed draws each day's
// 30,000 views one by one from a model of the traffic and adds them up as the writer does:
// 56 page × locale pairs (7 pages × 8 locales of site.json; the tools and English first, each
// pair ±40 %), 35 browser languages (a few regional tags per locale, 8 % of visitors with an
// English browser on another locale, a tail of 10 languages the site does not offer, 1 % `und`),
// 72 % of views without a referrer and the rest over 300 hosts (search engines first, then a
// tail of 275 sites, each rarer than the one before), 3 screen classes (phone 52 %, desktop 40 %,
// tablet 8 %). That makes about 6,060 distinct rows a day (5,900–6,200; 2.2 million over the
// year): the 21,600 views without a referrer fall into about 1,400 combinations, the 8,400
// referred ones into about 4,600, most of them a single view (a referrer of the tail, in one
// language, on one page, on one screen). A site with more referrers or languages has more rows
// per view, one with fewer has fewer; at 30,000 views a day, 3,000 to 8,000 rows is the
// plausible range, and this seed sits in its upper half.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"handy/internal/site"
	"handy/internal/store"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "seed":
		fs := flag.NewFlagSet("seed", flag.ExitOnError)
		dataDir := fs.String("data-dir", "", "SQLite: handy's data directory")
		dbURL := fs.String("database-url", "", "PostgreSQL: the database URL")
		days := fs.Int("days", 366, "days of page views, ending today")
		views := fs.Int("views", 30_000, "page views a day")
		rngSeed := fs.Uint64("seed", 1, "seed of the traffic model")
		fs.Parse(os.Args[2:])
		if *dataDir == "" && *dbURL == "" {
			err = fmt.Errorf("seed: give -data-dir or -database-url")
			break
		}
		err = seedOnly(*dbURL, *dataDir, *days, *views, *rngSeed)
	case "run":
		fs := flag.NewFlagSet("run", flag.ExitOnError)
		var o runOptions
		fs.StringVar(&o.handy, "handy", "./handy", "the handy binary")
		engines := fs.String("engines", "sqlite,postgres", "engines to measure; postgres needs -database-url")
		fs.StringVar(&o.adminURL, "database-url", os.Getenv("HANDY_TEST_DATABASE_URL"), "PostgreSQL: an admin URL of a cluster to create the benchmark's database in")
		fs.IntVar(&o.days, "days", 366, "days of page views seeded, ending today")
		fs.IntVar(&o.views, "views", 30_000, "page views a day")
		fs.IntVar(&o.n30, "n30", 200, "sequential requests of the 30-day report")
		fs.IntVar(&o.n365, "n365", 50, "sequential requests of the 365-day report")
		fs.IntVar(&o.clients, "clients", 4, "clients of the concurrent runs (0 skips them)")
		fs.DurationVar(&o.goal30, "goal30", 150*time.Millisecond, "the 30-day report's p95 goal")
		fs.DurationVar(&o.goal365, "goal365", 500*time.Millisecond, "the 365-day report's p95 goal")
		fs.DurationVar(&o.timeout, "timeout", time.Minute, "give up on an answer after this long")
		fs.Parse(os.Args[2:])
		for _, e := range strings.Split(*engines, ",") {
			if err = runEngine(strings.TrimSpace(e), o); err != nil {
				break
			}
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchstats:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: benchstats seed [-data-dir DIR] [-database-url URL] [-days 366] [-views 30000] [-seed 1]\n"+
		"       benchstats run -handy ./handy [-engines sqlite,postgres] [-database-url ADMIN_URL] [-n30 200] [-n365 50] [-clients 4]")
	os.Exit(2)
}

// openStore opens and migrates the database as cmd/handy does.
func openStore(ctx context.Context, dbURL, dataDir string) (*store.Store, error) {
	st, err := store.Open(ctx, dbURL, dataDir)
	if err != nil {
		return nil, err
	}
	if _, err := st.Migrate(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

func seedOnly(dbURL, dataDir string, days, views int, rngSeed uint64) error {
	ctx := context.Background()
	st, err := openStore(ctx, dbURL, dataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := seed(ctx, st, site.Default(), time.Now().UTC(), days, views, rngSeed)
	if err != nil {
		return err
	}
	fmt.Println(s.line())
	return nil
}

func (s *seedStats) line() string {
	return fmt.Sprintf("seeded %d days (%s to %s) in %.1f s: %s views a day, %s in all, over %d languages and %d referrer hosts; analytics_views: %s",
		s.days, s.first, s.last, s.took.Seconds(), thousands(int64(s.viewsPerDay)), thousands(s.views), s.langs, s.refs, s.rowsSummary())
}
