package docstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/store"
)

const (
	// queueSize bounds the commits waiting for the committer in its channel, and again those it
	// has taken into its per-caller queues (fairQueue); past it, Commit waits (and its context
	// can end the wait), which is the back-pressure on writers.
	queueSize = 4096
	// maxGroupWrites and maxGroupCost stop a group from growing, so that one transaction stays
	// short: 500 cost units (a full batch of small writes) are about 80 ms of SQLite on two busy
	// cores (BenchmarkCommitCost), so that a light commit grouped with others waits little, and
	// a costlier batch goes in a group of its own (fairqueue.go). A group's first batch always
	// goes, however costly (at most MaxCommitCost).
	maxGroupWrites = 2000
	maxGroupCost   = 500
	// groupTimeout bounds one group's transaction, so that a stuck database fails the waiting
	// commits (unavailable) instead of holding them for ever.
	groupTimeout = 30 * time.Second
)

// pending is one Commit waiting for the committer.
type pending struct {
	caller string
	server bool // written by the server for the caller (CommitInTx): not charged to its rate
	cost   int  // estimateCost of writes: what the group it goes in is bounded by
	req    CommitRequest
	writes []prepared
	answer chan answer // buffered: the committer never waits for a caller that left
}

type answer struct {
	result CommitResult
	err    error
	// refusal names the per-user limit that refused the batch (metrics.go), or is "".
	refusal string
}

// clock is doc_clock's row as a group advances it: the last version and commit time (Unix
// microseconds) handed out.
type clock struct {
	version, time int64
}

// commitLoop is the committer: it takes whatever commits are queued into per-caller queues,
// applies a group of them, taken in turn by caller (fairQueue.group), in one transaction and
// answers them, until Close; then it answers what is still queued and stops. It never waits
// for more: while one group is being committed the next one gathers in the queue, so batching
// grows with the load and costs nothing when there is none.
func (s *Store) commitLoop() {
	defer close(s.done)
	q := newFairQueue()
	for {
		if q.len() == 0 {
			select {
			case p := <-s.queue:
				q.push(p)
			case <-s.closing:
				q.fill(s.queue, queueSize)
				if q.len() == 0 {
					return
				}
			}
		}
		q.fill(s.queue, queueSize)
		group := q.group(s.groupCost, maxGroupWrites)
		s.metrics.queued.Store(int64(q.len()))
		if s.groupHook != nil {
			s.groupHook(group)
		}
		s.commitGroup(group)
	}
}

// commitGroup applies a group in one transaction, commits, tells the notify hook and answers
// every batch: an answer always means committed. A batch refused for its content (a
// precondition, a limit) writes nothing, so it fails alone without a savepoint; a database
// error fails the group's transaction, and then each batch is tried again alone, so that the
// one at fault fails alone. Savepoints would cost two round trips per batch for that rare case.
func (s *Store) commitGroup(group []*pending) {
	answers, changed, err := s.tryGroup(group)
	if err != nil && len(group) > 1 {
		for _, p := range group {
			s.commitGroup([]*pending{p})
		}
		return
	}
	if err != nil {
		group[0].answer <- answer{err: fmt.Errorf("docstore: commit: %w: %w", err,
			&status.Error{Code: status.ErrUnavailable, Message: "the commit could not be completed; send it again"})}
		return
	}
	s.changed(changed)
	for i, p := range group {
		s.metrics.refused(answers[i].refusal) // once committed: a group tried again counts once
		p.answer <- answers[i]
	}
}

// tryGroup applies a group in one transaction and returns each batch's answer and the owners
// whose documents changed, with their newest version.
func (s *Store) tryGroup(group []*pending) ([]answer, map[string]int64, error) {
	// The batches belong to the committer now: a caller that leaves does not cancel the others.
	ctx, cancel := context.WithTimeout(context.Background(), groupTimeout)
	defer cancel()
	var answers []answer
	var changed map[string]int64
	err := s.st.InTx(ctx, func(tx *store.Tx) error {
		var err error
		answers, changed, err = s.applyGroup(ctx, tx, group)
		return err
	})
	return answers, changed, err
}

