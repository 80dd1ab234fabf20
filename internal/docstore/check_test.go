package docstore

import (
	"context"
	"errors"
	"testing"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestConfigCheck: Config.Check sees every document a commit would leave (a replace's fields, a
// merge's result, not its patch), never a delete, and one refusal fails the whole batch as
// invalid-argument naming the write, with nothing stored.
func TestConfigCheck(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		var seen []string
		cfg := testConfig()
		// The rule: a document's "n", when present, is at most 10 — whatever the write sent.
		cfg.Check = func(p value.Path, f value.Fields) error {
			seen = append(seen, p.String())
			if n, ok := f["n"]; ok && (n.Kind != value.Integer || n.Int > 10) {
				return errors.New(`field "n": must be an integer of at most 10`)
			}
			return nil
		}
		s := openStoreConfig(t, st, cfg)
		commit(t, s, "u1", put("users/u1/c/a", value.Fields{"n": intV(3), "m": intV(1)}), del("users/u1/c/gone"))
		if len(seen) != 1 || seen[0] != "users/u1/c/a" {
			t.Errorf("checked %v, want only the replace (not the delete)", seen)
		}

		// A merge whose patch has no "n" but whose result keeps the stored one passes; one
		// that sets n past the limit fails, as does a valid write beside it in the batch.
		commit(t, s, "u1", merge("users/u1/c/a", value.Fields{"m": intV(2)}, "m"))
		_, err := s.Commit(ctx, "u1", CommitRequest{Writes: []Write{
			put("users/u1/c/b", value.Fields{"n": intV(1)}),
			merge("users/u1/c/a", value.Fields{"n": intV(11)}, "n"),
		}})
		wantCode(t, err, status.ErrInvalidArgument, `write 1: field "n": must be an integer of at most 10`)
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: []Write{put("users/u1/c/b", value.Fields{"n": strV("x")})}})
		wantCode(t, err, status.ErrInvalidArgument, `write 0: field "n"`)
		if _, err := get(t, s, "users/u1/c/b"); !errors.Is(err, status.ErrNotFound) {
			t.Errorf("users/u1/c/b after refused batches: %v, want not-found", err)
		}
		d, err := get(t, s, "users/u1/c/a")
		if err != nil || d.Fields["n"].Int != 3 || d.Fields["m"].Int != 2 {
			t.Errorf("users/u1/c/a = %v, %v; want n 3, m 2", d.Fields, err)
		}

		// The check sees the merged document: a stored value the rule refuses fails a merge
		// that does not touch it, as the next write to a document must pass.
		cfg.Check = nil
		loose := openStoreConfig(t, st, cfg)
		commit(t, loose, "u1", put("users/u1/c/old", value.Fields{"n": intV(99)}))
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: []Write{merge("users/u1/c/old", value.Fields{"m": intV(1)}, "m")}})
		wantCode(t, err, status.ErrInvalidArgument, `write 0: field "n"`)
	})
}
