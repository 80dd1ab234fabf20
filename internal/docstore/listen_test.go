package docstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// listenAsync starts a Listen and returns its answer's channel. The listen waits as long as
// a listen may (MaxListenTimeout), so that on a busy machine a slow wake-up still arrives as a
// wake-up: a listen that timed out answers no change at its own version, which the tests'
// checks of the changes and the version tell apart from an answer to the commit.
func listenAsync(s *Store, caller string, since int64) <-chan Changes {
	out := make(chan Changes, 1)
	go func() {
		ch, err := s.Listen(context.Background(), caller, since, MaxListenTimeout, nil)
		if err != nil {
			ch = Changes{Version: -1, Changes: []Change{{Doc: value.Doc{Fields: value.Fields{"error": strV(err.Error())}}}}}
		}
		out <- ch
	}()
	return out
}

// paths lists an answer's changes as "path" or "-path" for a deletion.
func paths(ch Changes) []string {
	var out []string
	for _, c := range ch.Changes {
		p := c.Path.String()
		if c.Deleted {
			p = "-" + p
		}
		out = append(out, p)
	}
	return out
}

// waitListening waits until n listens of owner are registered, so that a commit made next is
// one they must be woken by.
func waitListening(t testing.TB, s *Store, owner string, n int) {
	t.Helper()
	// The deadline only bounds a failure: registering takes microseconds when all is well.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.hub.mu.Lock()
		got := len(s.hub.waiting[owner])
		s.hub.mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatalf("%d listens of %s never registered", n, owner)
}

// TestListenResume: a listen is woken by a commit and answers its changes at its version;
// resuming from each answer's version sees every change once, deletions included, and another
// user's changes never. How soon it answers is BenchmarkListenWake's to measure (and
// scripts/benchlisten's, over HTTP with many listens), not this test's: on a machine busy with
// other work, any bound tight enough to mean something fails for no fault of the code.
func TestListenResume(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := openStore(t, st, WithWriteRate(0, 0))
		commit(t, s, "u1", put("users/u1/history/a", value.Fields{"n": intV(1)}), put("users/u1/history/b", value.Fields{"n": intV(2)}))
		commit(t, s, "u1", del("users/u1/history/b"))

		first, err := s.Listen(context.Background(), "u1", 0, MinListenTimeout, nil)
		if err != nil {
			t.Fatal(err)
		}
		// From 0: the live documents only.
		if got := paths(first); !slices.Equal(got, []string{"users/u1/history/a"}) || first.Reset {
			t.Fatalf("from 0: %v reset %v, want [users/u1/history/a]", got, first.Reset)
		}

		steps := []struct {
			writes []Write
			want   []string
		}{
			{[]Write{put("users/u1/history/c", value.Fields{"n": intV(3)})}, []string{"users/u1/history/c"}},
			{[]Write{del("users/u1/history/a"), put("users/u1", value.Fields{"x": intV(1)})}, []string{"-users/u1/history/a", "users/u1"}},
			{[]Write{put("users/u1/history/a", value.Fields{"n": intV(4)})}, []string{"users/u1/history/a"}},
		}
		since := first.Version
		for i, step := range steps {
			answer := listenAsync(s, "u1", since)
			waitListening(t, s, "u1", 1)
			commit(t, s, "u2", put("users/u2/d/x", value.Fields{"i": intV(int64(i))})) // never heard by u1
			r := commit(t, s, "u1", step.writes...)
			got := <-answer
			sorted := paths(got)
			slices.Sort(sorted)
			if !slices.Equal(sorted, step.want) || got.Version != r.Version || got.Reset {
				t.Fatalf("step %d: %v at %d reset %v, want %v at %d", i, paths(got), got.Version, got.Reset, step.want, r.Version)
			}
			since = got.Version
		}
		// Nothing new: the timeout answers no change at the same version.
		start := time.Now()
		idle, err := s.Listen(context.Background(), "u1", since, MinListenTimeout, nil)
		if err != nil || len(idle.Changes) != 0 || idle.Version != since {
			t.Fatalf("idle listen: %v %v, want no change at %d", paths(idle), err, since)
		}
		// A lower bound, which load cannot break: a timer never fires early.
		if took := time.Since(start); took < MinListenTimeout {
			t.Errorf("idle listen answered after %s, before its timeout", took)
		}

		// A restart (a new Store on the same database) resumes from the same version.
		s.Close()
		s2 := openStore(t, st, WithWriteRate(0, 0))
		answer := listenAsync(s2, "u1", since)
		waitListening(t, s2, "u1", 1)
		commit(t, s2, "u1", del("users/u1/history/c"))
		if got := paths(<-answer); !slices.Equal(got, []string{"-users/u1/history/c"}) {
			t.Fatalf("after a restart: %v, want the deletion of c", got)
		}
	})
}

