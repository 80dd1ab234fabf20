package docstore

import (
	"bytes"
	"context"
	"fmt"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/store"
)

// docState is one document as a batch sees it: loaded once, then changed by each write.
type docState struct {
	path, parent string
	wasLive      bool // live in the database before the batch: its index rows are there
	live         bool
	raw          []byte       // the fields' JSON when live
	fields       value.Fields // decoded lazily, for a merge
	created      int64
	updated      int64
	rows         []IndexRow // the index rows when live, computed lazily
	dirty        bool
	startSize    int64 // storedSize before the batch (0: not live)
	size         int64 // storedSize now
}

// applyBatch applies p's writes at the next commit time to the group's view of the documents
// (flushDocs writes them when the group ends), or finds the answer already given to the same
// batch (replayed). A refusal for the batch's content comes back in the answer and changes
// nothing; err is a database error, which fails the group's transaction.
func (s *Store) applyBatch(ctx context.Context, tx *store.Tx, g *groupReads, c *clock, p *pending) (a answer, replayed bool, err error) {
	if g.once.replays(p) {
		a, found, err := g.once.rememberedAnswer(ctx, tx, p.caller, p.req)
		if err != nil || found {
			return a, found, err
		}
	}
	t := s.nextTime(c)
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
		var checkMerged func(value.Fields) error // nil: nothing to check, and no closure made
		if w.Merge && s.cfg.Check != nil {
			checkMerged = func(f value.Fields) error { return s.cfg.checkDoc(i, w.Path, f) }
		}
		r, err := st.apply(i, w, t, checkMerged)
		if err != nil {
			return s.refuse(g, p, t, err), false, nil
		}
		results[i] = r
	}
	res := CommitResult{WriteResults: results, CommitTime: fromMicros(t), Version: c.version}
	changes, size, units, grown := false, 0, len(p.writes), int64(0)
	for _, st := range order {
		changes = changes || st.dirty && (st.live || st.wasLive)
		if st.dirty && st.live {
			size += len(st.raw)
			units += docCost(len(st.raw), len(st.rows)) - 1 // the write's own unit is counted above
		}
		if st.dirty {
			grown += st.size - st.startSize
		}
	}
	if size > MaxBatchBytes {
		return s.refuse(g, p, t, status.Invalidf("the batch would leave %d bytes of documents, more than %d (16 MiB): split it", size, MaxBatchBytes)), false, nil
	}
	if err := checkCommitCost(units); err != nil {
		return s.refuse(g, p, t, err), false, nil
	}
	if !p.server {
		charge, err := s.checkRate(&g.rates, p.caller, units, t)
		if err != nil {
			return answer{err: err, refusal: refusalRate}, false, nil
		}
		if err := s.checkQuota(&g.usage, p.caller, grown); err != nil {
			a := s.refuse(g, p, t, err)
			a.refusal = refusalQuota
			return a, false, nil
		}
		charge()
	}
	if !changes {
		return answer{result: res}, false, nil
	}
	g.usage.add(p.caller, grown)
	c.version++
	res.Version = c.version
	for _, st := range order {
		if st.dirty && (st.live || st.wasLive) {
			g.write(st, p.caller, c.version)
		}
	}
	return answer{result: res}, false, nil
}

// refuse answers a batch refused for what it holds (err), charging the caller's write rate one
// unit per write: each refusal costs the database all the same.
func (s *Store) refuse(g *groupReads, p *pending, t int64, err error) answer {
	if !p.server {
		if charge, rateErr := s.checkRate(&g.rates, p.caller, len(p.writes), t); rateErr == nil {
			charge()
		}
	}
	return answer{err: err}
}

// apply applies one write to the document's state at commit time t; checkMerged, when not
// nil, is the application's schema (Config.Check), asked about a merge's resulting document.
// i is the write's index, for messages.
func (st *docState) apply(i int, w *prepared, t int64, checkMerged func(value.Fields) error) (WriteResult, error) {
	if err := st.check(w.Precondition); err != nil {
		return WriteResult{}, err
	}
	if w.Delete {
		if st.live {
			st.live, st.raw, st.fields, st.rows, st.updated, st.dirty, st.size = false, nil, nil, nil, t, true, 0
		}
		return WriteResult{}, nil
	}
	raw, fields, rows := w.json, w.Fields, w.rows
	if w.Merge {
		base, err := st.decoded()
		if err != nil {
			return WriteResult{}, err
		}
		fields = value.ApplyMask(base, w.Fields, w.Mask)
		if raw, err = value.EncodeFields(fields); err != nil {
			return WriteResult{}, err
		}
		if err := checkSize(w.path, fields); err != nil {
			return WriteResult{}, err
		}
		// Before the no-op shortcut: a write that would leave an invalid document is refused
		// even when the stored one is already that document (stored before the schema).
		if checkMerged != nil {
			if err := checkMerged(fields); err != nil {
				return WriteResult{}, err
			}
		}
		rows = nil
	}
	if st.live && bytes.Equal(raw, st.raw) {
		// Firestore leaves a document that a write does not change as it was, updateTime
		// included; so does its version here, and listeners hear nothing.
		return WriteResult{UpdateTime: fromMicros(st.updated)}, nil
	}
	if rows == nil {
		// A merge's document: its index rows are what the entry limit, the cost and the
		// quota count, and what flushDocs writes.
		rows = indexRows(w.Path, fields)
		if err := checkEntries(w.path, len(rows)); err != nil {
			return WriteResult{}, status.Invalidf("write %d: %s", i, err.(*status.Error).Message)
		}
	}
	if !st.live {
		st.created = t
	}
	st.live, st.raw, st.fields, st.rows, st.updated, st.dirty = true, raw, fields, rows, t, true
	st.size = storedSize(w.path, raw, rows)
	return WriteResult{UpdateTime: fromMicros(t)}, nil
}

// check evaluates a write's precondition against the document as the batch has left it.
func (st *docState) check(pre Precondition) error {
	fail := func(format string, args ...any) error {
		return &status.Error{Code: status.ErrFailedPrecondition, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case pre.Exists != nil && *pre.Exists && !st.live:
		return fail("document %q does not exist", st.path)
	case pre.Exists != nil && !*pre.Exists && st.live:
		return fail("document %q already exists", st.path)
	case !pre.UpdateTime.IsZero() && !st.live:
		return fail("document %q does not exist", st.path)
	case !pre.UpdateTime.IsZero() && st.updated != pre.UpdateTime.UnixMicro():
		return fail("document %q was last updated at %s, not %s", st.path, value.FormatTime(fromMicros(st.updated)), value.FormatTime(pre.UpdateTime))
	}
	return nil
}

// decoded returns the document's fields for a merge, empty when there is no document.
func (st *docState) decoded() (value.Fields, error) {
	if !st.live || st.fields != nil {
		return st.fields, nil
	}
	f, err := value.DecodeFields(st.raw)
	if err != nil {
		return nil, fmt.Errorf("stored fields of %s: %w", st.path, err)
	}
	st.fields = f
	return f, nil
}
