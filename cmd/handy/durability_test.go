package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// Parameters of TestKillDuringCommits.
const (
	killWriters = 8 // concurrent writers, each signed in as a user of its own
	// killWriterBudget bounds the writes one writer sends, so that its user stays within the
	// write rate's burst (docstore.DefaultWriteBurst, 3,000 units, a small write one: not
	// configurable) even counting the resends of the batches lost in the kill, which are charged when they are applied then.
	killWriterBudget = 450
	killPace         = 8 * time.Millisecond // a writer starts at most one batch per pace
	// killSessionBatches is how many batch ids a writer sends under one clientId before it
	// takes the next: the store keeps the answers of a client's last 32 batch ids
	// (docstore's keptBatches), and every acknowledged batch is resent after the restart.
	killSessionBatches = 32
	// killMinAcked is how many batches are acknowledged before the kill, at least: the kill
	// comes while the writers are still writing (each writer's budget is about 225 batches).
	killMinAcked = 500
	xsrfValue    = "durability-test-xsrf-token-0123456789abcdef"
)

// TestKillDuringCommits runs the handy binary, has concurrent writers commit numbered
// batches with exactly-once ids, kills the process with SIGKILL while they write, restarts it on
// the same database and checks that every acknowledged batch survived whole, that resending
// it answers the first answer again and applies nothing, that each batch whose answer the
// kill lost was applied whole or not at all and is applied once when resent, and that nothing
// else was written.
func TestKillDuringCommits(t *testing.T) {
	bin := buildHandy(t)
	t.Run(store.SQLite, func(t *testing.T) {
		killDuringCommits(t, bin, []string{"-data-dir", t.TempDir()})
	})
	t.Run(store.Postgres, func(t *testing.T) {
		killDuringCommits(t, bin, []string{"-data-dir", t.TempDir(), "-database-url", storetest.URL(t)})
	})
}

// killBatch is one batch a writer sent.
type killBatch struct {
	client string
	id     int64
	paths  []string // its documents, write k writing paths[k]
	body   []byte   // the commit request
	ack    []byte   // the 200 answer, when it came before the kill
}

func newKillBatch(uid string, writer int, seq int64) *killBatch {
	b := &killBatch{client: fmt.Sprintf("w%d-s%d", writer, (seq-1)/killSessionBatches), id: seq}
	n := 1 + int(seq+int64(writer))%3
	var writes []any
	for k := range n {
		path := fmt.Sprintf("users/%s/history/w%d-b%d-%d", uid, writer, seq, k)
		b.paths = append(b.paths, path)
		// A history entry as the server's schema takes it (issue 27), the batch, its client and
		// k carried in its title and query.
		writes = append(writes, map[string]any{"update": map[string]any{"name": path, "fields": map[string]any{
			"tool":  map[string]string{"stringValue": "area"},
			"at":    map[string]string{"timestampValue": "2026-11-27T09:00:00Z"},
			"title": map[string]string{"stringValue": b.client},
			"query": map[string]string{"stringValue": killQuery(seq, k)},
		}}})
	}
	b.body, _ = json.Marshal(map[string]any{"writes": writes, "clientId": b.client, "batchId": strconv.FormatInt(seq, 10)})
	return b
}

// killQuery is the query of document k of batch seq: what identifies the write in its entry.
func killQuery(seq int64, k int) string { return fmt.Sprintf("?batch=%d&k=%d", seq, k) }

