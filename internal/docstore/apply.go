package docstore

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"handy/internal/store"
)

// docState is one document as a batch sees it: loaded once, then changed by each write.
type docState struct {
	path, parent string
	wasLive      bool // live in the database before the batch: its index rows are there
	live         bool
	raw          []byte // the fields' JSON when live
	fields       Fields // decoded lazily, for a merge
	created      int64
	updated      int64
	rows         []IndexRow // the index rows when live, computed lazily
	dirty        bool
}

// applyBatch applies p's writes at the next commit time, or finds the answer already given
// to the same batch (replayed). A refusal for the batch's content comes back in the answer
// before anything is written; err is a database error, which fails
// the group's transaction.
func (s *Store) applyBatch(ctx context.Context, tx *store.Tx, g *groupReads, c *clock, p *pending) (a answer, replayed bool, err error) {
	if last, ok := g.lastBatch[clientKey{p.caller, p.req.ClientID}]; ok && p.req.ClientID != "" && p.req.BatchID <= last {
		a, found, err := g.rememberedAnswer(ctx, tx, p.caller, p.req)
		if err != nil || found {
			return a, found, err
		}
	}
	t := s.nextTime(c)
	charge, err := s.checkRate(g, p.caller, max(1, len(p.writes)), t)
	if err != nil {
		return answer{err: err}, false, nil
	}
	states := make(map[string]*docState)
	var order []*docState
	results := make([]WriteResult, len(p.writes))
	for i := range p.writes {
		w := &p.writes[i]
		st, ok := states[w.path]
		if !ok {
			st = g.load(w)
			states[w.path] = st
			order = append(order, st)
		}
		r, err := st.apply(w, t)
		if err != nil {
			// Refused batches are charged too: each costs the database all the same.
			charge()
			return answer{err: err}, false, nil
		}
		results[i] = r
	}
	charge()
	res := CommitResult{WriteResults: results, CommitTime: fromMicros(t), Version: c.version}
	changes := false
	for _, st := range order {
		changes = changes || st.dirty && (st.live || st.wasLive)
	}
	if !changes {
		return answer{result: res}, false, nil
	}
	c.version++
	res.Version = c.version
	var histories []string        // history collections that gained or lost documents
	delta := make(map[string]int) // by how many
	for _, st := range order {
		if !st.dirty || !st.live && !st.wasLive {
			continue
		}
		if err := st.store(ctx, tx, p.caller, c.version); err != nil {
			return answer{}, false, err
		}
		g.docs[st.path] = docRow{live: st.live, raw: st.raw, created: st.created, updated: st.updated}
		if st.live != st.wasLive && isHistory(st.parent) {
			if _, ok := delta[st.parent]; !ok {
				histories = append(histories, st.parent)
			}
			delta[st.parent] += boolInt(st.live) - boolInt(st.wasLive)
		}
	}
	for _, parent := range histories {
		if d := delta[parent]; d != 0 {
			if err := s.countHistory(ctx, tx, g, parent, p.caller, d, t, c.version); err != nil {
				return answer{}, false, err
			}
		}
	}
	return answer{result: res}, false, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// load returns the state of w's document as the batches before have left it.
func (g *groupReads) load(w *prepared) *docState {
	d := g.docs[w.path]
	return &docState{path: w.path, parent: w.parent, wasLive: d.live, live: d.live, raw: d.raw, created: d.created, updated: d.updated}
}

// apply applies one write to the document's state at commit time t.
func (st *docState) apply(w *prepared, t int64) (WriteResult, error) {
	if err := st.check(w.Precondition); err != nil {
		return WriteResult{}, err
	}
	if w.Delete {
		if st.live {
			st.live, st.raw, st.fields, st.rows, st.updated, st.dirty = false, nil, nil, nil, t, true
		}
		return WriteResult{}, nil
	}
	raw, fields, rows := w.json, w.Fields, w.rows
	if w.Merge {
		base, err := st.decoded()
		if err != nil {
			return WriteResult{}, err
		}
		fields = ApplyMask(base, w.Fields, w.Mask)
		if raw, err = EncodeFields(fields); err != nil {
			return WriteResult{}, err
		}
		if err := checkSize(w.path, fields); err != nil {
			return WriteResult{}, err
		}
		rows = nil
	}
	if st.live && bytes.Equal(raw, st.raw) {
		// Firestore leaves a document that a write does not change as it was, updateTime
		// included; so does its version here, and listeners hear nothing.
		return WriteResult{UpdateTime: fromMicros(st.updated)}, nil
	}
	if !st.live {
		st.created = t
	}
	st.live, st.raw, st.fields, st.rows, st.updated, st.dirty = true, raw, fields, rows, t, true
	return WriteResult{UpdateTime: fromMicros(t)}, nil
}

// check evaluates a write's precondition against the document as the batch has left it.
func (st *docState) check(pre Precondition) error {
	fail := func(format string, args ...any) error {
		return &Error{Code: ErrFailedPrecondition, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case pre.Exists != nil && *pre.Exists && !st.live:
		return fail("document %q does not exist", st.path)
	case pre.Exists != nil && !*pre.Exists && st.live:
		return fail("document %q already exists", st.path)
	case !pre.UpdateTime.IsZero() && !st.live:
		return fail("document %q does not exist", st.path)
	case !pre.UpdateTime.IsZero() && st.updated != pre.UpdateTime.UnixMicro():
		return fail("document %q was last updated at %s, not %s", st.path,
			fromMicros(st.updated).Format(time.RFC3339Nano), pre.UpdateTime.UTC().Format(time.RFC3339Nano))
	}
	return nil
}

// decoded returns the document's fields for a merge, empty when there is no document.
func (st *docState) decoded() (Fields, error) {
	if !st.live || st.fields != nil {
		return st.fields, nil
	}
	f, err := DecodeFields(st.raw)
	if err != nil {
		return nil, fmt.Errorf("stored fields of %s: %w", st.path, err)
	}
	st.fields = f
	return f, nil
}

// store writes the document's final state at version v: its row (a tombstone when deleted)
// and its index rows.
func (st *docState) store(ctx context.Context, tx *store.Tx, owner string, v int64) error {
	if st.wasLive {
		if _, err := tx.Exec(ctx, "DELETE FROM doc_index WHERE path = ?", st.path); err != nil {
			return fmt.Errorf("unindex %s: %w", st.path, err)
		}
	}
	if !st.live {
		if _, err := tx.Exec(ctx, "UPDATE docs SET fields = NULL, update_time = ?, version = ? WHERE path = ?", st.updated, v, st.path); err != nil {
			return fmt.Errorf("delete %s: %w", st.path, err)
		}
		return nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO docs (path, parent, owner, fields, create_time, update_time, version) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (path) DO UPDATE SET fields = excluded.fields, create_time = excluded.create_time,
			update_time = excluded.update_time, version = excluded.version`,
		st.path, st.parent, owner, string(st.raw), st.created, st.updated, v); err != nil {
		return fmt.Errorf("write %s: %w", st.path, err)
	}
	rows := st.rows
	if rows == nil {
		p, err := ParseDocumentPath(st.path)
		if err != nil {
			return err
		}
		rows = indexRows(p, st.fields)
	}
	return insertIndexRows(ctx, tx, rows)
}

// indexInsertRows bounds one INSERT's rows (4 parameters each), well under both engines'
// limits on parameters.
const indexInsertRows = 250

func insertIndexRows(ctx context.Context, tx *store.Tx, rows []IndexRow) error {
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), indexInsertRows)]
		rows = rows[len(chunk):]
		var q bytes.Buffer
		q.WriteString("INSERT INTO doc_index (parent, field, key, path) VALUES ")
		args := make([]any, 0, 4*len(chunk))
		for i, r := range chunk {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?)")
			args = append(args, r.Parent, r.Field, r.Key, r.Path)
		}
		if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("index %s: %w", chunk[0].Path, err)
		}
	}
	return nil
}
