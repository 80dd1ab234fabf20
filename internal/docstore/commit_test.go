package docstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestPreconditions(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		clock := newTestClock()
		s := openStore(t, st, WithClock(clock.Now))
		ctx := context.Background()
		created := commit(t, s, "u1", put("users/u1/d/a", value.Fields{"v": intV(1)})).CommitTime
		with := func(w Write, pre Precondition) Write { w.Precondition = pre; return w }
		for _, tt := range []struct {
			name string
			w    Write
			part string // "" when it passes
		}{
			{"exists on a missing document", with(put("users/u1/d/b", nil), Precondition{Exists: boolP(true)}), `"users/u1/d/b" does not exist`},
			{"not exists on a document", with(put("users/u1/d/a", nil), Precondition{Exists: boolP(false)}), `"users/u1/d/a" already exists`},
			{"an old updateTime", with(put("users/u1/d/a", nil), Precondition{UpdateTime: created.Add(-time.Microsecond)}), `"users/u1/d/a" was last updated`},
			{"updateTime on a missing document", with(del("users/u1/d/b"), Precondition{UpdateTime: created}), `"users/u1/d/b" does not exist`},
			{"exists", with(merge("users/u1/d/a", value.Fields{"w": intV(2)}, "w"), Precondition{Exists: boolP(true)}), ""},
			{"not exists", with(put("users/u1/d/c", nil), Precondition{Exists: boolP(false)}), ""},
		} {
			// Each refused write comes after one that would pass: the batch is refused whole.
			clock.Advance(time.Second)
			_, err := s.Commit(ctx, "u1", CommitRequest{Writes: []Write{put("users/u1/d/other", value.Fields{"n": strV(tt.name)}), tt.w}})
			if tt.part == "" {
				if err != nil {
					t.Errorf("%s: %v", tt.name, err)
				}
				continue
			}
			wantCode(t, err, status.ErrFailedPrecondition, tt.part)
			if d, err := get(t, s, "users/u1/d/other"); err == nil && value.Equal(d.Fields["n"], strV(tt.name)) {
				t.Errorf("%s: the batch's other write was applied", tt.name)
			}
		}
		// The updateTime the last write answered is the one a precondition names.
		d, err := get(t, s, "users/u1/d/a")
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
		commit(t, s, "u1", with(put("users/u1/d/a", value.Fields{"v": intV(3)}), Precondition{UpdateTime: d.UpdateTime}))
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: []Write{with(put("users/u1/d/a", nil), Precondition{UpdateTime: d.UpdateTime})}})
		wantCode(t, err, status.ErrFailedPrecondition, "was last updated")
	})
}

func TestCommitValidation(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := openStore(t, st, WithWriteRate(0, 0))
		ctx := context.Background()
		big := strings.Repeat("x", MaxDocumentBytes)
		deep := intV(1)
		for range value.MaxDepth {
			deep = mapV(value.Fields{"a": deep})
		}
		tooMany := make([]Write, testMaxWrites+1)
		for i := range tooMany {
			tooMany[i] = put(fmt.Sprintf("users/u1/d/%d", i), nil)
		}
		withMask := put("users/u1/d/a", nil)
		withMask.Mask = []value.FieldPath{{"a"}}
		badMask := merge("users/u1/d/a", nil)
		badMask.Mask = []value.FieldPath{{"a", "__x__"}}
		deleteWithFields := del("users/u1/d/a")
		deleteWithFields.Fields = value.Fields{"a": intV(1)}
		bothPre := put("users/u1/d/a", nil)
		bothPre.Precondition = Precondition{Exists: boolP(true), UpdateTime: time.Now()}
		for _, tt := range []struct {
			name string
			req  CommitRequest
			part string
		}{
			{"501 writes", CommitRequest{Writes: tooMany}, "501 writes"},
			{"1 MiB", CommitRequest{Writes: []Write{put("users/u1/d/a", value.Fields{"s": strV(big)})}}, "write 0: document \"users/u1/d/a\" would be"},
			{"21 levels", CommitRequest{Writes: []Write{put("users/u1/d/a", value.Fields{"d": deep})}}, "levels"},
			{"a bad field name", CommitRequest{Writes: []Write{put("users/u1/d/a", value.Fields{"a/b": intV(1)})}}, "a/b"},
			{"a mask without merge", CommitRequest{Writes: []Write{withMask}}, "Merge"},
			{"a bad mask", CommitRequest{Writes: []Write{badMask}}, "__x__"},
			{"a delete with fields", CommitRequest{Writes: []Write{deleteWithFields}}, "delete"},
			{"both preconditions", CommitRequest{Writes: []Write{bothPre}}, "both"},
			{"a collection", CommitRequest{Writes: []Write{{Path: valuetest.MustPath(t, "users/u1/d")}}}, "not a document"},
			{"a long path", CommitRequest{Writes: []Write{put("users/u1/d/"+strings.Repeat("i", MaxStoredPathBytes), nil)}}, "longer than"},
			{"batchId alone", CommitRequest{BatchID: 1}, "clientId"},
			{"clientId alone", CommitRequest{ClientID: "c"}, "batchId"},
		} {
			_, err := s.Commit(ctx, "u1", tt.req)
			if !errors.Is(err, status.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.part) {
				t.Errorf("%s: %v, want invalid-argument naming %q", tt.name, err, tt.part)
			}
		}
		// The valid neighbours pass: 500 writes, 20 levels, a document just under 1 MiB.
		commit(t, s, "u1", tooMany[:testMaxWrites]...)
		commit(t, s, "u1", put("users/u1/d/a", value.Fields{"d": deep.Map["a"]}))
		commit(t, s, "u1", put("users/u1/d/a", value.Fields{"s": strV(big[:MaxDocumentBytes-200])}))
		// A merge that makes the stored document too big fails at commit, naming it.
		_, err := s.Commit(ctx, "u1", CommitRequest{Writes: []Write{merge("users/u1/d/a", value.Fields{"t": strV(big[:1000])}, "t")}})
		wantCode(t, err, status.ErrInvalidArgument, `"users/u1/d/a" would be`)

		// A batch may cost at most MaxCommitCost units: 12 documents of nearly 1 MiB (256 units
		// each) are too many, 11 pass.
		var huge []Write
		for i := range 17 {
			huge = append(huge, put(fmt.Sprintf("users/u1/big/%d", i), value.Fields{"s": strV(big[:MaxDocumentBytes-200])}))
		}
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: huge[:12]})
		wantCode(t, err, status.ErrInvalidArgument, "costs 3072 units, more than 3000")
		commit(t, s, "u1", huge[:11]...)
	})
}

