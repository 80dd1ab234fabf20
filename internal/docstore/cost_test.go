package docstore

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// entriesDoc returns fields whose document has exactly n index entries (n > 200): __name__
// and n-1 distinct array elements (the array as a whole is too long to be indexed).
func entriesDoc(n int) value.Fields {
	arr := make([]value.Value, n-1)
	for i := range arr {
		arr[i] = valuetest.Int(int64(i))
	}
	return value.Fields{"a": {Kind: value.Array, Array: arr}}
}

// TestIndexEntryLimit: a document may have 40,000 index entries, not one more, whether a
// replace or a merge makes it; the refusal names the limit and the write. (The documents at
// the limit are prepared, not committed: 40,000 index rows take tens of seconds under the race
// detector on a busy machine.)
func TestIndexEntryLimit(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := openStore(t, st, WithWriteRate(0, 0))
		if n := len(indexRows(valuetest.MustPath(t, "users/u1/d/a"), entriesDoc(MaxIndexEntries))); n != MaxIndexEntries {
			t.Fatalf("entriesDoc has %d entries", n)
		}
		if _, err := s.prepare("u1", CommitRequest{Writes: []Write{put("users/u1/d/a", entriesDoc(MaxIndexEntries))}}); err != nil {
			t.Fatalf("a document at the limit: %v", err)
		}
		_, err := s.Commit(ctx, "u1", CommitRequest{Writes: []Write{put("users/u1/d/b", nil), put("users/u1/d/c", entriesDoc(MaxIndexEntries+1))}})
		wantCode(t, err, status.ErrInvalidArgument, "write 1: document \"users/u1/d/c\" would have 40001 index entries, more than 40000")
		// A merge into a small document that takes it past the limit: __name__, n, the array's
		// 39,999 elements and (too long) not the array itself: 40,001.
		commit(t, s, "u1", put("users/u1/d/m", value.Fields{"n": intV(1)}))
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: []Write{put("users/u1/d/x", nil), merge("users/u1/d/m", entriesDoc(MaxIndexEntries), "a")}})
		wantCode(t, err, status.ErrInvalidArgument, "write 1: document \"users/u1/d/m\" would have 40001 index entries")
		for _, path := range []string{"users/u1/d/b", "users/u1/d/x"} {
			if _, err := get(t, s, path); !errors.Is(err, status.ErrNotFound) {
				t.Errorf("%s of a refused batch was written: %v", path, err)
			}
		}
	})
}

// TestCommitCostLimit: a commit costs at most MaxCommitCost units, counted over the documents
// it leaves: two documents of 25,000 index entries are refused together, one passes; merges
// are counted by the documents they leave.
func TestCommitCostLimit(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := openStore(t, st, WithWriteRate(0, 0))
		a, b := put("users/u1/d/a", entriesDoc(25000)), put("users/u1/d/b", entriesDoc(25000))
		_, err := s.Commit(ctx, "u1", CommitRequest{Writes: []Write{a, b}})
		wantCode(t, err, status.ErrInvalidArgument, "more than 3000 (1 per write, 1 per 16 index entries and 1 per 4 KiB")
		if _, err := s.prepare("u1", CommitRequest{Writes: []Write{a}}); err != nil {
			t.Fatalf("one of them: %v", err)
		}
		commit(t, s, "u1", put("users/u1/d/a", nil), put("users/u1/d/b", nil))
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: []Write{merge("users/u1/d/a", entriesDoc(25000), "a"), merge("users/u1/d/b", entriesDoc(25000), "a")}})
		wantCode(t, err, status.ErrInvalidArgument, "split it")
	})
}

// TestCostRate: the write rate charges what a write costs. The browser's replay after a long
// offline period (four batches of 500 small writes) passes at once; five writes of nearly
// 1 MiB each (5 × 256 units) are then refused with the cost and a wait long enough to refill
// it, and pass after that wait.
func TestCostRate(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		clock := newTestClock()
		s := openStore(t, st, WithClock(clock.Now))
		entries := historyEntries(4 * testMaxWrites)
		for i := range 4 {
			var w []Write
			for _, d := range entries[i*testMaxWrites : (i+1)*testMaxWrites] {
				w = append(w, Write{Path: d.Path, Fields: d.Fields})
			}
			commit(t, s, "u1", w...)
		}
		var big CommitRequest
		for i := range 5 {
			big.Writes = append(big.Writes, put(fmt.Sprintf("users/u1/d/big%d", i), blob(MaxDocumentBytes-200)))
		}
		_, err := s.Commit(ctx, "u1", big)
		wantCode(t, err, status.ErrResourceExhausted, "too many writes: at most 10 cost units per second")
		wantCode(t, err, status.ErrResourceExhausted, "this commit costs 1280;")
		var e *status.Error
		if errors.As(err, &e); e.RetryAfter < 25*time.Second {
			t.Errorf("RetryAfter %v, want the time to refill about 280 units at 10 a second", e.RetryAfter)
		}
		// Another user's small commit passes: a bucket per user.
		commit(t, s, "u2", put("users/u2/d/a", nil))
		clock.Advance(e.RetryAfter)
		if _, err := s.Commit(ctx, "u1", big); err != nil {
			t.Fatalf("after RetryAfter: %v", err)
		}
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: []Write{put("users/u1/d/small", nil)}})
		wantCode(t, err, status.ErrResourceExhausted, "this commit costs 1;")
	})
}

// TestCostOfWrites pins the cost units: a small write 1, a large document what its entries
// and bytes add.
func TestCostOfWrites(t *testing.T) {
	for _, c := range []struct {
		bytes, entries, want int
	}{{0, 0, 1}, {4095, 15, 1}, {4096, 16, 3}, {1 << 20, 40000, 1 + 256 + 2500}} {
		if got := docCost(c.bytes, c.entries); got != c.want {
			t.Errorf("docCost(%d, %d) = %d, want %d", c.bytes, c.entries, got, c.want)
		}
	}
	// A history entry as the benchmarks write it costs 1.
	d := historyEntries(1)[0]
	raw, err := value.EncodeFields(d.Fields)
	if err != nil {
		t.Fatal(err)
	}
	if got := docCost(len(raw), len(indexRows(d.Path, d.Fields))); got != 1 {
		t.Errorf("a history entry costs %d units, want 1 (%d bytes)", got, len(raw))
	}
}
