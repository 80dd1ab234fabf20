package docstore

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestListenContinuePastPrunedHorizon: a reset (or an answer from 0) too large for one answer
// is cut below the pruned tombstones' horizon. Listening again from its version would be
// another reset with the same first part, for ever; Continue brings the rest, and the answers
// together hold every live document once.
func TestListenContinuePastPrunedHorizon(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		clock := newTestClock()
		s := openStore(t, st, WithWriteRate(0, 0), WithClock(clock.Now))
		live := map[string]bool{}
		var first int64
		for b := range 3 {
			var w []Write
			for i := range 500 {
				p := fmt.Sprintf("users/u1/d/%d-%03d", b, i)
				w = append(w, put(p, value.Fields{"i": intV(int64(i))}))
				live[p] = true
			}
			v := commit(t, s, "u1", w...).Version
			if b == 0 {
				first = v
			}
		}
		commit(t, s, "u1", del("users/u1/d/0-000"))
		delete(live, "users/u1/d/0-000")
		clock.Advance(time.Hour)
		if n, err := s.PruneTombstones(context.Background(), 30*time.Minute); err != nil || n != 1 {
			t.Fatalf("pruned %d, %v; want 1", n, err)
		}

		for _, from := range []int64{first - 1, 0} { // a copy from before the deletion; none
			ch, err := s.Listen(context.Background(), "u1", from, MinListenTimeout, nil)
			if err != nil || ch.Reset != (from != 0) || !ch.More || len(ch.Changes) != 999 {
				t.Fatalf("from %d: %d changes, reset %v, more %v (%v); want 999 live ones of two versions, more", from, len(ch.Changes), ch.Reset, ch.More, err)
			}
			again, err := s.Listen(context.Background(), "u1", ch.Version, MinListenTimeout, nil)
			if err != nil || !again.Reset || len(again.Changes) != 999 || again.Version != ch.Version {
				t.Fatalf("Listen from the cut at %d: reset %v, %d changes up to %d (%v); want the same first part again", ch.Version, again.Reset, len(again.Changes), again.Version, err)
			}
			got := paths(ch)
			for ch.More {
				if ch, err = s.Continue(context.Background(), "u1", ch.Version, ch.Horizon, MinListenTimeout, nil); err != nil || ch.Reset {
					t.Fatalf("Continue: reset %v (%v)", ch.Reset, err)
				}
				got = append(got, paths(ch)...)
			}
			slices.Sort(got)
			want := make([]string, 0, len(live))
			for p := range live {
				want = append(want, p)
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("from %d: %d documents, want the %d live ones once each", from, len(got), len(want))
			}
		}
		// Continue from a version this store never handed out is still a reset.
		if ch, err := s.Continue(context.Background(), "u1", 1<<40, 0, MinListenTimeout, nil); err != nil || !ch.Reset {
			t.Fatalf("Continue from the future: reset %v (%v), want a reset", ch.Reset, err)
		}

		// A deletion pruned between two parts may be one the caller holds: the horizon moved,
		// and Continue is a reset.
		ch, err := s.Listen(context.Background(), "u1", 0, MinListenTimeout, nil)
		if err != nil || !ch.More {
			t.Fatalf("from 0: more %v (%v), want more", ch.More, err)
		}
		commit(t, s, "u1", del("users/u1/d/0-001"))
		clock.Advance(time.Hour)
		if n, err := s.PruneTombstones(context.Background(), 30*time.Minute); err != nil || n != 1 {
			t.Fatalf("pruned %d, %v; want 1", n, err)
		}
		if next, err := s.Continue(context.Background(), "u1", ch.Version, ch.Horizon, MinListenTimeout, nil); err != nil || !next.Reset {
			t.Fatalf("Continue after a pruning: reset %v (%v), want a reset", next.Reset, err)
		}
	})
}

// TestTombstoneRetentionOption: a Store told a short retention prunes on its own, as often as
// that retention, so that a listen from before a deletion soon gets a reset (what the
// end-to-end tests of a long offline period rely on, with -tombstone-retention).
func TestTombstoneRetentionOption(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		clock := newTestClock()
		s := openStore(t, st, WithWriteRate(0, 0), WithClock(clock.Now), WithTombstoneRetention(time.Second))
		v1 := commit(t, s, "u1", put("users/u1/d/a", nil), put("users/u1/d/b", nil)).Version
		commit(t, s, "u1", del("users/u1/d/b"))
		clock.Advance(time.Hour)
		deadline := time.Now().Add(20 * time.Second) // fails a hung test only
		for {
			ch, err := s.Listen(context.Background(), "u1", v1, MinListenTimeout, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Reset {
				if !slices.Equal(paths(ch), []string{"users/u1/d/a"}) {
					t.Fatalf("reset to %v, want [users/u1/d/a]", paths(ch))
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the deletion's tombstone was not pruned within 20 s")
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}
