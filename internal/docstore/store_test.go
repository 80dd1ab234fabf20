package docstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestMain stops the PostgreSQL cluster the tests may have started.
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// testClock is a settable clock for commit times.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testMaxWrites is the per-commit write limit the tests give the store: Firestore's, which
// the application uses too.
const testMaxWrites = 500

// testConfig is the application's configuration as the tests give it: the history collection
// capped at 10,000 entries.
func testConfig() Config {
	return Config{MaxWrites: testMaxWrites, Capped: []Capped{{Collection: "history", Max: 10000}}}
}

// openStore returns a Store over st with testConfig, closed when the test ends.
func openStore(tb testing.TB, st *store.Store, opts ...Option) *Store {
	tb.Helper()
	return openStoreConfig(tb, st, testConfig(), opts...)
}

// openStoreConfig returns a Store over st with cfg, closed when the test ends.
func openStoreConfig(tb testing.TB, st *store.Store, cfg Config, opts ...Option) *Store {
	tb.Helper()
	s := New(st, cfg, opts...)
	tb.Cleanup(func() { s.Close() })
	return s
}

func strV(s string) value.Value       { return value.Value{Kind: value.String, Str: s} }
func intV(i int64) value.Value        { return value.Value{Kind: value.Integer, Int: i} }
func mapV(f value.Fields) value.Value { return value.Value{Kind: value.Map, Map: f} }
func boolP(b bool) *bool              { return &b }
func put(path string, f value.Fields) Write {
	p, err := value.ParseDocumentPath(path)
	if err != nil {
		panic(err)
	}
	return Write{Path: p, Fields: f}
}

func del(path string) Write {
	w := put(path, nil)
	w.Fields, w.Delete = nil, true
	return w
}

func merge(path string, f value.Fields, mask ...string) Write {
	w := put(path, f)
	w.Merge = true
	for _, m := range mask {
		fp, err := value.ParseFieldPath(m)
		if err != nil {
			panic(err)
		}
		w.Mask = append(w.Mask, fp)
	}
	return w
}

func commit(t *testing.T, s *Store, caller string, writes ...Write) CommitResult {
	t.Helper()
	r, err := s.Commit(context.Background(), caller, CommitRequest{Writes: writes})
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	return r
}

func get(t *testing.T, s *Store, path string) (value.Doc, error) {
	t.Helper()
	return s.Get(context.Background(), "u1", valuetest.MustPath(t, path))
}

// wantCode checks that err is an *Error with code and a message containing part.
func wantCode(t *testing.T, err error, code error, part string) {
	t.Helper()
	var e *status.Error
	if !errors.As(err, &e) || !errors.Is(err, code) || !bytes.Contains([]byte(e.Message), []byte(part)) {
		t.Fatalf("error %v, want %v naming %q", err, code, part)
	}
}

