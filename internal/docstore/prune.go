package docstore

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"handy/internal/store"
)

// DefaultTombstoneRetention is how long a deleted document's tombstone is kept for listeners
// to learn of the deletion. A client away for longer gets a reset (see Listen) instead.
const DefaultTombstoneRetention = 30 * 24 * time.Hour

// pruneEvery is how often a Store prunes; every instance does, which costs nothing when
// another has just done it.
const pruneEvery = time.Hour

// pruneLoop prunes tombstones past DefaultTombstoneRetention every pruneEvery, until ctx ends.
func (s *Store) pruneLoop(ctx context.Context) {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := s.PruneTombstones(ctx, DefaultTombstoneRetention)
		switch {
		case err != nil && ctx.Err() == nil:
			s.logger.Warn("docstore: pruning tombstones failed; next try in an hour", slog.String("error", err.Error()))
		case n > 0:
			s.logger.Info("docstore: pruned tombstones", slog.Int("removed", n))
		}
	}
}

// pruneBatch bounds the tombstones one transaction removes, so that pruning a backlog never
// holds the write lock for long.
const pruneBatch = 1000

// PruneTombstones removes the tombstones of deletions older than retention, and raises each
// owner's horizon (doc_pruned) in the same transaction, so that a listen from before a pruned
// deletion gets a reset instead of missing it. It returns how many it removed.
func (s *Store) PruneTombstones(ctx context.Context, retention time.Duration) (int, error) {
	before := s.now().Add(-retention).UnixMicro()
	total := 0
	for {
		n, err := s.pruneSome(ctx, before)
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
	}
}

func (s *Store) pruneSome(ctx context.Context, before int64) (int, error) {
	n := 0
	err := s.st.InTx(ctx, func(tx *store.Tx) error {
		n = 0
		// The commits' lock: a commit that read a tombstone to revive it writes it before or
		// after this transaction, never into a row removed under it.
		if _, err := tx.Exec(ctx, "UPDATE doc_clock SET version = version WHERE id = 1"); err != nil {
			return fmt.Errorf("lock the clock: %w", err)
		}
		rows, err := tx.Query(ctx, "SELECT path, owner, version FROM docs WHERE fields IS NULL AND update_time < ? ORDER BY update_time LIMIT ?", before, pruneBatch)
		if err != nil {
			return fmt.Errorf("find tombstones: %w", err)
		}
		type tombstone struct {
			path    string
			version int64
		}
		var found []tombstone
		horizon := make(map[string]int64)
		for rows.Next() {
			var path, owner string
			var version int64
			if err := rows.Scan(&path, &owner, &version); err != nil {
				rows.Close()
				return fmt.Errorf("find tombstones: %w", err)
			}
			found = append(found, tombstone{path, version})
			horizon[owner] = max(horizon[owner], version)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("find tombstones: %w", err)
		}
		for _, f := range found {
			res, err := tx.Exec(ctx, "DELETE FROM docs WHERE path = ? AND version = ?", f.path, f.version)
			if err != nil {
				return fmt.Errorf("remove tombstone %s: %w", f.path, err)
			}
			if k, _ := res.RowsAffected(); k > 0 {
				n++
			}
		}
		for owner, v := range horizon {
			if _, err := tx.Exec(ctx, `INSERT INTO doc_pruned (owner, version) VALUES (?, ?)
				ON CONFLICT (owner) DO UPDATE SET version = CASE WHEN excluded.version > doc_pruned.version THEN excluded.version ELSE doc_pruned.version END`, owner, v); err != nil {
				return fmt.Errorf("raise the horizon of %s: %w", owner, err)
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("docstore: prune tombstones: %w", err)
	}
	return n, nil
}
