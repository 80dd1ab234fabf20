package docstore

import (
	"context"
	"slices"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestMarkRestored: a browser that heard versions the old server handed out after the copy
// gets a reset once the copy is marked restored: the restored documents, each newer than
// anything it heard, none of the lost ones; the versions handed out afterwards are new to it,
// and listening on from the reset is no reset again. A user without documents is reset too
// (their lost documents go), and a browser new to the restored store is not.
func TestMarkRestored(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := openStore(t, st, WithWriteRate(0, 0))
		for _, u := range []string{"u1", "u3"} {
			if _, err := st.Exec(ctx, "INSERT INTO users (id, email, password_hash, created_at, last_sign_in_at) VALUES (?, ?, 'h', 1, 1)", u, u+"@example.com"); err != nil {
				t.Fatal(err)
			}
		}
		commit(t, s, "u1", put("users/u1/d/a", nil), put("users/u1/d/b", nil))
		commit(t, s, "u1", del("users/u1/d/b"))
		backup := commit(t, s, "u2", put("users/u2/d/x", nil)).Version
		// The old server went on past the copy: its browsers heard versions up to heard,
		// documents the copy does not have (users/u1/d/lost, users/u3/d/lost) among them.
		heard := backup + 10

		next := markRestored(t, st)
		if next != backup+RestoreJump {
			t.Fatalf("MarkRestored continues from %d, want %d", next, backup+RestoreJump)
		}
		ch, err := s.Listen(ctx, "u1", heard, MinListenTimeout, nil)
		if err != nil || !ch.Reset || !slices.Equal(paths(ch), []string{"users/u1/d/a"}) || ch.Version != next {
			t.Fatalf("u1 from %d: %v reset %v at %d (%v); want a reset to [users/u1/d/a] at %d", heard, paths(ch), ch.Reset, ch.Version, err, next)
		}
		if v := ch.Changes[0].Version; v <= heard {
			t.Errorf("users/u1/d/a comes back at version %d, not after the %d heard: a browser would keep its own", v, heard)
		}
		if ch, err := s.Listen(ctx, "u3", heard, MinListenTimeout, nil); err != nil || !ch.Reset || len(ch.Changes) != 0 || ch.Version != next {
			t.Fatalf("u3 from %d: %v reset %v at %d (%v); want a reset to nothing at %d", heard, paths(ch), ch.Reset, ch.Version, err, next)
		}
		if r := commit(t, s, "u1", put("users/u1/d/c", nil)); r.Version != next+1 {
			t.Errorf("the first commit after the restore has version %d, want %d", r.Version, next+1)
		}
		if ch, err := s.Listen(ctx, "u1", ch.Version, MinListenTimeout, nil); err != nil || ch.Reset || !slices.Equal(paths(ch), []string{"users/u1/d/c"}) {
			t.Fatalf("u1 from the reset's version: %v reset %v (%v); want [users/u1/d/c], no reset", paths(ch), ch.Reset, err)
		}
		fresh, err := s.Listen(ctx, "u2", 0, MinListenTimeout, nil)
		if err != nil || fresh.Reset || !slices.Equal(paths(fresh), []string{"users/u2/d/x"}) || fresh.Version != next {
			t.Fatalf("u2 from 0: %v reset %v at %d (%v); want [users/u2/d/x] at %d", paths(fresh), fresh.Reset, fresh.Version, err, next)
		}
		commit(t, s, "u2", put("users/u2/d/y", nil))
		if ch, err := s.Listen(ctx, "u2", fresh.Version, MinListenTimeout, nil); err != nil || ch.Reset || !slices.Equal(paths(ch), []string{"users/u2/d/y"}) {
			t.Fatalf("u2 from its first answer: %v reset %v (%v); want [users/u2/d/y], no reset", paths(ch), ch.Reset, err)
		}
		// Run twice (an operator unsure whether they did): it jumps again, and resets again.
		if again := markRestored(t, st); again != next+2+RestoreJump {
			t.Errorf("MarkRestored again continues from %d, want %d", again, next+2+RestoreJump)
		}
		if ch, err := s.Listen(ctx, "u2", fresh.Version, MinListenTimeout, nil); err != nil || !ch.Reset {
			t.Errorf("u2 after the second mark: reset %v (%v), want a reset", ch.Reset, err)
		}
	})
}

// TestListenResetUpToHorizon: when the owner's newest change is a pruned deletion, a reset
// answers up to the horizon, so that listening on from it is no reset again.
func TestListenResetUpToHorizon(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		clock := newTestClock()
		s := openStore(t, st, WithWriteRate(0, 0), WithClock(clock.Now))
		v1 := commit(t, s, "u1", put("users/u1/d/a", nil), put("users/u1/d/b", nil)).Version
		v2 := commit(t, s, "u1", del("users/u1/d/b")).Version
		clock.Advance(time.Hour)
		if n, err := s.PruneTombstones(context.Background(), 30*time.Minute); err != nil || n != 1 {
			t.Fatalf("pruned %d, %v; want 1", n, err)
		}
		for _, since := range []int64{v1, 0} {
			ch, err := s.Listen(context.Background(), "u1", since, MinListenTimeout, nil)
			if err != nil || ch.Reset != (since != 0) || !slices.Equal(paths(ch), []string{"users/u1/d/a"}) || ch.Version != v2 {
				t.Fatalf("from %d: %v reset %v at %d (%v); want [users/u1/d/a] at the horizon %d", since, paths(ch), ch.Reset, ch.Version, err, v2)
			}
		}
		commit(t, s, "u1", put("users/u1/d/c", nil))
		if ch, err := s.Listen(context.Background(), "u1", v2, MinListenTimeout, nil); err != nil || ch.Reset || !slices.Equal(paths(ch), []string{"users/u1/d/c"}) {
			t.Fatalf("from the horizon: %v reset %v (%v); want [users/u1/d/c], no reset", paths(ch), ch.Reset, err)
		}
	})
}

func markRestored(t *testing.T, st *store.Store) int64 {
	t.Helper()
	var next int64
	err := st.InTx(context.Background(), func(tx *store.Tx) (err error) {
		next, err = MarkRestored(context.Background(), tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return next
}