// TestListenWholeVersions: an answer holds at most about 1,000 changes but never part of a
// version, and the next listen goes on where it stopped.
func TestListenWholeVersions(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := openStore(t, st, WithWriteRate(0, 0))
		var versions []int64
		for b := range 4 {
			var w []Write
			for i := range 400 {
				w = append(w, put(fmt.Sprintf("users/u1/d/%d-%03d", b, i), value.Fields{"i": intV(int64(i))}))
			}
			versions = append(versions, commit(t, s, "u1", w...).Version)
		}
		var since int64
		var sizes []int
		for range 3 {
			ch, err := s.Listen(context.Background(), "u1", since, MinListenTimeout, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range ch.Changes {
				if c.Version <= since || c.Version > ch.Version {
					t.Fatalf("change at %d outside (%d, %d]", c.Version, since, ch.Version)
				}
			}
			sizes = append(sizes, len(ch.Changes))
			since = ch.Version
			if since == versions[3] {
				break
			}
		}
		if !slices.Equal(sizes, []int{800, 800}) || since != versions[3] {
			t.Fatalf("answers of %v changes up to %d, want [800 800] up to %d", sizes, since, versions[3])
		}
	})
}

// TestListenReset: a listen from before a pruned deletion, or from a version the store never
// handed out, gets a reset with the live documents; from after it, the changes as usual.
func TestListenReset(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		clock := newTestClock()
		s := openStore(t, st, WithWriteRate(0, 0), WithClock(clock.Now))
		v1 := commit(t, s, "u1", put("users/u1/d/a", nil), put("users/u1/d/b", nil)).Version
		commit(t, s, "u2", put("users/u2/d/a", nil))
		commit(t, s, "u2", del("users/u2/d/a"))
		v2 := commit(t, s, "u1", del("users/u1/d/b")).Version
		clock.Advance(time.Hour)
		v3 := commit(t, s, "u1", del("users/u1/d/a"), put("users/u1/d/c", nil)).Version

		n, err := s.PruneTombstones(context.Background(), 30*time.Minute)
		if err != nil || n != 2 { // u1's b and u2's a; u1's a is too recent
			t.Fatalf("pruned %d, %v; want 2", n, err)
		}
		ch, err := s.Listen(context.Background(), "u1", v1, MinListenTimeout, nil)
		if err != nil || !ch.Reset || !slices.Equal(paths(ch), []string{"users/u1/d/c"}) || ch.Version != v3 {
			t.Fatalf("from before the pruned deletion: %v reset %v at %d (%v), want a reset to [users/u1/d/c] at %d", paths(ch), ch.Reset, ch.Version, err, v3)
		}
		ch, err = s.Listen(context.Background(), "u1", v2, MinListenTimeout, nil)
		if err != nil || ch.Reset || !slices.Equal(paths(ch), []string{"-users/u1/d/a", "users/u1/d/c"}) {
			t.Fatalf("from the pruned deletion's version: %v reset %v (%v), want the changes after it", paths(ch), ch.Reset, err)
		}
		ch, err = s.Listen(context.Background(), "u1", v3+1000, MinListenTimeout, nil)
		if err != nil || !ch.Reset || !slices.Equal(paths(ch), []string{"users/u1/d/c"}) {
			t.Fatalf("from a future version: %v reset %v (%v), want a reset", paths(ch), ch.Reset, err)
		}
	})
}

// TestListenRefusals: the arguments, the caller, the number of listens at once, and Close.
func TestListenRefusals(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := openStore(t, st)
		for _, c := range []struct {
			caller  string
			since   int64
			timeout time.Duration
			code    error
			message string
		}{
			{"", 0, MinListenTimeout, status.ErrUnauthenticated, "sign in"},
			{"u1", -1, MinListenTimeout, status.ErrInvalidArgument, "since -1"},
			{"u1", 0, MinListenTimeout - time.Millisecond, status.ErrInvalidArgument, "timeout 4.999s is outside 5s to 30s"},
			{"u1", 0, MaxListenTimeout + time.Millisecond, status.ErrInvalidArgument, "timeout 30.001s is outside 5s to 30s"},
		} {
			_, err := s.Listen(context.Background(), c.caller, c.since, c.timeout, nil)
			var e *status.Error
			if !errors.As(err, &e) || !errors.Is(err, c.code) || !strings.Contains(e.Message, c.message) {
				t.Errorf("Listen(%q, %d, %s) = %v, want %v naming %q", c.caller, c.since, c.timeout, err, c.code, c.message)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		errs := make(chan error, maxListeners)
		for range maxListeners {
			go func() {
				_, err := s.Listen(ctx, "u1", 0, MaxListenTimeout, nil)
				errs <- err
			}()
		}
		waitListening(t, s, "u1", maxListeners)
		if _, err := s.Listen(ctx, "u1", 0, MaxListenTimeout, nil); !errors.Is(err, status.ErrResourceExhausted) {
			t.Errorf("listen %d of one user: %v, want resource-exhausted", maxListeners+1, err)
		}
		if _, err := s.Listen(ctx, "u2", 0, MinListenTimeout, nil); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("another user's listen: %v", err)
		}
		s.Close()
		for range maxListeners {
			if err := <-errs; !errors.Is(err, status.ErrUnavailable) {
				t.Errorf("a listen when the store closed: %v, want unavailable", err)
			}
		}
	})
}

