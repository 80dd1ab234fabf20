package docstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestGroupCommit runs 64 concurrent committers: every batch is answered, the successful ones
// have gap-free versions in commit order, each batch is atomic, a failing batch fails alone,
// and the notify hook hears of every change, fewer times than there were commits.
func TestGroupCommit(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		const clients, rounds = 64, 6
		var mu sync.Mutex
		notified := map[string]int64{}
		calls := 0
		s := openStore(t, st, WithWriteRate(0, 0), WithNotify(func(owners map[string]int64) {
			mu.Lock()
			defer mu.Unlock()
			calls++
			for o, v := range owners {
				notified[o] = max(notified[o], v)
			}
		}))
		type acked struct {
			client, round int
			r             CommitResult
		}
		results := make(chan acked, clients*rounds)
		errs := make(chan error, clients*rounds)
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() {
				uid := fmt.Sprintf("u%d", c%16) // several clients per user
				for k := range rounds {
					w := []Write{
						put(fmt.Sprintf("users/%s/history/c%d-%d", uid, c, k), value.Fields{"c": intV(int64(c)), "k": intV(int64(k))}),
						merge("users/"+uid, value.Fields{fmt.Sprintf("c%d", c): intV(int64(k))}, fmt.Sprintf("c%d", c)),
					}
					fails := (c+k)%5 == 0
					if fails {
						missing := put(fmt.Sprintf("users/%s/none/x", uid), nil)
						missing.Precondition.Exists = boolP(true)
						w = append(w, missing)
					}
					r, err := s.Commit(context.Background(), uid, CommitRequest{Writes: w})
					switch {
					case fails && err == nil:
						errs <- fmt.Errorf("client %d round %d: a failing batch passed", c, k)
					case fails:
					case err != nil:
						errs <- fmt.Errorf("client %d round %d: %w", c, k, err)
					default:
						results <- acked{c, k, r}
					}
				}
			})
		}
		wg.Wait()
		close(results)
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		var all []acked
		for a := range results {
			all = append(all, a)
		}
		slices.SortFunc(all, func(a, b acked) int { return int(a.r.Version - b.r.Version) })
		for i, a := range all {
			if a.r.Version != int64(i+1) {
				t.Fatalf("versions %d, %d, … are not 1, 2, …: not gap-free", all[0].r.Version, all[1].r.Version)
			}
			if i > 0 && !a.r.CommitTime.After(all[i-1].r.CommitTime) {
				t.Fatalf("version %d committed at %v, not after version %d", a.r.Version, a.r.CommitTime, i)
			}
		}
		for _, a := range all {
			uid := fmt.Sprintf("u%d", a.client%16)
			d, err := get0(t, s, uid, fmt.Sprintf("users/%s/history/c%d-%d", uid, a.client, a.round))
			if err != nil || d.Version != a.r.Version {
				t.Fatalf("client %d round %d: %+v, %v; committed at version %d", a.client, a.round, d, err, a.r.Version)
			}
		}
		for c := range clients {
			uid := fmt.Sprintf("u%d", c%16)
			d, err := get0(t, s, uid, "users/"+uid)
			if err != nil {
				t.Fatal(err)
			}
			// The user document holds each client's last successful round: no write was lost.
			last := -1
			for _, a := range all {
				if a.client == c {
					last = max(last, a.round)
				}
			}
			if got := d.Fields[fmt.Sprintf("c%d", c)]; !value.Equal(got, intV(int64(last))) {
				t.Errorf("client %d: users/%s has %v, want round %d", c, uid, got, last)
			}
			if _, err := get0(t, s, uid, fmt.Sprintf("users/%s/none/x", uid)); err == nil {
				t.Errorf("a failing batch wrote users/%s/none/x", uid)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if len(notified) != 16 || notified["u0"] == 0 || calls >= len(all) {
			t.Errorf("notify heard %d owners in %d calls for %d commits", len(notified), calls, len(all))
		}
		t.Logf("%d commits in %d transactions", len(all), calls)
	})
}

func get0(t *testing.T, s *Store, uid, path string) (value.Doc, error) {
	t.Helper()
	return s.Get(context.Background(), uid, valuetest.MustPath(t, path))
}

// BenchmarkCommitParallel measures acknowledged single-write commits per second from 64
// concurrent clients, each its own user creating history entries with a clientId and batchId
// as the browser sends them; the write rate is checked and charged, with a limit too high to
// refuse anything.
func BenchmarkCommitParallel(b *testing.B) {
	for _, e := range storetest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			const clients = 64
			s := openStore(b, e.Open(b), WithWriteRate(1e9, testMaxWrites))
			var next sync.Mutex
			n := 0
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for c := range clients {
				wg.Go(func() {
					for k := 0; ; k++ {
						next.Lock()
						if n == b.N {
							next.Unlock()
							return
						}
						n++
						next.Unlock()
						w := put(fmt.Sprintf("users/u%d/history/h%d", c, k), value.Fields{"tool": strV("area"), "k": intV(int64(k))})
						if _, err := s.Commit(context.Background(), fmt.Sprintf("u%d", c), CommitRequest{Writes: []Write{w}, ClientID: "tab", BatchID: int64(k + 1)}); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "commits/s")
		})
	}
}

