package docstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/store"
)

// rateBook is what a group knows of its owners' write-rate token buckets: read when the group
// begins, charged as each batch is applied, and written to doc_rate when the group ends.
type rateBook struct {
	buckets map[string]bucket // by owner; absent: a full bucket
	charged map[string]bool   // owners whose bucket changed
}

// bucket is a token bucket as doc_rate keeps it: its tokens at time at (Unix microseconds).
type bucket struct {
	tokens float64
	at     int64
}

func newRateBook() rateBook {
	return rateBook{buckets: map[string]bucket{}, charged: map[string]bool{}}
}

// read reads the buckets of owners.
func (r *rateBook) read(ctx context.Context, tx *store.Tx, owners []string) error {
	err := selectIn(ctx, tx, "SELECT owner, tokens, at FROM doc_rate WHERE owner IN ", owners, nil,
		func(rows *sql.Rows) error {
			var owner string
			var b bucket
			if err := rows.Scan(&owner, &b.tokens, &b.at); err != nil {
				return err
			}
			r.buckets[owner] = b
			return nil
		})
	if err != nil {
		return fmt.Errorf("read the write rates: %w", err)
	}
	return nil
}

// checkRate checks that owner's token bucket holds units (what the batch costs, cost.go) at
// time now (Unix microseconds), or refuses them with resource-exhausted and the time until they
// would pass; charge then takes them. The bucket is a row written in the commit's transaction
// (rateBook.write), so the rate holds across instances and restarts. A rate of zero or less
// disables the limit. A batch that costs more than the whole bucket could never pass: it is
// refused as invalid-argument.
func (s *Store) checkRate(r *rateBook, owner string, units int, now int64) (charge func(), err error) {
	if s.rate <= 0 {
		return func() {}, nil
	}
	need := float64(units)
	if need > s.burst {
		return nil, status.Invalidf("the commit costs %d units, more than the %g a user may spend at once (1 per write, 1 per %d index entries and 1 per %d KiB of each document it leaves): split it",
			units, s.burst, costEntriesPerUnit, costBytesPerUnit>>10)
	}
	b, ok := r.buckets[owner]
	if !ok {
		b = bucket{tokens: s.burst, at: now}
	}
	elapsed := float64(max(0, now-b.at)) / 1e6
	tokens := min(s.burst, b.tokens+elapsed*s.rate)
	if tokens < need {
		// Whole milliseconds, rounded up: a client that waits exactly this long passes.
		wait := time.Duration(math.Ceil((need-tokens)/s.rate*1e3)) * time.Millisecond
		return nil, &status.Error{
			Code: status.ErrResourceExhausted,
			Message: fmt.Sprintf("too many writes: at most %g cost units per second (1 per small write, more for large documents), %g at once; this commit costs %d; try again in %s",
				s.rate, s.burst, units, wait),
			RetryAfter: wait,
		}
	}
	return func() {
		r.buckets[owner] = bucket{tokens: tokens - need, at: now}
		r.charged[owner] = true
	}, nil
}

// write writes the buckets the group charged to doc_rate, in one statement per chunk.
func (r *rateBook) write(ctx context.Context, tx *store.Tx) error {
	const chunk = 200
	var owners []string
	for o := range r.charged {
		owners = append(owners, o)
	}
	for len(owners) > 0 {
		part := owners[:min(len(owners), chunk)]
		owners = owners[len(part):]
		q := "INSERT INTO doc_rate (owner, tokens, at) VALUES " + strings.Repeat("(?, ?, ?), ", len(part)-1) +
			"(?, ?, ?) ON CONFLICT (owner) DO UPDATE SET tokens = excluded.tokens, at = excluded.at"
		var args []any
		for _, o := range part {
			args = append(args, o, r.buckets[o].tokens, r.buckets[o].at)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("charge the write rates: %w", err)
		}
	}
	return nil
}
