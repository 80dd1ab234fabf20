package analytics

import (
	"context"
	"encoding/hex"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

func storedSalts(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	rows, err := st.Query(context.Background(), "SELECT day, salt FROM analytics_salts")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := make(map[string]string)
	for rows.Next() {
		var d, s string
		if err := rows.Scan(&d, &s); err != nil {
			t.Fatal(err)
		}
		out[d] = s
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func storedVisitors(t *testing.T, st *store.Store, d day) []string {
	t.Helper()
	rows, err := st.Query(context.Background(), "SELECT visitor FROM analytics_visitors WHERE day = ? ORDER BY visitor", d.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSaltRotation follows one visitor across midnight with a fake clock: a new salt, hence a
// new key and a new unique visitor, from the first view after midnight, without waiting for
// the database; the salt and the visitors of a day deleted once the day began 48 hours ago,
// its unique count kept.
func TestSaltRotation(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		ctx := context.Background()
		day1 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
		clock := newFakeClock(day1.Add(12 * time.Hour))
		in := newIngester(t, st, WithClock(clock.now))
		d1 := dayOf(day1)
		d2, d3 := d1+1, d1+2
		const address, ua = "203.0.113.50", "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"

		salts := storedSalts(t, st)
		if len(salts) != 1 || len(salts[d1.String()]) != 2*saltSize {
			t.Fatalf("salts at noon: %v, want today's only", salts)
		}
		record(t, in, visit(address, ua))
		record(t, in, visit(address, ua))

		// In the last hour of the day, tomorrow's salt is read ahead.
		clock.set(day1.Add(23*time.Hour + 30*time.Minute))
		if err := in.maintain(ctx); err != nil {
			t.Fatal(err)
		}
		if _, ok := in.salts.get(d2); !ok || len(storedSalts(t, st)) != 2 {
			t.Fatalf("at 23:30 tomorrow's salt is not ready: %v", storedSalts(t, st))
		}
		record(t, in, visit(address, ua))

		// After midnight the same visitor is a new one of the new day, hashed with the new salt.
		clock.set(day1.Add(24*time.Hour + time.Second))
		record(t, in, visit(address, ua))
		flush(t, in)
		if got := readCounts(t, st, d1); got != (counts{views: 3, visitors: 1}) {
			t.Errorf("day 1: %+v, want 3 views from 1 visitor", got)
		}
		if got := readCounts(t, st, d2); got != (counts{views: 1, visitors: 1}) {
			t.Errorf("day 2: %+v, want 1 view from 1 visitor", got)
		}
		v1, v2 := storedVisitors(t, st, d1), storedVisitors(t, st, d2)
		salt2, err := hex.DecodeString(storedSalts(t, st)[d2.String()])
		if err != nil {
			t.Fatal(err)
		}
		want2 := visitorKey(salt2, address, ua)
		if len(v1) != 1 || len(v2) != 1 || v1[0] == v2[0] || v2[0] != hex.EncodeToString(want2[:]) {
			t.Errorf("visitors %v and %v: want one key a day, different, the second HMAC(day 2's salt, address, user agent)", v1, v2)
		}

		// 47:59 after day 1 began its salt and visitors are still there...
		clock.set(day1.Add(48*time.Hour - time.Second))
		if err := in.maintain(ctx); err != nil {
			t.Fatal(err)
		}
		if _, ok := storedSalts(t, st)[d1.String()]; !ok || len(storedVisitors(t, st, d1)) != 1 {
			t.Errorf("day 1's salt or visitors deleted before 48 hours: %v", storedSalts(t, st))
		}
		// ...and at 48:00 they are gone, in memory too; its unique count stays.
		clock.set(day1.Add(48 * time.Hour))
		if err := in.maintain(ctx); err != nil {
			t.Fatal(err)
		}
		salts = storedSalts(t, st)
		if _, ok := salts[d1.String()]; ok || len(storedVisitors(t, st, d1)) != 0 {
			t.Errorf("day 1's salt or visitors kept after 48 hours: %v", salts)
		}
		if _, ok := in.salts.get(d1); ok {
			t.Error("day 1's salt still in memory")
		}
		if _, ok := salts[d2.String()]; !ok {
			t.Errorf("day 2's salt deleted after 24 hours")
		}
		if _, ok := salts[d3.String()]; !ok {
			t.Errorf("no salt for day 3: %v", salts)
		}
		if got := readCounts(t, st, d1); got.visitors != 1 {
			t.Errorf("day 1's unique visitors after its rows were deleted: %d, want 1", got.visitors)
		}
		// Nothing but the salts of the last two days, ever.
		if days := slices.Sorted(maps.Keys(salts)); !slices.Equal(days, []string{d2.String(), d3.String()}) {
			t.Errorf("salts kept: %v", days)
		}
	})
}

// A view of a day whose visitors are already deleted (its flush was held up by more than a day)
// still counts as a view, but not as a unique visitor: there is nothing left to tell whether
// it is a new one.
func TestLateViewAfterDeletion(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	day1 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	clock := newFakeClock(day1.Add(23 * time.Hour))
	in := newIngester(t, st, WithClock(clock.now))
	record(t, in, visit("203.0.113.1", browserAgents[0]))
	flush(t, in)
	record(t, in, visit("203.0.113.1", browserAgents[0]))
	record(t, in, visit("203.0.113.2", browserAgents[0]))
	clock.set(day1.Add(48*time.Hour + time.Minute))
	if err := in.maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	flush(t, in)
	if got := readCounts(t, st, dayOf(day1)); got != (counts{views: 3, visitors: 1}) {
		t.Errorf("day 1: %+v, want 3 views and the 1 visitor counted in time", got)
	}
}

// Two instances starting together on one database make one salt between them.
func TestSaltIsShared(t *testing.T) {
	t.Parallel()
	for _, e := range storetest.Engines() {
		if e.Name != store.Postgres {
			continue
		}
		st := e.Open(t)
		ins := make([]*Ingester, 4)
		errs := make([]error, len(ins))
		var wg sync.WaitGroup
		for i := range ins {
			wg.Go(func() {
				ins[i], errs[i] = New(context.Background(), st, site.Default(), testOrigin, WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			})
		}
		wg.Wait()
		for i, in := range ins {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			t.Cleanup(func() { in.Close(context.Background()) })
		}
		today := dayOf(time.Now())
		first, _ := ins[0].salts.get(today)
		for i, in := range ins {
			if s, ok := in.salts.get(today); !ok || hex.EncodeToString(s) != hex.EncodeToString(first) {
				t.Errorf("instance %d hashes with another salt", i)
			}
		}
		if n := len(storedSalts(t, st)); n != 1 {
			t.Errorf("%d salts for one day", n)
		}
	}
}
