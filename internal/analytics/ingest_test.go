package analytics

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestRecord sends page views of every kind through Record, one after the other, and checks
// what each adds to the day's rollups.
func TestRecord(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		clock := newFakeClock(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
		in := newIngester(t, st, WithClock(clock.now))
		today := dayOf(clock.now())
		chrome, firefox := browserAgents[0], browserAgents[2]
		with := func(h Hit, key, value string) Hit {
			h.Header = h.Header.Clone()
			if value == "" {
				h.Header.Del(key)
			} else {
				h.Header.Set(key, value)
			}
			return h
		}
		tests := []struct {
			name string
			hit  Hit
			bad  string // the field of the BeaconError expected
			add  counts
		}{
			{name: "a visitor's first view", hit: visit("203.0.113.7", chrome), add: counts{views: 1, visitors: 1}},
			{name: "the same visitor again", hit: visit("203.0.113.7", chrome), add: counts{views: 1}},
			{name: "the same visitor on another page", hit: Hit{Body: beacon("/de/faq", "de"), Header: browserHeader(chrome), Address: "203.0.113.7"},
				add: counts{views: 1}},
			{name: "another browser at the same address", hit: visit("203.0.113.7", firefox), add: counts{views: 1, visitors: 1}},
			{name: "the same browser at another address", hit: visit("2001:db8::7", chrome), add: counts{views: 1, visitors: 1}},
			{name: "Googlebot", hit: visit("66.249.66.1", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"), add: counts{bots: 1}},
			{name: "curl", hit: visit("198.51.100.1", "curl/8.5.0"), add: counts{bots: 1}},
			{name: "HeadlessChrome", hit: visit("198.51.100.2", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36"), add: counts{bots: 1}},
			{name: "no user agent", hit: with(visit("198.51.100.3", chrome), "User-Agent", ""), add: counts{bots: 1}},
			{name: "no Accept-Language", hit: with(visit("198.51.100.4", chrome), "Accept-Language", ""), add: counts{bots: 1}},
			{name: "a prefetch", hit: with(visit("198.51.100.5", chrome), "Sec-Purpose", "prefetch"), add: counts{bots: 1}},
			{name: "Global Privacy Control", hit: with(visit("198.51.100.6", chrome), "Sec-GPC", "1")},
			{name: "Global Privacy Control from a bot", hit: with(visit("198.51.100.7", "curl/8.5.0"), "Sec-GPC", "1")},
			{name: "an unknown path", hit: Hit{Body: beacon("/nope", "en"), Header: browserHeader(chrome), Address: "198.51.100.8"}, bad: "p"},
			{name: "a bot's bad body", hit: Hit{Body: []byte(`{"p":"/"}`), Header: browserHeader("curl/8.5.0")}, bad: "l"},
			{name: "not JSON", hit: Hit{Body: []byte("hello"), Header: browserHeader(chrome)}, bad: "-"},
		}
		before := readCounts(t, st, today)
		for _, tt := range tests {
			err := in.Record(tt.hit)
			var be *BeaconError
			switch {
			case tt.bad == "" && err != nil:
				t.Errorf("%s: Record = %v", tt.name, err)
			case tt.bad != "" && !errors.As(err, &be):
				t.Errorf("%s: Record = %v, want a BeaconError", tt.name, err)
			case tt.bad != "" && be.Field != strings.TrimPrefix(tt.bad, "-"):
				t.Errorf("%s: the error names %q, want %q", tt.name, be.Field, tt.bad)
			}
			flush(t, in)
			after := readCounts(t, st, today)
			got := counts{after.views - before.views, after.visitors - before.visitors, after.bots - before.bots}
			if got != tt.add {
				t.Errorf("%s: added %+v, want %+v", tt.name, got, tt.add)
			}
			before = after
		}
		// What the views were counted as.
		var lang, ref, screen string
		var views int64
		if err := st.QueryRow(context.Background(), "SELECT lang, referrer, screen, views FROM analytics_views WHERE day = ? AND page = ? AND locale = ?",
			today.String(), "faq", "de").Scan(&lang, &ref, &screen, &views); err != nil {
			t.Fatal(err)
		}
		if lang != "en-US" || ref != "" || screen != "desktop" || views != 1 {
			t.Errorf("the German FAQ's row: %s %q %s %d", lang, ref, screen, views)
		}
	})
}

// Past its capacity the buffer refuses views (ErrBusy) instead of growing, and refusing
// loses nothing already taken.
func TestBufferFull(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	in := newIngester(t, st, WithBuffer(3))
	for i := range 3 {
		record(t, in, visit(fmt.Sprintf("192.0.2.%d", i), browserAgents[0]))
	}
	if err := in.Record(visit("192.0.2.9", browserAgents[0])); !errors.Is(err, ErrBusy) {
		t.Fatalf("the fourth view: %v, want ErrBusy", err)
	}
	// Bots are counted apart from the buffer.
	record(t, in, visit("192.0.2.10", "curl/8.5.0"))
	if n := in.buf.takeRefused(); n != 1 {
		t.Errorf("refused %d, want 1", n)
	}
	flush(t, in)
	record(t, in, visit("192.0.2.11", browserAgents[0]))
	if err := in.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := readCounts(t, st, dayOf(time.Now())); got != (counts{views: 4, visitors: 4, bots: 1}) {
		t.Errorf("counts %+v", got)
	}
	if err := in.Record(visit("192.0.2.12", browserAgents[0])); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v, want ErrClosed", err)
	}
}

// A flush that fails (here its last statement) writes nothing, keeps its views and bots, and
// the next one writes each exactly once.
func TestFailedFlushIsRetried(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		ctx := context.Background()
		in := newIngester(t, st)
		for i := range 50 {
			record(t, in, visit(fmt.Sprintf("192.0.2.%d", i%20), browserAgents[0]))
		}
		record(t, in, visit("192.0.2.200", "curl/8.5.0"))
		if _, err := st.Exec(ctx, "ALTER TABLE analytics_recent RENAME TO analytics_recent_away"); err != nil {
			t.Fatal(err)
		}
		var w writerState
		if _, err := in.flushOnce(&w); err == nil {
			t.Fatal("the flush succeeded without analytics_recent")
		}
		if n := in.buf.pending(); n != 50 {
			t.Errorf("%d views kept, want 50", n)
		}
		today := dayOf(time.Now())
		if got := readCounts(t, st, today); got != (counts{}) {
			t.Errorf("a failed flush wrote %+v", got)
		}
		record(t, in, visit("192.0.2.100", browserAgents[0]))
		if _, err := st.Exec(ctx, "ALTER TABLE analytics_recent_away RENAME TO analytics_recent"); err != nil {
			t.Fatal(err)
		}
		flush(t, in)
		if got := readCounts(t, st, today); got != (counts{views: 51, visitors: 21, bots: 1}) {
			t.Errorf("after the retry: %+v, want 51 views, 21 visitors, 1 bot", got)
		}
	})
}