func TestCommitAndGet(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		clock := newTestClock()
		s := openStore(t, st, WithClock(clock.Now))
		r1 := commit(t, s, "u1", put("users/u1/history/h1", value.Fields{"tool": strV("area"), "m": mapV(value.Fields{"a": intV(1), "b": intV(2)})}))
		d, err := get(t, s, "users/u1/history/h1")
		if err != nil {
			t.Fatal(err)
		}
		if !d.CreateTime.Equal(clock.Now()) || !d.UpdateTime.Equal(r1.CommitTime) || d.Version != r1.Version || r1.Version != 1 ||
			!r1.WriteResults[0].UpdateTime.Equal(r1.CommitTime) || !value.Equal(d.Fields["tool"], strV("area")) {
			t.Fatalf("after create: %+v, result %+v", d, r1)
		}
		checkIndex(t, st, d)

		// A merge sets and deletes only the masked paths; createTime stays.
		clock.Advance(time.Second)
		r2 := commit(t, s, "u1", merge("users/u1/history/h1", value.Fields{"m": mapV(value.Fields{"c": intV(3)}), "x": intV(9)}, "m.c", "m.a", "n"))
		d, err = get(t, s, "users/u1/history/h1")
		if err != nil {
			t.Fatal(err)
		}
		want := value.Fields{"tool": strV("area"), "m": mapV(value.Fields{"b": intV(2), "c": intV(3)})}
		if !value.Equal(mapV(d.Fields), mapV(want)) || !d.CreateTime.Equal(r1.CommitTime) || !d.UpdateTime.Equal(r2.CommitTime) || d.Version != 2 {
			t.Fatalf("after merge: %+v", d)
		}
		checkIndex(t, st, d)

		// A write that changes nothing keeps updateTime and version, as Firestore does.
		clock.Advance(time.Second)
		r3 := commit(t, s, "u1", put("users/u1/history/h1", want))
		if !r3.WriteResults[0].UpdateTime.Equal(r2.CommitTime) || r3.Version != 2 {
			t.Fatalf("a no-op write: %+v", r3)
		}

		// Several writes to one document in a batch apply in order; a delete answers {}.
		r4 := commit(t, s, "u1", put("users/u1/history/h2", value.Fields{"a": intV(1)}), merge("users/u1/history/h2", value.Fields{"b": intV(2)}, "b"),
			del("users/u1/history/h1"), del("users/u1/history/never"))
		if r4.Version != 3 || !r4.WriteResults[3].UpdateTime.IsZero() || !r4.WriteResults[2].UpdateTime.IsZero() {
			t.Fatalf("batch result %+v", r4)
		}
		if _, err := get(t, s, "users/u1/history/h1"); !errors.Is(err, status.ErrNotFound) {
			t.Fatalf("a deleted document: %v", err)
		}
		checkIndex(t, st, value.Doc{Path: valuetest.MustPath(t, "users/u1/history/h1")})
		d, err = get(t, s, "users/u1/history/h2")
		if err != nil || !value.Equal(mapV(d.Fields), mapV(value.Fields{"a": intV(1), "b": intV(2)})) || d.Version != 3 {
			t.Fatalf("h2 = %+v, %v", d, err)
		}
		// The deletion is a tombstone at the batch's version, for listeners.
		var version int64
		if err := st.QueryRow(context.Background(), "SELECT version FROM docs WHERE path = ? AND fields IS NULL", "users/u1/history/h1").Scan(&version); err != nil || version != 3 {
			t.Fatalf("tombstone version %d, %v", version, err)
		}
		// A document created again has a new createTime.
		clock.Advance(time.Second)
		r5 := commit(t, s, "u1", put("users/u1/history/h1", value.Fields{}))
		if d, err := get(t, s, "users/u1/history/h1"); err != nil || !d.CreateTime.Equal(r5.CommitTime) || len(d.Fields) != 0 {
			t.Fatalf("recreated: %+v, %v", d, err)
		}
		if _, err := get(t, s, "users/u1/history/nothing"); !errors.Is(err, status.ErrNotFound) {
			t.Fatalf("a missing document: %v", err)
		}
	})
}