func TestExactlyOnce(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		clock := newTestClock()
		s := New(st, testConfig(), WithClock(clock.Now))
		send := func(s *Store, id int64, w ...Write) (CommitResult, error) {
			return s.Commit(ctx, "u1", CommitRequest{ClientID: "tab-1", BatchID: id, Writes: w})
		}
		first, err := send(s, 5, put("users/u1/d/a", value.Fields{"n": intV(1)}))
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
		// Sent again (the answer was lost), even with other content: the first answer, nothing applied.
		again, err := send(s, 5, put("users/u1/d/a", value.Fields{"n": intV(2)}))
		if err != nil || again.Version != first.Version || !again.CommitTime.Equal(first.CommitTime) ||
			!again.WriteResults[0].UpdateTime.Equal(first.WriteResults[0].UpdateTime) {
			t.Fatalf("resent: %+v, %v; first %+v", again, err, first)
		}
		// A permanent failure is an answer too: the same batch cannot succeed later.
		pre := put("users/u1/d/b", nil)
		pre.Precondition.Exists = boolP(true)
		_, err = send(s, 6, pre)
		wantCode(t, err, status.ErrFailedPrecondition, "does not exist")
		commit(t, s, "u1", put("users/u1/d/b", nil))
		_, err = send(s, 6, pre)
		wantCode(t, err, status.ErrFailedPrecondition, "does not exist")
		// Across a restart: a new Store over the same database knows both.
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = openStore(t, st, WithClock(clock.Now))
		if again, err := send(s, 5); err != nil || again.Version != first.Version {
			t.Fatalf("after a restart: %+v, %v", again, err)
		}
		_, err = send(s, 6)
		wantCode(t, err, status.ErrFailedPrecondition, "does not exist")
		if d, err := get(t, s, "users/u1/d/a"); err != nil || !value.Equal(d.Fields["n"], intV(1)) {
			t.Fatalf("a resent batch was applied again: %+v, %v", d, err)
		}
		// Later batches apply; the last 32 answers are kept, older ones are refused, never applied.
		for id := int64(7); id < 7+keptBatches; id++ {
			if _, err := send(s, id, put("users/u1/d/c", value.Fields{"n": intV(id)})); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := send(s, 7); err != nil {
			t.Errorf("batch 7, the 32nd last: %v", err)
		}
		_, err = send(s, 6, put("users/u1/d/c", nil))
		wantCode(t, err, status.ErrFailedPrecondition, "last 32 batch ids")
		// Another client's numbering, and another user's, are their own.
		if _, err := s.Commit(ctx, "u1", CommitRequest{ClientID: "tab-2", BatchID: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Commit(ctx, "u2", CommitRequest{ClientID: "tab-1", BatchID: 1, Writes: []Write{put("users/u2", nil)}}); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM doc_batches WHERE owner = ? AND client_id = ?", "u1", "tab-1").Scan(&n); err != nil || n != keptBatches {
			t.Errorf("%d answers kept (%v), want %d", n, err, keptBatches)
		}
	})
}

