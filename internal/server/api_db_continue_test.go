package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestDBListenContinue: a reset too large for one answer says "more" and its "horizon";
// listening again from its version is the same reset again (its first part lies below the
// pruned deletions), while continue={horizon} goes on with the rest; a continue that is not a
// number is refused.
func TestDBListenContinue(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newDBServer(t, st, docstore.WithTombstoneRetention(time.Second)).handler
		u := dbSignup(t, h, "ada@example.com")
		var old int64
		for b := range 3 {
			var ws []string
			for i := range 500 {
				ws = append(ws, update(u.path(fmt.Sprintf("d/%d-%03d", b, i)), `{}`, ""))
			}
			_, v := commitOK(t, u.commit(writes(ws...)), 500)
			if b == 0 {
				old = v - 1
			}
		}
		commitOK(t, u.commit(writes(deleteWrite(u.path("d/0-000"), ""))), 1, 0)

		deadline := time.Now().Add(20 * time.Second) // fails a hung test only: pruning runs every second
		var a answer
		for {
			a = u.listen(fmt.Sprintf("since=%d&timeout=5s", old))
			if a.status != 200 || a.body["reset"] == true || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if a.status != 200 || a.body["reset"] != true || a.body["more"] != true {
			t.Fatalf("listen from before a pruned deletion: %d reset %v more %v, want a reset with more", a.status, a.body["reset"], a.body["more"])
		}
		cut := versionOf(t, a.body["version"])
		again := u.listen(fmt.Sprintf("since=%d&timeout=5s", cut))
		if again.body["reset"] != true || versionOf(t, again.body["version"]) != cut {
			t.Fatalf("listen from the cut at %d: reset %v up to %v, want the same reset again", cut, again.body["reset"], again.body["version"])
		}
		n := len(a.body["changes"].([]any))
		for next := a; next.body["more"] == true; {
			next = u.listen(fmt.Sprintf("since=%s&timeout=5s&continue=%s", next.body["version"], next.body["horizon"]))
			if next.status != 200 || next.body["reset"] != false {
				t.Fatalf("continue: %d reset %v, want the rest", next.status, next.body["reset"])
			}
			n += len(next.body["changes"].([]any))
		}
		if bad := u.listen("since=1&timeout=5s&continue=x"); bad.status != 400 || !strings.Contains(errMessage(bad), "continue") {
			t.Errorf("continue=x: %d %s, want 400 naming continue", bad.status, bad.raw)
		}
		if n != 1499+1 { // the live documents and users/{uid} (the sign-up's profile)
			t.Fatalf("the reset and its continuation brought %d documents, want 1500", n)
		}
	})
}
