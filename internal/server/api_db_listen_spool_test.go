package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// Listen answers go through the same spools (spool.go): a listen keeps its slot among the
// user's 32 until its answer is written or its connection is gone, so clients that never read
// hold at most 32 answers of a user's, on disk, not in the heap.

// maxListens is docstore's per-user bound on listens held at once.
const maxListens = 32

// stalledListens starts maxListens listens of u's from since that read their headers and then
// nothing, and commits a batch of 4 documents of about listenDocBytes (1 MiB; 64 KiB under the
// race detector) that wakes them all; it returns
// the readers and the batch's version.
func stalledListens(t *testing.T, srv *Server, addr string, u dbUser, since int64) ([]*slowReader, int64) {
	t.Helper()
	slow := make([]*slowReader, maxListens)
	for i := range slow {
		slow[i] = startSlow(t, addr, u, fmt.Sprintf("since=%d&timeout=30s", since))
	}
	if n := srv.spools.open.Load(); n != maxListens {
		t.Fatalf("%d spools open with %d listens waiting", n, maxListens)
	}
	var ws []docstore.Write
	for i := range 4 {
		ws = append(ws, bigDoc(t, u, fmt.Sprintf("files/l%d", i), i, listenDocBytes))
	}
	res, err := srv.docs.Commit(context.Background(), u.uid, docstore.CommitRequest{Writes: ws})
	if err != nil {
		t.Fatal(err)
	}
	return slow, res.Version
}

// TestDBListenSpoolSlowReaders: 32 listens whose clients never read their answers of 4 MiB
// hold the heap far below those answers and keep their slots, so the 33rd listen is refused
// with 429; resumed, each gets its whole answer, and the slots are free again. Not parallel:
// it measures the heap.
func TestDBListenSpoolSlowReaders(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		srv := newDBServer(t, st, docstore.WithWriteRate(1<<20, 1<<20))
		dir := t.TempDir()
		srv.spools = newSpools(dir, 4<<30, 4<<30)
		u := dbSignup(t, srv.handler, "ada@example.com")
		_, since := commitOK(t, u.commit(writes(update(u.path("history/h1"), `{}`, ""))), 1)
		ts := newSlowServer(srv.handler)
		defer ts.Close()

		before := heapInUse()
		slow, version := stalledListens(t, srv, ts.Listener.Addr().String(), u, since)
		each := int64(4*(listenDocBytes-256)) - spoolMemory
		waitUntil(t, "every listen's answer spooled", func() bool { return spooled(srv) >= maxListens*each })
		growth := int64(heapInUse()) - int64(before)
		t.Logf("%s: %d listens stopped after their headers, answers of %.1f MB each: heap %+.1f MiB, %.0f MB spooled on disk",
			st.Engine(), maxListens, 4*listenDocBytes/1e6, float64(growth)/(1<<20), float64(spooled(srv))/1e6)
		// The bound leaves room for the database pool's own buffers, which grow to the largest
		// row read (pgx keeps them per connection): what the readers cost is their 64 KiB spools
		// in memory and a 32 KiB chunk each, 3 MiB in all.
		if limit := int64(32 << 20); growth > limit && !raceDetector {
			t.Errorf("the heap grew by %d MiB with %d stalled listens: want under %d MiB", growth>>20, maxListens, limit>>20)
		}
		noFiles(t, dir)

		// Every slot is held until its answer is written: one more listen is refused.
		if a := u.listen("since=0&timeout=5s"); a.status != 429 || errCode(a) != "resource-exhausted" || a.header.Get("Retry-After") == "" {
			t.Errorf("a 33rd listen while 32 answers are unread: %d %v %.200s", a.status, a.header, a.raw)
		}

		results := make(chan string, len(slow))
		for i, s := range slow {
			go func() {
				res, body, err := s.finish()
				var ch struct {
					Version string            `json:"version"`
					Changes []json.RawMessage `json:"changes"`
				}
				switch {
				case err != nil:
					results <- fmt.Sprintf("listen %d: %v", i, err)
				case res.StatusCode != 200 || json.Unmarshal(body, &ch) != nil:
					results <- fmt.Sprintf("listen %d: %d %.200s", i, res.StatusCode, body)
				case len(ch.Changes) != 4 || ch.Version != fmt.Sprint(version):
					results <- fmt.Sprintf("listen %d: %d changes up to version %s, want 4 up to %d", i, len(ch.Changes), ch.Version, version)
				default:
					results <- ""
				}
			}()
		}
		for range slow {
			if r := <-results; r != "" {
				t.Error(r)
			}
		}
		waitUntil(t, "the spools given back", func() bool { return spooled(srv) == 0 })
		// The slots are given back once the answers are written (the handlers' last step).
		waitUntil(t, "a listen accepted", func() bool { return u.listen("since=0&timeout=5s").status == 200 })
	})
}

// TestDBListenSpoolStalledCut: listens whose clients never read are cut by the write deadline
// (shortened here), which gives back their spools and their slots: a new listen is accepted.
func TestDBListenSpoolStalledCut(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		srv := newDBServer(t, st, docstore.WithWriteRate(1<<20, 1<<20))
		srv.spools = newSpools(t.TempDir(), 4<<30, 4<<30)
		srv.answerStall = 200 * time.Millisecond
		u := dbSignup(t, srv.handler, "ada@example.com")
		_, since := commitOK(t, u.commit(writes(update(u.path("history/h1"), `{}`, ""))), 1)
		ts := newSlowServer(srv.handler)
		defer ts.Close()
		slow, _ := stalledListens(t, srv, ts.Listener.Addr().String(), u, since)
		// Every handler has ended (its spool closed, its slot given back before that), though
		// no client read its answer: the deadline cut them all.
		waitUntil(t, "the stalled answers cut", func() bool { return srv.spools.open.Load() == 0 })
		if n := spooled(srv); n != 0 {
			t.Errorf("%d bytes still spooled", n)
		}
		if a := u.listen("since=0&timeout=5s"); a.status != 200 {
			t.Errorf("a listen after the stalled ones were cut: %d %.200s", a.status, a.raw)
		}
		for i, s := range slow {
			if res, body, err := s.finish(); err == nil && res.StatusCode == 200 && json.Valid(body) && !strings.Contains(string(body), `"error"`) {
				t.Errorf("listen %d: a stalled reader got a whole answer of %d bytes, want it cut", i, len(body))
			}
		}
	})
}
