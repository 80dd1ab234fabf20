package docstore

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// withGroups lowers the committer's group cost bound and calls hook before each group.
func withGroups(maxCost int, hook func([]*pending)) Option {
	return func(s *Store) { s.groupCost, s.groupHook = maxCost, hook }
}

// waitFor polls cond until it holds; the deadline only fails a hung test.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestFairCommitter: a heavy user queues a backlog of costly batches while the committer is
// held; a light user's one-write commit queued after all of them is applied before most of
// them (by version: an order, not a duration). The old first-in-first-out committer applied it
// last.
func TestFairCommitter(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		const heavy, writes = 12, 50 // 50 units a batch: one per group
		release := make(chan struct{})
		entered := make(chan struct{})
		var once sync.Once
		s := openStore(t, st, WithWriteRate(0, 0), withGroups(writes, func([]*pending) {
			once.Do(func() {
				close(entered)
				<-release
			})
		}))
		ctx := context.Background()
		var mu sync.Mutex
		versions := map[string]int64{}
		var wg sync.WaitGroup
		send := func(caller, name string, n int) {
			wg.Go(func() {
				var w []Write
				for i := range n {
					w = append(w, put(fmt.Sprintf("users/%s/d/%s-%d", caller, name, i), nil))
				}
				r, err := s.Commit(ctx, caller, CommitRequest{Writes: w})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				mu.Lock()
				versions[name] = r.Version
				mu.Unlock()
			})
		}
		send("h", "h0", writes)
		<-entered // the committer holds h0's group
		for k := 1; k < heavy; k++ {
			send("h", fmt.Sprintf("h%d", k), writes)
		}
		waitFor(t, "the heavy backlog to queue", func() bool { return len(s.queue) == heavy-1 })
		send("l", "light", 1)
		waitFor(t, "the light commit to queue", func() bool { return len(s.queue) == heavy })
		close(release)
		wg.Wait()
		after := 0
		for k := range heavy {
			if versions[fmt.Sprintf("h%d", k)] > versions["light"] {
				after++
			}
		}
		if after < heavy-3 {
			t.Errorf("the light commit (version %d) came after %d of the %d heavy batches queued before it: %v", versions["light"], heavy-after, heavy, versions)
		}
	})
}

// TestFairQueueGroups pins how groups are taken: in turn by caller, a batch that does not fit
// waits while others go, a costly batch alone, and each caller's batches in order.
func TestFairQueueGroups(t *testing.T) {
	q := newFairQueue()
	add := func(caller string, cost int) {
		q.push(&pending{caller: caller, cost: cost, writes: make([]prepared, cost)})
	}
	add("h", 90)
	add("h", 90)
	add("h", 90)
	add("a", 20)
	add("b", 5)
	add("a", 20)
	var got []string
	for q.len() > 0 {
		var g string
		for _, p := range q.group(100, 1000) {
			g += fmt.Sprintf("%s%d ", p.caller, p.cost)
		}
		got = append(got, g)
	}
	want := []string{"h90 b5 ", "a20 a20 ", "h90 ", "h90 "}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("groups %q, want %q", got, want)
	}
}