// TestListenTwoInstances: on one PostgreSQL, a commit through one Store wakes a listen on
// another (LISTEN/NOTIFY), and does so again after the listening connection was lost and came
// back. How soon (the goal: within a second, three after a lost connection, whose relay
// reconnects after a second) is BenchmarkListenOtherInstance's to measure.
func TestListenTwoInstances(t *testing.T) {
	t.Parallel()
	url := storetest.URL(t)
	a, b := openInstance(t, url), openInstance(t, url)
	var since int64
	for i := range 3 {
		answer := listenAsync(b, "u1", since)
		waitListening(t, b, "u1", 1)
		if i == 0 {
			time.Sleep(200 * time.Millisecond) // b's LISTEN connection comes up
		}
		if i == 2 {
			// Lose b's LISTEN connection: its relay reconnects and wakes every listen to read
			// again, so a commit in the gap is not missed.
			if _, err := a.st.Exec(context.Background(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"); err != nil {
				t.Fatal(err)
			}
		}
		r := commit(t, a, "u1", put(fmt.Sprintf("users/u1/d/%d", i), nil))
		select {
		case got := <-answer:
			// A listen that was never woken times out with no change at its own version.
			if got.Version < r.Version {
				t.Fatalf("round %d: woken at %d, before the commit's %d", i, got.Version, r.Version)
			}
			since = got.Version
		case <-time.After(MaxListenTimeout + 10*time.Second):
			// Only a failure bound: the listen itself answers by MaxListenTimeout.
			t.Fatalf("round %d: the other instance never answered", i)
		}
	}
}

// openInstance opens a Store on the PostgreSQL database at url, migrating it if need be: one
// instance among several on one database.
func openInstance(tb testing.TB, url string) *Store {
	tb.Helper()
	st, err := store.Open(context.Background(), url, "")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	if _, err := st.Migrate(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return openStore(tb, st)
}

// BenchmarkListenWake measures how soon a waiting listen answers a commit of its owner's on
// the same Store, from the call to Commit to the answer: the commit itself (a listen is woken
// once the commit is durable), the wake-up and the read of the changes. The goal is within
// 100 ms; TestListenResume checks that the answer comes and is right, not how soon.
func BenchmarkListenWake(b *testing.B) {
	for _, e := range storetest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			s := openStore(b, e.Open(b), WithWriteRate(0, 0))
			benchmarkWake(b, s, s)
		})
	}
}

// BenchmarkListenOtherInstance measures the same across two Stores on one PostgreSQL
// database, the wake-up going through pg_notify and the other Store's relay. The goal is
// within a second; TestListenTwoInstances checks that the answer comes.
func BenchmarkListenOtherInstance(b *testing.B) {
	url := storetest.URL(b)
	benchmarkWake(b, openInstance(b, url), openInstance(b, url))
}

// benchmarkWake times, b.N times, a commit through writer until a listen on listener that
// was waiting for it answers; ns/op is the mean, max-ms the slowest.
func benchmarkWake(b *testing.B, writer, listener *Store) {
	var since int64
	var slowest time.Duration
	b.ResetTimer() // opening the stores is not what is measured
	for i := range b.N + 1 {
		b.StopTimer()
		answer := listenAsync(listener, "u1", since)
		waitListening(b, listener, "u1", 1)
		start := time.Now()
		if i > 0 { // the first round is a warm-up: the other Store's LISTEN may not be up yet
			b.StartTimer()
		}
		r, err := writer.Commit(context.Background(), "u1", CommitRequest{Writes: []Write{put(fmt.Sprintf("users/u1/d/%d", i), nil)}})
		if err != nil {
			b.Fatal(err)
		}
		got := <-answer
		b.StopTimer()
		if got.Version < r.Version {
			b.Fatalf("round %d: answered at %d, before the commit's %d", i, got.Version, r.Version)
		}
		if i > 0 {
			slowest = max(slowest, time.Since(start))
		}
		since = got.Version
	}
	b.ReportMetric(float64(slowest)/float64(time.Millisecond), "max-ms")
}
