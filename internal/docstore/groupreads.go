package docstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"handy/internal/docstore/value"
	"handy/internal/store"
)

// groupReads holds what a group's batches read: fetched for all of them with one query per
// table when the group's transaction begins, instead of a round trip per batch, and kept up
// to date as each batch writes, so that a batch sees the batches before it. What no statement
// of the group reads back is written once, at its end.
type groupReads struct {
	cfg       Config
	docs      map[string]docRow // by path; absent: no row
	startLive map[string]bool   // the documents live when the group began: indexed

	// The documents the group changed, written once at its end (flushDocs).
	dirty      map[string]dirtyDoc
	dirtyOrder []string

	once  exactlyOnce // exactlyonce.go
	rates rateBook    // ratelimit.go
	usage usageBook   // quota.go
	caps  capCounts   // prune.go
}

// docRow is a document as the group's batches have left it: a docs row, with the fields
// decoded and the index rows when a batch has them at hand.
type docRow struct {
	live             bool
	raw              []byte
	fields           value.Fields
	rows             []IndexRow
	created, updated int64
	size             int64 // storedSize when live, else 0
}

// dirtyDoc is a document a group has changed: its owner and the version of its last change.
type dirtyDoc struct {
	parent, owner string
	version       int64
}

// prefetch reads the documents, write-rate buckets and last batch ids that group will need,
// one query per table (per chunk of inChunk).
func prefetch(ctx context.Context, tx *store.Tx, group []*pending, cfg Config) (*groupReads, error) {
	g := &groupReads{cfg: cfg, docs: map[string]docRow{}, startLive: map[string]bool{}, dirty: map[string]dirtyDoc{},
		once: newExactlyOnce(), rates: newRateBook(), usage: newUsageBook(), caps: newCapCounts()}
	var paths, owners, clients []string
	seen := map[string]bool{}
	for _, p := range group {
		for _, w := range p.writes {
			if !seen["p"+w.path] {
				seen["p"+w.path] = true
				paths = append(paths, w.path)
			}
		}
		if !seen["o"+p.caller] {
			seen["o"+p.caller] = true
			owners = append(owners, p.caller)
		}
		if c := p.req.ClientID; c != "" && !seen["c"+c] {
			seen["c"+c] = true
			clients = append(clients, c)
		}
	}
	err := selectIn(ctx, tx, "SELECT path, fields, create_time, update_time, size FROM docs WHERE path IN ", paths, nil,
		func(rows *sql.Rows) error {
			var path string
			var fields sql.NullString
			var d docRow
			if err := rows.Scan(&path, &fields, &d.created, &d.updated, &d.size); err != nil {
				return err
			}
			d.live, d.raw = fields.Valid, []byte(fields.String)
			g.docs[path] = d
			g.startLive[path] = d.live
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read the documents: %w", err)
	}
	if err := g.rates.read(ctx, tx, owners); err != nil {
		return nil, err
	}
	if err := g.usage.read(ctx, tx, owners); err != nil {
		return nil, err
	}
	if err := g.once.read(ctx, tx, owners, clients); err != nil {
		return nil, err
	}
	return g, nil
}

// load returns the state of w's document as the batches before have left it.
func (g *groupReads) load(w *prepared) *docState {
	d := g.docs[w.path]
	return &docState{path: w.path, parent: w.parent, wasLive: d.live, live: d.live, raw: d.raw, fields: d.fields,
		created: d.created, updated: d.updated, rows: d.rows, startSize: d.size, size: d.size}
}

// write records a batch's final state of one document at version v; flushDocs writes the
// group's documents once it has applied every batch.
func (g *groupReads) write(st *docState, owner string, v int64) {
	if _, ok := g.dirty[st.path]; !ok {
		g.dirtyOrder = append(g.dirtyOrder, st.path)
	}
	g.dirty[st.path] = dirtyDoc{parent: st.parent, owner: owner, version: v}
	g.docs[st.path] = docRow{live: st.live, raw: st.raw, fields: st.fields, rows: st.rows, created: st.created, updated: st.updated, size: st.size}
	if limit, capped := g.cfg.capOf(st.parent); capped && st.live != st.wasLive {
		g.caps.add(st.parent, owner, limit, boolInt(st.live)-boolInt(st.wasLive))
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// flushDocs writes the documents the group changed, in their final state, with a few
// multi-row statements instead of several per batch: their index rows out, their rows (live or
// tombstones) in, the new index rows in; then the capped collections' counts, pruning what overflows at
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
		docs = append(docs, []any{path, dd.parent, dd.owner, fields, d.created, d.updated, dd.version, d.size})
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
		q := "INSERT INTO docs (path, parent, owner, fields, create_time, update_time, version, size) VALUES " +
			strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?), ", len(part)-1) + `(?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (path) DO UPDATE SET fields = excluded.fields, create_time = excluded.create_time,
				update_time = excluded.update_time, version = excluded.version, size = excluded.size`
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
	return g.caps.write(ctx, tx, c, g.docs, &g.usage)
}
