package docstore

import (
	"context"
	"errors"
	"testing"

	"handy/internal/docstore/query"
	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestReadSlots holds streamed reads open (a yield that waits) and checks the order of what
// follows, not its timing: a second read of the same user waits for its slot (it ends with its
// context, having read nothing), another user's read runs, a read past the total waits too,
// and once the held reads end every read runs.
func TestReadSlots(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := openStore(t, st, WithReadSlots(2, 1))
		for _, uid := range []string{"u1", "u2", "u3"} {
			commit(t, s, uid, put("users/"+uid+"/history/a", value.Fields{"n": intV(1)}))
		}
		history := func(uid string) query.Query {
			q, err := query.Parse("users/"+uid, []byte(`{"from":[{"collectionId":"history"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			return q
		}
		// hold starts a read that stays in its yield until release is closed; it returns once
		// the read holds its slot.
		release := make(chan struct{})
		var held []chan error
		hold := func(uid string, export bool) {
			started, finished := make(chan struct{}), make(chan error, 1)
			wait := func() error {
				close(started)
				<-release
				return nil
			}
			go func() {
				if export {
					finished <- s.ExportEach(ctx, uid, func(ExportDoc) error { return wait() })
				} else {
					finished <- s.QueryEach(ctx, uid, history(uid), func(value.Doc) error { return wait() })
				}
			}()
			select {
			case <-started:
			case err := <-finished:
				t.Fatalf("read of %s ended before its first document: %v", uid, err)
			}
			held = append(held, finished)
		}
		// waits checks that a read of uid cannot start: it ends when its context is cancelled,
		// having read nothing.
		waits := func(uid string, export bool) {
			t.Helper()
			cctx, cancel := context.WithCancel(ctx)
			finished := make(chan error, 1)
			read := func() error { t.Errorf("a read of %s ran past the slots", uid); return nil }
			go func() {
				if export {
					finished <- s.ExportEach(cctx, uid, func(ExportDoc) error { return read() })
				} else {
					finished <- s.QueryEach(cctx, uid, history(uid), func(value.Doc) error { return read() })
				}
			}()
			cancel()
			if err := <-finished; !errors.Is(err, context.Canceled) {
				t.Errorf("read of %s waiting for a slot: %v, want its context's end", uid, err)
			}
		}

		hold("u1", false)
		waits("u1", true) // u1's one slot is held
		hold("u2", true)  // another user's read runs
		waits("u3", false)
		// A listen whose read cannot start yet waits; it is not refused, and answers once the
		// slots are free.
		listened := make(chan error, 1)
		go func() {
			ch, err := s.Listen(ctx, "u3", 0, MinListenTimeout, nil)
			if err == nil && len(ch.Changes) != 1 {
				err = errors.New("not the one document")
			}
			listened <- err
		}()
		close(release)
		if err := <-listened; err != nil {
			t.Errorf("listen while the slots were held: %v", err)
		}
		for _, ch := range held {
			if err := <-ch; err != nil {
				t.Errorf("held read: %v", err)
			}
		}
	})
}

// TestEachStopsOnYieldError checks that an error from yield ends the read and comes back as it
// is, and that the read's slot is given back.
func TestEachStopsOnYieldError(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := openStore(t, st, WithReadSlots(1, 1))
		commit(t, s, "u1", put("users/u1/history/a", nil), put("users/u1/history/b", nil))
		q, err := query.Parse("users/u1", []byte(`{"from":[{"collectionId":"history"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		stop := errors.New("spool full")
		n := 0
		if err := s.QueryEach(ctx, "u1", q, func(value.Doc) error { n++; return stop }); err != stop || n != 1 {
			t.Errorf("QueryEach = %v after %d documents, want the yield's error after 1", err, n)
		}
		n = 0
		if err := s.ExportEach(ctx, "u1", func(ExportDoc) error { n++; return stop }); err != stop || n != 1 {
			t.Errorf("ExportEach = %v after %d documents, want the yield's error after 1", err, n)
		}
		if docs, err := s.Query(ctx, "u1", q); err != nil || len(docs) != 2 {
			t.Errorf("a query after the failed reads: %d documents, %v", len(docs), err)
		}
	})
}
