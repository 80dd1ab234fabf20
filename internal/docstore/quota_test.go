package docstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// migrationUsage recomputes every document's size and every owner's usage with migration
// 0008's own statements (its UPDATE and INSERT), as it does for the data stored before it.
func migrationUsage(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	raw, err := os.ReadFile(fmt.Sprintf("../store/migrations/0008_doc_usage.%s.sql", st.Engine()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Exec(ctx, "UPDATE docs SET size = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Exec(ctx, "DELETE FROM doc_usage"); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range strings.Split(string(raw), ";") {
		var code []string
		for _, line := range strings.Split(stmt, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "--") {
				code = append(code, line)
			}
		}
		if c := strings.TrimSpace(strings.Join(code, "\n")); strings.HasPrefix(c, "UPDATE") || strings.HasPrefix(c, "INSERT") {
			if _, err := st.Exec(ctx, c); err != nil {
				t.Fatalf("%s: %v", c, err)
			}
		}
	}
}

// checkUsage checks that the usage the commits kept for each owner is what migration 0008
// computes from the stored documents and index rows, and returns the first owner's.
func checkUsage(t *testing.T, st *store.Store, s *Store, owners ...string) int64 {
	t.Helper()
	ctx := context.Background()
	kept := map[string]int64{}
	for _, o := range owners {
		u, err := s.Usage(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		kept[o] = u.Used
	}
	migrationUsage(t, st)
	for _, o := range owners {
		u, err := s.Usage(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if u.Used != kept[o] {
			t.Errorf("%s: commits kept %d bytes used, the migration computes %d", o, kept[o], u.Used)
		}
	}
	return kept[owners[0]]
}

func blob(n int) value.Fields { return value.Fields{"s": strV(strings.Repeat("x", n))} }

// TestStorageQuota: each owner's stored bytes are kept by every commit as the migration
// computes them; a commit that would take an owner past the quota is refused with
// resource-exhausted naming it, and deletions, capped pruning and the account's deletion give
// the space back.
func TestStorageQuota(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		cfg := testConfig()
		cfg.Capped = []Capped{{Collection: "history", Max: 2}}
		s := openStoreConfig(t, st, cfg, WithWriteRate(0, 0), WithStorageQuota(30_000))
		commit(t, s, "u1", put("users/u1/d/a", blob(8000)), put("users/u1/d/b", value.Fields{"n": intV(1), "m": mapV(value.Fields{"x": strV("y")})}))
		commit(t, s, "u1", put("users/u1/d/c", blob(8000)))
		used := checkUsage(t, st, s, "u1")
		if used < 16_000 || used > 17_000 {
			t.Fatalf("%d bytes used, want a little over 16,000", used)
		}
		_, err := s.Commit(ctx, "u1", CommitRequest{Writes: []Write{put("users/u1/d/d", blob(16000))}})
		wantCode(t, err, status.ErrResourceExhausted, "storage quota exceeded: your documents take 16.")
		wantCode(t, err, status.ErrResourceExhausted, "of 30.0 kB")
		if _, err := get(t, s, "users/u1/d/d"); !errors.Is(err, status.ErrNotFound) {
			t.Errorf("a refused document was written: %v", err)
		}
		// Another owner has a quota of their own.
		commit(t, s, "u2", put("users/u2/d/a", blob(16000)))
		// A deletion gives the space back: the refused commit passes with it.
		commit(t, s, "u1", del("users/u1/d/a"), put("users/u1/d/d", blob(16000)))
		// Merges change the usage by what they change.
		commit(t, s, "u1", merge("users/u1/d/b", value.Fields{"t": strV("more")}, "t"))
		checkUsage(t, st, s, "u1", "u2")
		// A commit that frees space passes even above the quota.
		s2 := openStoreConfig(t, st, cfg, WithWriteRate(0, 0), WithStorageQuota(1000))
		commit(t, s2, "u1", del("users/u1/d/c"))
		// Capped pruning gives the pruned entries' space back.
		for i := range 4 {
			commit(t, s, "u1", put(fmt.Sprintf("users/u1/history/h%d", i), blob(2000)))
		}
		before := checkUsage(t, st, s, "u1", "u2")
		commit(t, s, "u1", put("users/u1/history/h4", blob(2000)))
		if after := checkUsage(t, st, s, "u1", "u2"); after >= before+1000 {
			t.Errorf("%d bytes used after pruning, %d before an entry of 2,000 bytes that pruned one", after, before)
		}
		// The account's deletion takes the usage with it.
		if err := st.InTx(ctx, func(tx *store.Tx) error { return DeleteOwner(ctx, tx, "u1") }); err != nil {
			t.Fatal(err)
		}
		if u, err := s.Usage(ctx, "u1"); err != nil || u.Used != 0 || u.Quota != 30_000 {
			t.Errorf("after the account's deletion: %+v, %v", u, err)
		}
	})
}