func TestWriteRate(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		clock := newTestClock()
		s := openStore(t, st, WithClock(clock.Now), WithWriteRate(2, testMaxWrites))
		full := make([]Write, testMaxWrites)
		for i := range full {
			full[i] = put(fmt.Sprintf("users/u1/d/%d", i), nil)
		}
		commit(t, s, "u1", full...)
		req := CommitRequest{ClientID: "c", BatchID: 1, Writes: []Write{put("users/u1/d/x", nil)}}
		_, err := s.Commit(ctx, "u1", req)
		wantCode(t, err, status.ErrResourceExhausted, "too many writes")
		var e *status.Error
		if errors.As(err, &e); e.RetryAfter <= 0 || e.RetryAfter > time.Second/2 {
			t.Errorf("RetryAfter %v, want up to 0.5 s at 2 writes/s", e.RetryAfter)
		}
		// Another user has a bucket of their own.
		commit(t, s, "u2", put("users/u2", nil))
		// Not an answer to keep: the same batch passes once the bucket has refilled.
		clock.Advance(e.RetryAfter)
		if _, err := s.Commit(ctx, "u1", req); err != nil {
			t.Fatalf("after RetryAfter: %v", err)
		}
		_, err = s.Commit(ctx, "u1", CommitRequest{Writes: full[:2]})
		wantCode(t, err, status.ErrResourceExhausted, "too many writes")
	})
}

func TestHistoryPruning(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		clock := newTestClock()
		cfg := testConfig()
		cfg.Capped = []Capped{{Collection: "history", Max: 3}}
		s := openStoreConfig(t, st, cfg, WithClock(clock.Now))
		for i := range 4 {
			clock.Advance(time.Second)
			commit(t, s, "u1", put(fmt.Sprintf("users/u1/history/h%d", i), nil), put(fmt.Sprintf("users/u1/other/o%d", i), nil))
		}
		// Updating an old entry does not make it new: createTime decides.
		clock.Advance(time.Second)
		commit(t, s, "u1", put("users/u1/history/h1", value.Fields{"v": intV(1)}))
		clock.Advance(time.Second)
		r := commit(t, s, "u1", put("users/u1/history/h4", nil), put("users/u1/history/h5", nil))
		for i, live := range []bool{false, false, false, true, true, true} {
			path := fmt.Sprintf("users/u1/history/h%d", i)
			if _, err := get(t, s, path); live != (err == nil) {
				t.Errorf("%s: %v, want live %v", path, err, live)
			}
		}
		// The pruned entries are tombstones of the commit that overfilled the collection.
		var n int
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM docs WHERE parent = ? AND fields IS NULL AND version = ?", "users/u1/history", r.Version).Scan(&n); err != nil || n != 2 {
			t.Errorf("%d tombstones at version %d (%v), want 2", n, r.Version, err)
		}
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM doc_index WHERE parent = ? AND field = ?", "users/u1/history", value.NameField).Scan(&n); err != nil || n != 3 {
			t.Errorf("%d live entries indexed (%v), want 3", n, err)
		}
		// Other collections are not limited.
		if _, err := get(t, s, "users/u1/other/o0"); err != nil {
			t.Error(err)
		}
		// Deletions count too, and an entry created and deleted in one batch never counts: from
		// h3, h4, h5, deleting h5 and adding h7 leaves three, and two more prune h3 and h4.
		clock.Advance(time.Second)
		commit(t, s, "u1", del("users/u1/history/h5"), del("users/u1/history/never"))
		clock.Advance(time.Second)
		commit(t, s, "u1", put("users/u1/history/h6", nil), put("users/u1/history/h7", nil), del("users/u1/history/h6"))
		clock.Advance(time.Second)
		commit(t, s, "u1", put("users/u1/history/h8", nil), put("users/u1/history/h9", nil))
		for i, live := range []bool{false, false, false, false, true, true, true} {
			path := fmt.Sprintf("users/u1/history/h%d", i+3)
			if _, err := get(t, s, path); live != (err == nil) {
				t.Errorf("%s: %v, want live %v", path, err, live)
			}
		}
		if err := st.QueryRow(ctx, "SELECT live FROM doc_counts WHERE parent = ?", "users/u1/history").Scan(&n); err != nil || n != 3 {
			t.Errorf("doc_counts has %d live entries (%v), want 3", n, err)
		}
	})
}