// TestDatabaseErrorFailsOneBatch makes the database refuse one document (a trigger): the
// group's transaction fails, each batch is tried again alone, and only that one fails.
func TestDatabaseErrorFailsOneBatch(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		trigger := []string{`CREATE TRIGGER refuse BEFORE INSERT ON docs FOR EACH ROW
			WHEN (NEW.path = 'users/u0/d/bad') BEGIN SELECT RAISE(ABORT, 'refused'); END`}
		if st.Engine() == store.Postgres {
			trigger = []string{`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS
				$$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
				`CREATE TRIGGER refuse BEFORE INSERT ON docs FOR EACH ROW
				WHEN (NEW.path = 'users/u0/d/bad') EXECUTE FUNCTION refuse()`}
		}
		for _, q := range trigger {
			if _, err := st.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		s := openStore(t, st, WithWriteRate(0, 0))
		const clients = 32
		errs := make([]error, clients)
		var wg sync.WaitGroup
		for c := range clients {
			wg.Go(func() {
				path := fmt.Sprintf("users/u%d/d/ok%d", c%4, c)
				if c == 0 {
					path = "users/u0/d/bad"
				}
				_, errs[c] = s.Commit(ctx, fmt.Sprintf("u%d", c%4), CommitRequest{Writes: []Write{put(path, nil)}})
			})
		}
		wg.Wait()
		if !errors.Is(errs[0], status.ErrUnavailable) {
			t.Errorf("the refused batch: %v, want unavailable", errs[0])
		}
		for c, err := range errs[1:] {
			if err != nil {
				t.Errorf("client %d: %v", c+1, err)
			}
		}
		var n, maxVersion int64
		if err := st.QueryRow(ctx, "SELECT COUNT(*), MAX(version) FROM docs").Scan(&n, &maxVersion); err != nil || n != clients-1 || maxVersion != clients-1 {
			t.Errorf("%d documents, last version %d (%v); want %d, gap-free", n, maxVersion, err, clients-1)
		}
	})
}

// TestConcurrentResends sends one batch 16 times at once, as a client retrying over several
// connections would: it is applied once and every send gets the same answer.
func TestConcurrentResends(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := openStore(t, st)
		const sends = 16
		results := make([]CommitResult, sends)
		errs := make([]error, sends)
		var wg sync.WaitGroup
		for i := range sends {
			wg.Go(func() {
				w := put(fmt.Sprintf("users/u1/history/h%d", i), value.Fields{"n": intV(int64(i))})
				results[i], errs[i] = s.Commit(context.Background(), "u1", CommitRequest{ClientID: "c", BatchID: 1, Writes: []Write{w}})
			})
		}
		wg.Wait()
		for i := range sends {
			if errs[i] != nil || results[i].Version != 1 || !results[i].CommitTime.Equal(results[0].CommitTime) {
				t.Fatalf("send %d: %+v, %v; send 0: %+v", i, results[i], errs[i], results[0])
			}
		}
		var n int
		if err := st.QueryRow(context.Background(), "SELECT COUNT(*) FROM docs").Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d documents (%v), want 1", n, err)
		}
	})
}

// TestOneGroup hands the committer one group directly, so that its batches certainly share a
// transaction: each sees the ones before, a refused one changes nothing, a document born and
// deleted within the group is never written, and a batch sent twice is applied once.
func TestOneGroup(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := openStore(t, st)
		exists := merge("users/u1/d/x", value.Fields{"m": intV(2)}, "m")
		exists.Precondition.Exists = boolP(true)
		stale := del("users/u1/d/x")
		stale.Precondition.UpdateTime = time.Unix(1, 0)
		reqs := []CommitRequest{
			{Writes: []Write{put("users/u1/d/x", value.Fields{"n": intV(1)})}},
			{Writes: []Write{exists}},
			{Writes: []Write{stale}},
			{Writes: []Write{put("users/u1/d/y", nil)}},
			{Writes: []Write{del("users/u1/d/y")}},
			{Writes: []Write{put("users/u1/d/z", nil)}, ClientID: "c", BatchID: 1},
			{Writes: []Write{put("users/u1/d/z", value.Fields{"again": intV(1)})}, ClientID: "c", BatchID: 1},
		}
		group := make([]*pending, len(reqs))
		for i, req := range reqs {
			writes, err := s.prepare("u1", req)
			if err != nil {
				t.Fatal(err)
			}
			group[i] = &pending{caller: "u1", req: req, writes: writes, answer: make(chan answer, 1)}
		}
		s.commitGroup(group)
		var got []int64
		for i, p := range group {
			a := <-p.answer
			if i == 2 {
				wantCode(t, a.err, status.ErrFailedPrecondition, "was last updated")
				continue
			}
			if a.err != nil {
				t.Fatalf("batch %d: %v", i, a.err)
			}
			got = append(got, a.result.Version)
		}
		if want := []int64{1, 2, 3, 4, 5, 5}; !slices.Equal(got, want) {
			t.Errorf("versions %v, want %v", got, want)
		}
		x, err := get(t, s, "users/u1/d/x")
		if err != nil || !value.Equal(mapV(x.Fields), mapV(value.Fields{"n": intV(1), "m": intV(2)})) || x.Version != 2 {
			t.Fatalf("x = %+v, %v", x, err)
		}
		checkIndex(t, st, x)
		var n int
		if err := st.QueryRow(context.Background(), "SELECT COUNT(*) FROM docs WHERE path = ?", "users/u1/d/y").Scan(&n); err != nil || n != 0 {
			t.Errorf("y, born and deleted in the group, has %d rows (%v)", n, err)
		}
		if z, err := get(t, s, "users/u1/d/z"); err != nil || len(z.Fields) != 0 {
			t.Errorf("z = %+v, %v; want the first send's empty document", z, err)
		}
	})
}