func killDuringCommits(t *testing.T, bin string, args []string) {
	began := time.Now()
	p := startHandy(t, bin, args)
	c := newAPIClient(p.URL)
	// One after another: the server hashes a few passwords at once and answers 503 to the rest,
	// which a loaded machine reaches with 8 at once; the sign-ups are not what this test is about.
	users := make([]killUser, killWriters)
	for i := range users {
		var err error
		if users[i], err = c.signup(fmt.Sprintf("writer%d@example.com", i)); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("started and signed up %d users in %s", killWriters, time.Since(began).Round(time.Millisecond))

	// The writers: each sends its batches one after the other until the kill.
	var wg sync.WaitGroup
	var killed atomic.Bool
	var acked, inFlight atomic.Int64
	sent := make([][]*killBatch, killWriters)
	for w := range killWriters {
		wg.Go(func() {
			u := users[w]
			tick := time.NewTicker(killPace)
			defer tick.Stop()
			writes := 0
			for seq := int64(1); ; seq++ {
				b := newKillBatch(u.id, w, seq)
				if killed.Load() || writes+len(b.paths) > killWriterBudget {
					return
				}
				writes += len(b.paths)
				sent[w] = append(sent[w], b)
				inFlight.Add(1)
				status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
				inFlight.Add(-1)
				switch {
				case err != nil && killed.Load():
					return // the kill took the answer: b's fate is for the checks to find
				case err != nil:
					t.Errorf("writer %d batch %d: %v", w, seq, err)
					return
				case status != http.StatusOK:
					t.Errorf("writer %d batch %d: %d %s", w, seq, status, answer)
					return
				}
				b.ack = answer
				acked.Add(1)
				<-tick.C
			}
		})
	}
	writersDone := make(chan struct{})
	go func() { wg.Wait(); close(writersDone) }()
	start := time.Now()
	poll := time.NewTicker(5 * time.Millisecond)
	for acked.Load() < killMinAcked {
		select {
		case <-writersDone:
			t.Fatalf("the writers stopped after %d acknowledged batches, before the kill", acked.Load())
		case <-poll.C:
		}
	}
	poll.Stop()
	killed.Store(true)
	ackedAtKill, inFlightAtKill := acked.Load(), inFlight.Load()
	err := p.Signal(syscall.SIGKILL)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("handy did not die of SIGKILL: %v", err)
	}
	<-writersDone // wg.Wait by the goroutine above has returned: wg may be used again
	var ackedBatches, lostBatches int
	for w := range sent {
		for _, b := range sent[w] {
			if b.ack != nil {
				ackedBatches++
			} else {
				lostBatches++
			}
		}
	}
	t.Logf("killed after %s of commits: %d batches acknowledged, %d in flight at the kill; %d acknowledged, %d unanswered in all",
		time.Since(start).Round(time.Millisecond), ackedAtKill, inFlightAtKill, ackedBatches, lostBatches)
	if t.Failed() {
		return
	}
	if ackedBatches < 100 {
		t.Errorf("only %d batches acknowledged before the kill: the test proves little", ackedBatches)
	}

	// The restart on the same database, and the checks, one goroutine per writer.
	restart := time.Now()
	p = startHandy(t, bin, args)
	t.Logf("restarted in %s", time.Since(restart).Round(time.Millisecond))
	checks := time.Now()
	c = newAPIClient(p.URL)
	var maxAckVersion int64
	for w := range sent {
		for _, b := range sent[w] {
			if b.ack != nil {
				var a commitAnswer
				if err := json.Unmarshal(b.ack, &a); err != nil {
					t.Fatalf("answer %s: %v", b.ack, err)
				}
				maxAckVersion = max(maxAckVersion, atoi(a.Version))
			}
		}
	}
	var applied, notApplied atomic.Int64
	for w := range killWriters {
		wg.Go(func() {
			a, n := checkWriter(t, c, users[w], w, sent[w], maxAckVersion)
			applied.Add(int64(a))
			notApplied.Add(int64(n))
		})
	}
	wg.Wait()
	t.Logf("checked in %s: of the %d unanswered batches, %d had been applied (whole) and %d not",
		time.Since(checks).Round(time.Millisecond), lostBatches, applied.Load(), notApplied.Load())

	if err := p.Stop(); err != nil {
		t.Errorf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}
	t.Logf("%s in all", time.Since(began).Round(time.Millisecond))
}
