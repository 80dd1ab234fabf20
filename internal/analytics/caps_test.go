package analytics

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// referred is a view of the home page from the n-th visitor, referred by host.
func referred(n int, host, lang string) Hit {
	return Hit{Body: fmt.Appendf(nil, `{"p":"/","l":"en","bl":%q,"r":%q,"s":"desktop"}`, lang, host),
		Header: browserHeader(browserAgents[0]), Address: fmt.Sprintf("10.0.%d.%d", n/250, n%250)}
}

// referrerRows returns how many referrers of d have rows of their own (neither none nor
// Other), and the views counted as Other, in the rollup and in analytics_views.
func referrerRows(t *testing.T, st *store.Store, d day) (rows, other int64) {
	t.Helper()
	rows = countRows(t, st, "SELECT COUNT(*) FROM analytics_referrers WHERE day = ? AND referrer <> '' AND referrer <> ?", d.String(), Other)
	if n := countRows(t, st, "SELECT COUNT(DISTINCT referrer) FROM analytics_views WHERE day = ? AND referrer <> '' AND referrer <> ?", d.String(), Other); n != rows {
		t.Errorf("analytics_views has %d referrers, the rollup %d", n, rows)
	}
	other = countRows(t, st, "SELECT COALESCE(SUM(views), 0) FROM analytics_referrers WHERE day = ? AND referrer = ?", d.String(), Other)
	return rows, other
}

// K+50 distinct referrers in one day, over two flushes: the first K keep rows of their own
// (and get their later views), the 50 others are counted as Other; views without referrer are
// never capped; the next day has K of its own; the report lists Other as one referrer.
func TestReferrerCap(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		const k = 100
		clock := newFakeClock(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
		in := newIngester(t, st, WithClock(clock.now), WithReferrersPerDay(k))
		today := dayOf(clock.now())
		n := 0
		send := func(host string) {
			record(t, in, referred(n, host, "en-US"))
			n++
		}
		for i := range 60 {
			send(fmt.Sprintf("r%03d.example", i))
		}
		flush(t, in)
		for i := range k + 50 {
			send(fmt.Sprintf("r%03d.example", i)) // 60 known, 40 new with room, 50 new without
		}
		send("")
		send("handy.example") // the site itself: none
		flush(t, in)
		rows, other := referrerRows(t, st, today)
		if rows != k || other != 50 {
			t.Errorf("%d referrer rows and %d views as Other, want %d and 50", rows, other, k)
		}
		if got := countRows(t, st, "SELECT views FROM analytics_referrers WHERE day = ? AND referrer = 'r000.example'", today.String()); got != 2 {
			t.Errorf("a referrer of the first flush has %d views, want 2", got)
		}
		if got := countRows(t, st, "SELECT views FROM analytics_referrers WHERE day = ? AND referrer = ''", today.String()); got != 2 {
			t.Errorf("%d views without referrer, want 2", got)
		}
		// A referrer past the cap stays Other in later flushes.
		send(fmt.Sprintf("r%03d.example", k+10))
		flush(t, in)
		if rows, other := referrerRows(t, st, today); rows != k || other != 51 {
			t.Errorf("after one more: %d rows, %d as Other, want %d and 51", rows, other, k)
		}
		checkDimensions(t, st)

		rep, err := NewReporter(st, site.Default(), clock.now).Report(context.Background(), clock.now(), clock.now())
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Refs) == 0 || rep.Refs[0] != (Count{Name: Other, Views: 51}) {
			t.Errorf("the report's referrers begin %v, want (other) with 51 views", rep.Refs[:min(len(rep.Refs), 2)])
		}

		clock.set(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
		for i := range k + 50 {
			send(fmt.Sprintf("s%03d.example", i))
		}
		flush(t, in)
		if rows, other := referrerRows(t, st, today+1); rows != k || other != 50 {
			t.Errorf("the next day: %d rows, %d as Other, want %d and 50", rows, other, k)
		}
	})
}

// Instances sharing one database share the cap: two Ingesters flushing distinct referrers at
// once leave exactly K rows between them.
func TestReferrerCapAcrossInstances(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		const k, each = 30, 40
		clock := newFakeClock(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
		ins := []*Ingester{
			newIngester(t, st, WithClock(clock.now), WithReferrersPerDay(k)),
			newIngester(t, st, WithClock(clock.now), WithReferrersPerDay(k)),
		}
		for i, in := range ins {
			for j := range each {
				record(t, in, referred(i*each+j, fmt.Sprintf("i%d-%02d.example", i, j), "en-US"))
			}
		}
		var wg sync.WaitGroup
		for _, in := range ins {
			wg.Go(func() { flush(t, in) })
		}
		wg.Wait()
		if rows, other := referrerRows(t, st, dayOf(clock.now())); rows != k || other != 2*each-k {
			t.Errorf("%d rows, %d as Other, want %d and %d", rows, other, k, 2*each-k)
		}
	})
}

// Browser languages are capped the same way: past the day's cap a new language is Other,
// "und" (unknown) never is.
func TestLanguageCap(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		clock := newFakeClock(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
		in := newIngester(t, st, WithClock(clock.now))
		for i := range in.caps {
			if in.caps[i].column == "lang" {
				in.caps[i].limit = 3
			}
		}
		for i, lang := range []string{"en-US", "de-DE", "fr", "ja", "pt-BR", "", "en-US"} {
			record(t, in, referred(i, "", lang))
		}
		flush(t, in)
		d := dayOf(clock.now()).String()
		if n := countRows(t, st, "SELECT COUNT(*) FROM analytics_langs WHERE day = ? AND lang NOT IN ('und', ?)", d, Other); n != 3 {
			t.Errorf("%d languages with rows, want 3", n)
		}
		for lang, want := range map[string]int64{"en-US": 2, "und": 1, Other: 2} {
			if n := countRows(t, st, "SELECT COALESCE(SUM(views), 0) FROM analytics_langs WHERE day = ? AND lang = ?", d, lang); n != want {
				t.Errorf("%s: %d views, want %d", lang, n, want)
			}
		}
		checkDimensions(t, st)
	})
}

// The front end learns the overflow's name from api.json.
func TestOtherIsTheAPIs(t *testing.T) {
	t.Parallel()
	if got := site.DefaultAPI().StatsOther; got != Other {
		t.Errorf("api.json's statsOther is %q, the analytics count %q", got, Other)
	}
}
