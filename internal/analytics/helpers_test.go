package analytics

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// fakeClock is a clock the test sets; safe for the Ingester's goroutines.
type fakeClock struct{ unixNano atomic.Int64 }

func newFakeClock(t time.Time) *fakeClock {
	c := &fakeClock{}
	c.set(t)
	return c
}

func (c *fakeClock) now() time.Time  { return time.Unix(0, c.unixNano.Load()).UTC() }
func (c *fakeClock) set(t time.Time) { c.unixNano.Store(t.UnixNano()) }

// testOrigin is the public URL the test Ingesters serve.
const testOrigin = "https://handy.example"

// newIngester returns an Ingester over st that writes only when the test flushes (or at Close),
// closed when the test ends.
func newIngester(t *testing.T, st *store.Store, opts ...Option) *Ingester {
	t.Helper()
	base := []Option{WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))), WithFlush(time.Hour, 1<<30)}
	in, err := New(context.Background(), st, site.Default(), testOrigin, append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(context.Background()) })
	return in
}

// flush writes what waits, as the writer would.
func flush(t *testing.T, in *Ingester) {
	t.Helper()
	var w writerState
	for {
		empty, err := in.flushOnce(&w)
		if err != nil {
			t.Fatal(err)
		}
		if empty {
			return
		}
	}
}

// beacon is a valid body for path p in locale l.
func beacon(p, l string) []byte {
	return fmt.Appendf(nil, `{"p":%q,"l":%q,"bl":"en-US","r":"","s":"desktop"}`, p, l)
}

// visit is a browser's page view of the English home page from address with user agent ua.
func visit(address, ua string) Hit {
	return Hit{Body: beacon("/", "en"), Header: browserHeader(ua), Address: address}
}

// browserUA is a browser's user agent made distinct by n.
func browserUA(n int) string {
	return fmt.Sprintf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.0.0 Safari/537.36", 100+n)
}

func record(t *testing.T, in *Ingester, h Hit) {
	t.Helper()
	if err := in.Record(h); err != nil {
		t.Fatalf("Record: %v", err)
	}
}

// counts is what the rollups hold.
type counts struct {
	views, visitors, bots int64
}

func readCounts(t *testing.T, st *store.Store, d day) counts {
	t.Helper()
	var c counts
	ctx := context.Background()
	if err := st.QueryRow(ctx, "SELECT COALESCE(SUM(views), 0) FROM analytics_views WHERE day = ?", d.String()).Scan(&c.views); err != nil {
		t.Fatal(err)
	}
	if err := st.QueryRow(ctx, "SELECT COALESCE(SUM(visitors), 0), COALESCE(SUM(bots), 0) FROM analytics_days WHERE day = ?", d.String()).
		Scan(&c.visitors, &c.bots); err != nil {
		t.Fatal(err)
	}
	return c
}

func countRows(t *testing.T, st *store.Store, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := st.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