// applyGroup applies a group in tx: it takes the commit lock, applies each batch, writes the
// documents and the bookkeeping, advances the clock and, on PostgreSQL, queues the
// notifications that the commit of tx delivers to the other instances.
func (s *Store) applyGroup(ctx context.Context, tx *store.Tx, group []*pending) ([]answer, map[string]int64, error) {
	answers := make([]answer, len(group))
	changed := make(map[string]int64)
	var c clock
	// The row lock serialises commits, across instances on PostgreSQL too, before anything is
	// read: versions follow commit order, and the exactly-once check sees every batch
	// committed before.
	if err := tx.QueryRow(ctx, "UPDATE doc_clock SET version = version WHERE id = 1 RETURNING version, update_time").
		Scan(&c.version, &c.time); err != nil {
		return nil, nil, fmt.Errorf("lock the clock: %w", err)
	}
	start := c
	g, err := prefetch(ctx, tx, group, s.cfg)
	if err != nil {
		return nil, nil, err
	}
	for i, p := range group {
		before := c.version
		a, err := s.commitBatch(ctx, tx, g, &c, p)
		if err != nil {
			return nil, nil, err
		}
		answers[i] = a
		if c.version != before {
			changed[p.caller] = c.version
		}
	}
	if err := g.flushDocs(ctx, tx, c); err != nil {
		return nil, nil, err
	}
	if err := g.once.write(ctx, tx); err != nil {
		return nil, nil, err
	}
	if err := g.rates.write(ctx, tx); err != nil {
		return nil, nil, err
	}
	if err := g.usage.write(ctx, tx); err != nil {
		return nil, nil, err
	}
	if c == start {
		return answers, changed, nil
	}
	if _, err := tx.Exec(ctx, "UPDATE doc_clock SET version = ?, update_time = ? WHERE id = 1", c.version, c.time); err != nil {
		return nil, nil, fmt.Errorf("advance the clock: %w", err)
	}
	if s.st.Engine() != store.Postgres {
		return answers, changed, nil
	}
	for _, payload := range s.notifyPayloads(changed) {
		if _, err := tx.Exec(ctx, "SELECT pg_notify(?, ?)", notifyChannel, payload); err != nil {
			return nil, nil, fmt.Errorf("notify the other instances: %w", err)
		}
	}
	return answers, changed, nil
}

// CommitInTx applies req for caller in tx, a transaction of the caller's own, instead of
// through the committer: an account's sign-up writes users/{uid} in the transaction that
// creates the account. Such writes are the server's, so they do not count against the
// caller's write rate. It takes the commit lock as every commit does, so it waits for the
// committer's transaction and makes it wait. A refusal comes back as the error, and tx should
// then be rolled back. Once tx has committed, call wake: it tells this instance's listens
// (PostgreSQL tells the other instances' when tx commits).
func (s *Store) CommitInTx(ctx context.Context, tx *store.Tx, caller string, req CommitRequest) (res CommitResult, wake func(), err error) {
	writes, err := s.prepare(caller, req)
	if err != nil {
		return CommitResult{}, nil, err
	}
	answers, changed, err := s.applyGroup(ctx, tx, []*pending{{caller: caller, server: true, cost: estimateCost(writes), req: req, writes: writes}})
	if err != nil {
		return CommitResult{}, nil, fmt.Errorf("docstore: commit: %w", err)
	}
	if answers[0].err != nil {
		return CommitResult{}, nil, answers[0].err
	}
	return answers[0].result, func() { s.changed(changed) }, nil
}

// changed tells this instance's listens and the notify hook of a committed change.
func (s *Store) changed(owners map[string]int64) {
	if len(owners) == 0 {
		return
	}
	list := make([]string, 0, len(owners))
	for o := range owners {
		list = append(list, o)
	}
	s.hub.wake(list...)
	s.notify(owners)
}

// commitBatch applies one batch and remembers its answer for exactly-once delivery when the
// answer is final: a success, or a refusal for its content (so that a resend cannot succeed
// where the first failed). resource-exhausted is not final: the same batch may pass later.
func (s *Store) commitBatch(ctx context.Context, tx *store.Tx, g *groupReads, c *clock, p *pending) (answer, error) {
	a, replayed, err := s.applyBatch(ctx, tx, g, c, p)
	if err != nil || replayed {
		return a, err
	}
	var refused *status.Error
	if p.req.ClientID != "" && (a.err == nil || errors.As(a.err, &refused) && refused.Code != status.ErrResourceExhausted) {
		if err := g.once.remember(p, a); err != nil {
			return answer{}, err
		}
	}
	return a, nil
}

// nextTime returns the commit time of the next batch: now, but always after the last one, so
// that an updateTime names one state of a document.
func (s *Store) nextTime(c *clock) int64 {
	c.time = max(s.now().UnixMicro(), c.time+1)
	return c.time
}
