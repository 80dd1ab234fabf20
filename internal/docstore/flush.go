package docstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"handy/internal/docstore/value"
	"handy/internal/store"
)

// dirtyDoc is a document a group has changed: its owner and the version of its last change.
type dirtyDoc struct {
	parent, owner string
	version       int64
}

// historyDelta is a capped collection's net change of live entries in a group.
type historyDelta struct {
	owner string
	delta int
	limit int // Capped.Max
}

// write records a batch's final state of one document at version v; flushDocs writes the
// group's documents once it has applied every batch.
func (g *groupReads) write(st *docState, owner string, v int64) {
	if _, ok := g.dirty[st.path]; !ok {
		g.dirtyOrder = append(g.dirtyOrder, st.path)
	}
	g.dirty[st.path] = dirtyDoc{parent: st.parent, owner: owner, version: v}
	g.docs[st.path] = docRow{live: st.live, raw: st.raw, fields: st.fields, rows: st.rows, created: st.created, updated: st.updated}
	if limit, capped := g.cfg.capOf(st.parent); capped && st.live != st.wasLive {
		h := g.history[st.parent]
		if h == nil {
			h = &historyDelta{owner: owner, limit: limit}
			g.history[st.parent] = h
			g.historyOrder = append(g.historyOrder, st.parent)
		}
		h.delta += boolInt(st.live) - boolInt(st.wasLive)
	}
}

// flushDocs writes the documents the group changed, in their final state, with a few
// multi-row statements instead of several per batch: their index rows out, their rows (live or
// tombstones) in, the new index rows in; then the history counts, pruning what overflows at
// the group's last time and version c.
func (g *groupReads) flushDocs(ctx context.Context, tx *store.Tx, c clock) error {
	var unindex []string
	var docs [][]any
	var rows []IndexRow
	for _, path := range g.dirtyOrder {
		d, dd := g.docs[path], g.dirty[path]
		if g.startLive[path] {
			unindex = append(unindex, path)
		} else if !d.live {
			continue // born and gone within the group: nothing any reader saw
		}
		var fields any // NULL: a tombstone
		if d.live {
			fields = string(d.raw)
			r := d.rows
			if r == nil {
				p, err := value.ParseDocumentPath(path)
				if err != nil {
					return err
				}
				r = indexRows(p, d.fields)
			}
			rows = append(rows, r...)
		}
		docs = append(docs, []any{path, dd.parent, dd.owner, fields, d.created, d.updated, dd.version})
	}
	for len(unindex) > 0 {
		part := unindex[:min(len(unindex), inChunk)]
		unindex = unindex[len(part):]
		var q strings.Builder
		q.WriteString("DELETE FROM doc_index WHERE path IN ")
		args := appendIn(&q, nil, part)
		if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("unindex documents: %w", err)
		}
	}
	const docChunk = 200
	for len(docs) > 0 {
		part := docs[:min(len(docs), docChunk)]
		docs = docs[len(part):]
		q := "INSERT INTO docs (path, parent, owner, fields, create_time, update_time, version) VALUES " +
			strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", len(part)-1) + `(?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (path) DO UPDATE SET fields = excluded.fields, create_time = excluded.create_time,
				update_time = excluded.update_time, version = excluded.version`
		var args []any
		for _, d := range part {
			args = append(args, d...)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("write documents: %w", err)
		}
	}
	if err := insertIndexRows(ctx, tx, rows); err != nil {
		return err
	}
	return g.countHistories(ctx, tx, c)
}

// indexInsertRows bounds one INSERT's rows (4 parameters each), well under both engines'
// limits on parameters.
const indexInsertRows = 250

func insertIndexRows(ctx context.Context, tx *store.Tx, rows []IndexRow) error {
	for len(rows) > 0 {
		part := rows[:min(len(rows), indexInsertRows)]
		rows = rows[len(part):]
		q := "INSERT INTO doc_index (parent, field, key, path) VALUES " + strings.Repeat("(?, ?, ?, ?), ", len(part)-1) + "(?, ?, ?, ?)"
		args := make([]any, 0, 4*len(part))
		for _, r := range part {
			args = append(args, r.Parent, r.Field, r.Key, r.Path)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("index documents: %w", err)
		}
	}
	return nil
}

// countHistories adds the group's net changes to the history collections' live entries (one
// statement for them all), and prunes each that this takes past the limit.
func (g *groupReads) countHistories(ctx context.Context, tx *store.Tx, c clock) error {
	var args []any
	for _, parent := range g.historyOrder {
		if h := g.history[parent]; h.delta != 0 {
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
			return fmt.Errorf("count history entries: %w", err)
		}
		over := map[string]int{}
		for rows.Next() {
			var parent string
			var live int
			if err := rows.Scan(&parent, &live); err != nil {
				rows.Close()
				return fmt.Errorf("count history entries: %w", err)
			}
			if live > g.history[parent].limit {
				over[parent] = live
			}
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return fmt.Errorf("count history entries: %w", err)
		}
		for parent, live := range over {
			if err := g.prune(ctx, tx, parent, live, c, g.history[parent].limit); err != nil {
				return err
			}
		}
	}
	return nil
}

// prune deletes the oldest (by createTime) entries of a history collection of live entries
// past the limit, as tombstones at c, the group's last time and version, so that they come
// after any change the group made to them. doc_counts is kept by every commit that adds or
// removes a history entry, so anything else that writes docs must keep it too.
func (g *groupReads) prune(ctx context.Context, tx *store.Tx, parent string, live int, c clock, limit int) error {
	rows, err := tx.Query(ctx, "SELECT path FROM docs WHERE parent = ? AND fields IS NOT NULL ORDER BY create_time, path LIMIT ?", parent, live-limit)
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
		if _, err := tx.Exec(ctx, "UPDATE docs SET fields = NULL, update_time = ?, version = ? WHERE path = ?", c.time, c.version, path); err != nil {
			return fmt.Errorf("prune %s: %w", path, err)
		}
		g.docs[path] = docRow{updated: c.time}
	}
	if _, err := tx.Exec(ctx, "UPDATE doc_counts SET live = ? WHERE parent = ?", live-len(oldest), parent); err != nil {
		return fmt.Errorf("count %s: %w", parent, err)
	}
	return nil
}
