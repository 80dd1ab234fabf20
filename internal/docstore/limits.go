package docstore

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"handy/internal/store"
)

// checkRate checks that owner's token bucket holds n writes at time now (Unix microseconds),
// or refuses them with resource-exhausted and the time until they would pass; charge then
// takes them. The bucket is a row written in the commit's transaction (writeBookkeeping), so
// the rate holds across instances and restarts. A rate of zero or less disables the limit.
func (s *Store) checkRate(g *groupReads, owner string, n int, now int64) (charge func(), err error) {
	if s.rate <= 0 {
		return func() {}, nil
	}
	b, ok := g.buckets[owner]
	if !ok {
		b = bucket{tokens: s.burst, at: now}
	}
	elapsed := float64(max(0, now-b.at)) / 1e6
	tokens := min(s.burst, b.tokens+elapsed*s.rate)
	if need := float64(n); tokens < need {
		// Whole milliseconds, rounded up: a client that waits exactly this long passes.
		wait := time.Duration(math.Ceil((need-tokens)/s.rate*1e3)) * time.Millisecond
		return nil, &Error{
			Code:       ErrResourceExhausted,
			Message:    fmt.Sprintf("too many writes: at most %g per second; try again in %s", s.rate, wait),
			RetryAfter: wait,
		}
	}
	return func() {
		g.buckets[owner] = bucket{tokens: tokens - float64(n), at: now}
		g.charged[owner] = true
	}, nil
}

// isHistory reports whether a collection path is a users/{uid}/history collection, whose
// size is limited.
func isHistory(parent string) bool {
	p, err := ParseCollectionPath(parent)
	return err == nil && p.Len() == 3 && p.Segment(0) == "users" && p.Segment(2) == "history"
}

// countHistory adds delta to the live documents of a history collection and, when that takes
// it past the limit, deletes the oldest (by createTime) as tombstones at time t and version v,
// in the commit that overfilled it. doc_counts is kept by every commit that adds or removes a
// history entry, so anything else that writes docs must keep it too.
func (s *Store) countHistory(ctx context.Context, tx *store.Tx, g *groupReads, parent, owner string, delta int, t, v int64) error {
	var live int
	if err := tx.QueryRow(ctx, `INSERT INTO doc_counts (parent, owner, live) VALUES (?, ?, ?)
		ON CONFLICT (parent) DO UPDATE SET live = doc_counts.live + excluded.live RETURNING live`, parent, owner, delta).Scan(&live); err != nil {
		return fmt.Errorf("count %s: %w", parent, err)
	}
	if live <= s.historyLimit {
		return nil
	}
	rows, err := tx.Query(ctx, "SELECT path FROM docs WHERE parent = ? AND fields IS NOT NULL ORDER BY create_time, path LIMIT ?", parent, live-s.historyLimit)
	if err != nil {
		return fmt.Errorf("find the oldest of %s: %w", parent, err)
	}
	var oldest []string
	for rows.Next() {
		var path string
		if err := rows.Scan(&path); err != nil {
			rows.Close()
			return fmt.Errorf("find the oldest of %s: %w", parent, err)
		}
		oldest = append(oldest, path)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("find the oldest of %s: %w", parent, err)
	}
	for _, path := range oldest {
		if _, err := tx.Exec(ctx, "DELETE FROM doc_index WHERE path = ?", path); err != nil {
			return fmt.Errorf("prune %s: %w", path, err)
		}
		if _, err := tx.Exec(ctx, "UPDATE docs SET fields = NULL, update_time = ?, version = ? WHERE path = ?", t, v, path); err != nil {
			return fmt.Errorf("prune %s: %w", path, err)
		}
		g.docs[path] = docRow{updated: t}
	}
	if _, err := tx.Exec(ctx, "UPDATE doc_counts SET live = ? WHERE parent = ?", live-len(oldest), parent); err != nil {
		return fmt.Errorf("count %s: %w", parent, err)
	}
	return nil
}
