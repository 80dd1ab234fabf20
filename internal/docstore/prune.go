package docstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"handy/internal/store"
)

// Two kinds of pruning: the capped collections' oldest entries, in the commit that overfills
// them (capCounts), and old tombstones, hourly (pruneLoop).

// capCounts is a group's net changes to the capped collections (Config.Capped), in the order
// the group first changed each.
type capCounts struct {
	deltas map[string]*capDelta // by collection path
	order  []string
}

// capDelta is a capped collection's net change of live entries in a group.
type capDelta struct {
	owner string
	delta int
	limit int // Capped.Max
}

func newCapCounts() capCounts { return capCounts{deltas: map[string]*capDelta{}} }

// add counts a change of d live entries (+1 or -1) in the collection parent of owner's, capped at limit.
func (k *capCounts) add(parent, owner string, limit, d int) {
	h := k.deltas[parent]
	if h == nil {
		h = &capDelta{owner: owner, limit: limit}
		k.deltas[parent] = h
		k.order = append(k.order, parent)
	}
	h.delta += d
}

// write adds the group's net changes to the capped collections' live entries (doc_counts, one
// statement for them all), and prunes each that this takes past its cap. docs is the group's
// view of the documents, which learns of the pruned ones.
// usage learns of the space the pruned entries gave back.
func (k *capCounts) write(ctx context.Context, tx *store.Tx, c clock, docs map[string]docRow, usage *usageBook) error {
	var args []any
	for _, parent := range k.order {
		if h := k.deltas[parent]; h.delta != 0 {
			args = append(args, parent, h.owner, h.delta)
		}
	}
	const chunk = 200
	for len(args) > 0 {
		part := args[:min(len(args), 3*chunk)]
		args = args[len(part):]
		q := "INSERT INTO doc_counts (parent, owner, live) VALUES " + strings.Repeat("(?, ?, ?), ", len(part)/3-1) +
			"(?, ?, ?) ON CONFLICT (parent) DO UPDATE SET live = doc_counts.live + excluded.live RETURNING parent, live"
		rows, err := tx.Query(ctx, q, part...)
		if err != nil {
			return fmt.Errorf("count capped collections' entries: %w", err)
		}
		over := map[string]int{}
		for rows.Next() {
			var parent string
			var live int
			if err := rows.Scan(&parent, &live); err != nil {
				rows.Close()
				return fmt.Errorf("count capped collections' entries: %w", err)
			}
			if live > k.deltas[parent].limit {
				over[parent] = live
			}
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return fmt.Errorf("count capped collections' entries: %w", err)
		}
		for parent, live := range over {
			if err := pruneOldest(ctx, tx, docs, usage, k.deltas[parent].owner, parent, live, c, k.deltas[parent].limit); err != nil {
				return err
			}
		}
	}
	return nil
}

// pruneOldest deletes the oldest (by createTime) entries of a capped collection of live
// entries past the limit, as tombstones at c, the group's last time and version, so that they
// come after any change the group made to them. doc_counts is kept by every commit that adds
// or removes an entry of a capped collection, so anything else that writes docs must keep it too.
func pruneOldest(ctx context.Context, tx *store.Tx, docs map[string]docRow, usage *usageBook, owner, parent string, live int, c clock, limit int) error {
	rows, err := tx.Query(ctx, "SELECT path, size FROM docs WHERE parent = ? AND fields IS NOT NULL ORDER BY create_time, path LIMIT ?", parent, live-limit)
	if err != nil {
		return fmt.Errorf("find the oldest of %s: %w", parent, err)
	}
	var oldest []string
	var freed int64
	for rows.Next() {
		var path string
		var size int64
		if err := rows.Scan(&path, &size); err != nil {
			rows.Close()
			return fmt.Errorf("find the oldest of %s: %w", parent, err)
		}
		oldest = append(oldest, path)
		freed += size
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("find the oldest of %s: %w", parent, err)
	}
	for _, path := range oldest {
		if _, err := tx.Exec(ctx, "DELETE FROM doc_index WHERE path = ?", path); err != nil {
			return fmt.Errorf("prune %s: %w", path, err)
		}
		if _, err := tx.Exec(ctx, "UPDATE docs SET fields = NULL, update_time = ?, version = ?, size = 0 WHERE path = ?", c.time, c.version, path); err != nil {
			return fmt.Errorf("prune %s: %w", path, err)
		}
		docs[path] = docRow{updated: c.time}
	}
	usage.add(owner, -freed)
	if _, err := tx.Exec(ctx, "UPDATE doc_counts SET live = ? WHERE parent = ?", live-len(oldest), parent); err != nil {
		return fmt.Errorf("count %s: %w", parent, err)
	}
	return nil
}

// DefaultTombstoneRetention is how long a deleted document's tombstone is kept for listeners
// to learn of the deletion. A client away for longer gets a reset (see Listen) instead.
const DefaultTombstoneRetention = 30 * 24 * time.Hour

// pruneEvery is how often a Store prunes; every instance does, which costs nothing when
// another has just done it.
const pruneEvery = time.Hour

// pruneLoop prunes tombstones past the retention every pruneEvery (or every retention, when
// shorter), until ctx ends.
func (s *Store) pruneLoop(ctx context.Context) {
	t := time.NewTicker(min(pruneEvery, s.retention))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n, err := s.PruneTombstones(ctx, s.retention)
		switch {
		case err != nil && ctx.Err() == nil:
			s.logger.Warn("docstore: pruning tombstones failed; next try at the next interval", slog.String("error", err.Error()))
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