// checkIndex compares d's index rows in the database with indexRows (none when d has no path's
// fields, i.e. it was deleted).
func checkIndex(t *testing.T, st *store.Store, d value.Doc) {
	t.Helper()
	var want []IndexRow
	if d.Fields != nil {
		want = indexRows(d.Path, d.Fields)
	}
	var got []IndexRow
	err := st.InTx(context.Background(), func(tx *store.Tx) error {
		rows, err := tx.Query(context.Background(), "SELECT parent, field, key, path FROM doc_index WHERE path = ?", d.Path.String())
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r IndexRow
			if err := rows.Scan(&r.Parent, &r.Field, &r.Key, &r.Path); err != nil {
				return err
			}
			got = append(got, r)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s has %d index rows, want %d", d.Path.String(), len(got), len(want))
	}
	byEntry := map[string]bool{}
	for _, r := range want {
		byEntry[r.Parent+"\x00"+r.Field+"\x00"+string(r.Key)] = true
	}
	for _, r := range got {
		if !byEntry[r.Parent+"\x00"+r.Field+"\x00"+string(r.Key)] {
			t.Errorf("unexpected index row %+v", r)
		}
	}
}

func TestAccessRules(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := openStore(t, st)
		ctx := context.Background()
		_, err := s.Get(ctx, "", valuetest.MustPath(t, "users/u1"))
		wantCode(t, err, status.ErrUnauthenticated, "sign in")
		_, err = s.Commit(ctx, "", CommitRequest{})
		wantCode(t, err, status.ErrUnauthenticated, "sign in")
		for _, path := range []string{"users/u2", "users/u2/history/h1", "other/u1", "users/u10/x/y"} {
			_, err := s.Get(ctx, "u1", valuetest.MustPath(t, path))
			wantCode(t, err, status.ErrPermissionDenied, path)
			_, err = s.Commit(ctx, "u1", CommitRequest{Writes: []Write{put("users/u1/ok/a", nil), put(path, nil)}})
			wantCode(t, err, status.ErrPermissionDenied, path)
		}
		if _, err := get(t, s, "users/u1/ok/a"); !errors.Is(err, status.ErrNotFound) {
			t.Fatalf("a refused batch wrote: %v", err)
		}
		commit(t, s, "u1", put("users/u1", value.Fields{"name": strV("me")}), put("users/u1/a/b/c/d", nil))
		if _, err := get(t, s, "users/u1"); err != nil {
			t.Fatal(err)
		}
		_, err = s.Get(ctx, "u1", valuetest.MustPath(t, "users/u1/history"))
		wantCode(t, err, status.ErrInvalidArgument, "collection")
	})
}

func TestExportAndDeleteOwner(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := openStore(t, st)
		commit(t, s, "u1", put("users/u1", value.Fields{"n": intV(1)}), put("users/u1/history/b", value.Fields{"s": strV("x")}),
			put("users/u1/history/a", value.Fields{}), put("users/u1/history/gone", value.Fields{}), put("users/u1/history-/a", nil))
		commit(t, s, "u1", del("users/u1/history/gone"))
		if _, err := s.Commit(ctx, "u1", CommitRequest{ClientID: "c", BatchID: 1}); err != nil {
			t.Fatal(err)
		}
		commit(t, s, "u2", put("users/u2", value.Fields{"n": intV(2)}))
		got, err := s.Export(ctx, "u1")
		if err != nil {
			t.Fatal(err)
		}
		// Path order, which puts users/u1/history before users/u1/history-.
		want := []string{"users/u1", "users/u1/history/a", "users/u1/history/b", "users/u1/history-/a"}
		if len(got) != len(want) {
			t.Fatalf("export %+v", got)
		}
		for i, d := range got {
			if d.Path != want[i] || d.CreateTime.IsZero() {
				t.Errorf("export[%d] = %+v, want %s", i, d, want[i])
			}
		}
		if f, ok := got[0].Fields.(map[string]any); !ok || f["n"] == nil {
			t.Errorf("export fields %#v, want plain JSON", got[0].Fields)
		}
		if err := st.InTx(ctx, func(tx *store.Tx) error { return DeleteOwner(ctx, tx, "u1") }); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"docs", "doc_batches", "doc_rate", "doc_counts"} {
			var n int
			if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM "+table+" WHERE owner = ?", "u1").Scan(&n); err != nil || n != 0 {
				t.Errorf("%s keeps %d rows of u1 (%v)", table, n, err)
			}
		}
		var n int
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM doc_index WHERE path <> ?", "users/u2").Scan(&n); err != nil || n != 0 {
			t.Errorf("doc_index keeps %d rows of u1 (%v)", n, err)
		}
		if got, err := s.Export(ctx, "u2"); err != nil || len(got) != 1 {
			t.Errorf("u2's export after u1's deletion: %v, %v", got, err)
		}
	})
}

func TestClosedStoreRefusesCommits(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := New(st, testConfig())
		commit(t, s, "u1", put("users/u1", nil))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		_, err := s.Commit(context.Background(), "u1", CommitRequest{Writes: []Write{put("users/u1", nil)}})
		wantCode(t, err, status.ErrUnavailable, "shutting down")
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
