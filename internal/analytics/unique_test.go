package analytics

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// syntheticVisitors returns n distinct (address, user agent) pairs: some share an address (a
// household behind one router), some a user agent (the same browser version), IPv4 and IPv6.
func syntheticVisitors(n int) [][2]string {
	out := make([][2]string, n)
	for i := range out {
		var address string
		if i%3 == 0 {
			address = fmt.Sprintf("2001:db8:%x::%x", i/7, i%7)
		} else {
			address = fmt.Sprintf("10.%d.%d.%d", i/65536, i/256%256, i%256/4)
		}
		out[i] = [2]string{address, browserUA(i % 97)}
	}
	return out
}

// views returns each visitor's hits, 1 to 3 per visitor on random pages, shuffled.
func views(visitors [][2]string, seed uint64) []Hit {
	r := rand.New(rand.NewPCG(seed, seed))
	routes := site.Default().Routes()
	var hits []Hit
	for _, v := range visitors {
		for range 1 + r.IntN(3) {
			rt := routes[r.IntN(len(routes))]
			h := browserHeader(v[1])
			hits = append(hits, Hit{Body: beacon(rt.Path, rt.Locale.Code), Header: h, Address: v[0]})
		}
	}
	r.Shuffle(len(hits), func(i, j int) { hits[i], hits[j] = hits[j], hits[i] })
	return hits
}

// TestUniqueVisitors counts 10,000 synthetic visitors, each seen one to three times in random
// order through the real writer: the day's unique count must be within 1 % (it is exact, but
// for a collision of 128-bit keys).
func TestUniqueVisitors(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		const n = 10_000
		visitors := syntheticVisitors(n)
		distinct := make(map[[2]string]bool)
		for _, v := range visitors {
			distinct[v] = true
		}
		if len(distinct) != n {
			t.Fatalf("%d distinct visitors made, want %d", len(distinct), n)
		}
		hits := views(visitors, 1)
		in := newIngester(t, st, WithFlush(50*time.Millisecond, DefaultFlushAt))
		var wg sync.WaitGroup
		for part := range 4 {
			wg.Go(func() {
				for i := part; i < len(hits); i += 4 {
					if err := in.Record(hits[i]); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := in.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		got := readCounts(t, st, dayOf(time.Now()))
		if got.views != int64(len(hits)) {
			t.Errorf("%d views written, want %d", got.views, len(hits))
		}
		if got.visitors < n*99/100 || got.visitors > n*101/100 {
			t.Errorf("%d unique visitors, want %d ± 1 %%", got.visitors, n)
		}
		t.Logf("%d views, %d unique visitors counted of %d", got.views, got.visitors, n)
	})
}

// TestTwoInstances runs two Ingesters, each on a Store of its own, on one PostgreSQL: every
// visitor seen by both on the same day counts once, however their flushes interleave, and
// "visitors in the last five minutes" counts across them.
func TestTwoInstances(t *testing.T) {
	t.Parallel()
	url := storetest.URL(t)
	ctx := context.Background()
	stores := make([]*store.Store, 2)
	for i := range stores {
		st, err := store.Open(ctx, url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		if _, err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		stores[i] = st
	}
	const n = 3000
	visitors := syntheticVisitors(n)
	var ins []*Ingester
	for _, st := range stores {
		// Small, frequent flushes: many transactions of the two instances overlap.
		ins = append(ins, newIngester(t, st, WithFlush(5*time.Millisecond, 50)))
	}
	var wg sync.WaitGroup
	for i, in := range ins {
		hits := views(visitors, uint64(i+1)) // each instance sees every visitor, in its own order
		wg.Go(func() {
			for _, h := range hits {
				if err := in.Record(h); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for _, in := range ins {
		if err := in.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got := readCounts(t, stores[0], dayOf(time.Now()))
	if got.visitors != n {
		t.Errorf("%d unique visitors, want %d: each counted once across the instances", got.visitors, n)
	}
	recent, err := ins[1].RecentVisitors(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if recent != n {
		t.Errorf("%d visitors in the last five minutes, want %d", recent, n)
	}
}