// Every view Record accepted, from many goroutines while the writer runs, is in the database
// once Close returns.
func TestCloseWritesEverything(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		in := newIngester(t, st, WithFlush(20*time.Millisecond, 100))
		const writers, each = 8, 500
		var wg sync.WaitGroup
		for w := range writers {
			wg.Go(func() {
				for i := range each {
					if err := in.Record(visit(fmt.Sprintf("10.%d.%d.%d", w, i/250, i%250), browserAgents[0])); err != nil {
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
		if got := readCounts(t, st, dayOf(time.Now())); got.views != writers*each || got.visitors != writers*each {
			t.Errorf("after Close: %+v, want %d views and visitors", got, writers*each)
		}
	})
}

// When the database does not take the views before Close's deadline, Close gives up and says
// how many were lost.
func TestCloseGivesUp(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	in := newIngester(t, st)
	for i := range 10 {
		record(t, in, visit(fmt.Sprintf("192.0.2.%d", i), browserAgents[0]))
	}
	if _, err := st.Exec(context.Background(), "ALTER TABLE analytics_views RENAME TO analytics_views_away"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	closed := make(chan error, 1)
	go func() { closed <- in.Close(ctx) }()
	select {
	case err := <-closed:
		if err == nil || !strings.Contains(err.Error(), "10 page views") || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Close = %v, want 10 page views lost", err)
		}
	case <-time.After(30 * time.Second): // a failure bound only: Close must give up, not hang
		t.Fatal("Close did not return 30 s after its deadline")
	}
}
