package docstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// Listen limits.
const (
	MinListenTimeout = 5 * time.Second
	MaxListenTimeout = 30 * time.Second
	// An answer stops at the first version boundary past either bound; one version (one batch)
	// always goes whole, and MaxBatchBytes bounds it.
	listenDocs  = 1000
	listenBytes = 4 << 20
	// maxListeners bounds one user's listens held open at once: a tab per device syncs, so
	// this is far above real use, and it caps what one account can make the server hold.
	maxListeners = 32
)

// Change is one document's change in a Listen answer: its new state, or its deletion (Deleted,
// Fields nil, UpdateTime the deletion's commit time).
type Change struct {
	value.Doc
	Deleted bool
}

// Changes is a Listen answer.
type Changes struct {
	// Reset: the caller's copy cannot be brought up to date change by change (the deletions
	// since its version were pruned, or the version is unknown to this store): it must drop
	// every document it holds and take Changes, then go on listening from Version.
	Reset   bool
	Changes []Change // in version order; the whole of every version included
	// Version is the version to listen from next: the newest change's, or the caller's own
	// when nothing changed before the timeout; a whole answer (not More) reaches at least the
	// owner's horizon.
	Version int64
	// More: the answer was cut at its bounds, and listening again from Version answers at
	// once. The caller continues with Continue and Horizon, not Listen: the rest of a reset (or
	// of the live documents from 0) may lie below the pruned tombstones' horizon, where Listen
	// would answer the same first part again, for ever.
	More bool
	// Horizon, with More: the version up to which the owner's deletions were pruned when the
	// answer was read.
	Horizon int64
}

// An Answer takes a listen's answer as it is read (ListenTo), so that the store never holds it
// whole: the HTTP server spools it. Change takes the next change, in version order; Truncate
// drops the changes taken after the first n (a last version that a bound cut, or an answer that
// turned out to be a Reset and is read again). Waiting is called once, when the listen has
// nothing to answer yet and starts to wait: an HTTP handler sends its headers then, so that the
// client knows it is connected without waiting for a change or the timeout.
type Answer interface {
	Waiting()
	Change(Change) error
	Truncate(n int) error
}

// Listen waits until a document of caller's changed after version since, and answers those
// changes, deletions included; or answers no change once timeout (5 to 30 seconds) has passed.
// A caller that listens again from the answer's Version misses and repeats nothing, across
// restarts and instances, as long as the tombstones it has not yet seen were not pruned;
// otherwise (or when since is newer than anything this store handed out) the answer is a
// Reset. since 0 asks for the live documents only, without a Reset. An answer stops at the
// first version boundary past 1000 documents or 4 MiB (listenDocs, listenBytes): the caller
// listens again from its Version for the rest. waiting, if not nil, is Answer.Waiting.
// Listen collects ListenTo's answer.
func (s *Store) Listen(ctx context.Context, caller string, since int64, timeout time.Duration, waiting func()) (Changes, error) {
	return s.collect(ctx, caller, since, nil, timeout, waiting)
}

// Continue is Listen from the Version of an answer that had More, given its Horizon: no Reset
// for tombstones pruned below since as long as nothing was pruned since that answer (the
// horizon has not moved), as the caller then holds exactly what the answers up to since
// brought (after a Reset or from 0: live documents, none deleted before), and every deletion
// after since is still there to tell it. Once the horizon moved, a deletion after since may
// be gone: a Reset, as from Listen.
func (s *Store) Continue(ctx context.Context, caller string, since, horizon int64, timeout time.Duration, waiting func()) (Changes, error) {
	return s.collect(ctx, caller, since, &horizon, timeout, waiting)
}

// collect is ListenTo with the answer collected in memory.
func (s *Store) collect(ctx context.Context, caller string, since int64, horizon *int64, timeout time.Duration, waiting func()) (Changes, error) {
	a := &collectedAnswer{waiting: waiting}
	ch, done, err := s.ListenTo(ctx, caller, since, horizon, timeout, a)
	done()
	if err != nil {
		return Changes{}, err
	}
	ch.Changes = a.changes
	return ch, nil
}

// ListenTo is Listen (horizon nil) or Continue (horizon the answer's Horizon) with the answer's
// changes handed to a as they are read: the Changes it returns hold all but the changes. The
// listen keeps its slot among the caller's
// maxListeners until done is called (always, once the answer is written or abandoned), so that
// the answers read but not yet taken by their clients are bounded by those slots too. Each read
// of the changes waits for a read slot (readslots.go) and hands one document at a time to a.
func (s *Store) ListenTo(ctx context.Context, caller string, since int64, horizon *int64, timeout time.Duration, a Answer) (_ Changes, done func(), _ error) {
	done = func() {}
	switch {
	case caller == "":
		return Changes{}, done, &status.Error{Code: status.ErrUnauthenticated, Message: "sign in to listen to documents"}
	case since < 0:
		return Changes{}, done, status.Invalidf("since %d is not a version: versions are 0 or more", since)
	case timeout < MinListenTimeout || timeout > MaxListenTimeout:
		return Changes{}, done, status.Invalidf("timeout %s is outside 5s to 30s", timeout)
	}
	woken, stop, ok := s.hub.wait(caller)
	if !ok {
		s.metrics.refused(refusalListens)
		return Changes{}, done, &status.Error{Code: status.ErrResourceExhausted, RetryAfter: time.Second,
			Message: fmt.Sprintf("too many listens at once: at most %d per user, each until its answer is read", maxListeners)}
	}
	done = sync.OnceFunc(stop)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		// Registered before reading: a commit after the read wakes this listen.
		ch, n, err := s.readSlotChanges(ctx, caller, since, horizon, a)
		if err != nil || ch.Reset || n > 0 {
			return ch, done, err
		}
		since = ch.Version // past tombstones that since 0 leaves out
		a.Waiting()
		a = onceWaited{a}
		select {
		case <-woken:
		case <-timer.C:
			return Changes{Version: since}, done, nil
		case <-ctx.Done():
			return Changes{}, done, ctx.Err()
		case <-s.closing:
			return Changes{}, done, &status.Error{Code: status.ErrUnavailable, Message: "the server is shutting down; listen again"}
		}
	}
}

// readSlotChanges is changes within a read slot; n is the number of changes a took.
func (s *Store) readSlotChanges(ctx context.Context, owner string, since int64, horizon *int64, a Answer) (Changes, int, error) {
	release, err := s.reads.acquire(ctx, owner)
	if err != nil {
		return Changes{}, 0, err
	}
	defer release()
	return s.changes(ctx, owner, since, horizon, a)
}

// onceWaited is an Answer whose Waiting was called already.
type onceWaited struct{ Answer }

func (onceWaited) Waiting() {}

// collectedAnswer holds an answer's changes in memory (Listen).
type collectedAnswer struct {
	waiting func()
	changes []Change
}

func (c *collectedAnswer) Waiting() {
	if c.waiting != nil {
		c.waiting()
	}
}

func (c *collectedAnswer) Change(ch Change) error {
	c.changes = append(c.changes, ch)
	return nil
}

func (c *collectedAnswer) Truncate(n int) error {
	c.changes = c.changes[:n]
	return nil
}

// changes reads what changed for owner after since, without waiting, into a; n is the number
// of changes a holds afterwards. horizon, when not nil, is the Horizon of the answer that since
// continues (Continue).
func (s *Store) changes(ctx context.Context, owner string, since int64, horizon *int64, a Answer) (Changes, int, error) {
	out, n, err := s.readChanges(ctx, owner, since, a)
	if err != nil {
		return out, n, err
	}
	// Read after the changes: a pruning that removed a tombstone the read above missed has
	// raised the horizon by now.
	var pruned, newest int64
	err = s.st.QueryRow(ctx, "SELECT COALESCE((SELECT version FROM doc_pruned WHERE owner = ?), 0), version FROM doc_clock WHERE id = 1", owner).
		Scan(&pruned, &newest)
	if err != nil {
		return Changes{}, 0, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	if since != 0 && (since > newest || (since < pruned && (horizon == nil || *horizon != pruned))) {
		if err := a.Truncate(0); err != nil {
			return Changes{}, 0, err
		}
		if out, n, err = s.readChanges(ctx, owner, 0, a); err != nil {
			return out, n, err
		}
		out.Reset = true
	}
	out.Horizon = pruned
	// A whole answer holds every change up to the horizon too: the owner's newest change may
	// lie below it (a pruned deletion; every document of a restored database, MarkRestored),
	// and listening again from there would be a reset again, for ever.
	if !out.More {
		out.Version = max(out.Version, pruned)
	}
	return out, n, nil
}

// readChanges reads owner's changes after since in version order, whole versions only, up to
// the answer's bounds, into a; since 0 reads live documents only. n is the number of changes
// a holds afterwards.
func (s *Store) readChanges(ctx context.Context, owner string, since int64, a Answer) (_ Changes, n int, _ error) {
	fail := func(err error) (Changes, int, error) {
		return Changes{}, 0, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	q := "SELECT path, fields, create_time, update_time, version FROM docs WHERE owner = ? AND version > ?"
	args := []any{owner, since}
	newest := since
	if since == 0 {
		// The live documents up to the newest version now: an answer that holds them all
		// resumes from there, past the tombstones it leaves out.
		if err := s.st.QueryRow(ctx, "SELECT COALESCE(MAX(version), 0) FROM docs WHERE owner = ?", owner).Scan(&newest); err != nil {
			return fail(err)
		}
		q += " AND fields IS NOT NULL AND version <= ?"
		args = append(args, newest)
	}
	// One row more than the bound: a last version cut by the LIMIT is told from a whole one.
	rows, err := s.st.Query(ctx, q+" ORDER BY version LIMIT ?", append(args, listenDocs+1)...)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	out := Changes{Version: since}
	// lastStart is the number of changes before the last version's first, and before its
	// version: what a Truncate leaves if the LIMIT cut the last version.
	bytes, cut, lastStart, before := 0, false, 0, since
	for rows.Next() {
		c, size, err := scanChange(rows)
		if err != nil {
			return fail(err)
		}
		if c.Version != out.Version {
			if n >= listenDocs || bytes >= listenBytes {
				cut = true
				break
			}
			lastStart, before = n, out.Version
		}
		if err := a.Change(c); err != nil {
			return Changes{}, 0, err
		}
		n++
		out.Version, bytes = c.Version, bytes+size
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	rows.Close()
	if cut {
		out.More = true
		return out, n, nil
	}
	if n <= listenDocs {
		out.Version = max(out.Version, newest)
		return out, n, nil
	}
	// The LIMIT cut the last version: drop it, or when it is the only one, read it whole.
	if err := a.Truncate(lastStart); err != nil {
		return Changes{}, 0, err
	}
	if lastStart > 0 {
		out.Version, out.More = before, true
		return out, lastStart, nil
	}
	// One version past the bounds alone: what follows it is the next answer's.
	out, n, err = s.readVersion(ctx, owner, out.Version, a)
	out.More = err == nil
	return out, n, err
}

// readVersion reads every change of one version of owner's into a: one batch, which MaxWrites
// and MaxBatchBytes bound.
func (s *Store) readVersion(ctx context.Context, owner string, v int64, a Answer) (Changes, int, error) {
	fail := func(err error) (Changes, int, error) {
		return Changes{}, 0, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	rows, err := s.st.Query(ctx, "SELECT path, fields, create_time, update_time, version FROM docs WHERE owner = ? AND version = ?", owner, v)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		c, _, err := scanChange(rows)
		if err != nil {
			return fail(err)
		}
		if err := a.Change(c); err != nil {
			return Changes{}, 0, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	return Changes{Version: v}, n, nil
}

// scanChange reads one docs row as a Change, with the size of its stored fields.
func scanChange(rows *sql.Rows) (Change, int, error) {
	var path string
	var fields sql.NullString
	var created, updated, version int64
	if err := rows.Scan(&path, &fields, &created, &updated, &version); err != nil {
		return Change{}, 0, err
	}
	p, err := value.ParseDocumentPath(path)
	if err != nil {
		return Change{}, 0, fmt.Errorf("stored path %q: %w", path, err)
	}
	if !fields.Valid {
		return Change{Doc: value.Doc{Path: p, UpdateTime: fromMicros(updated), Version: version}, Deleted: true}, 0, nil
	}
	d, err := storedDoc(p, fields.String, created, updated, version)
	return Change{Doc: d}, len(fields.String), err
}

// MarshalJSON encodes a change: the document, or for a deletion
// {"name","updateTime","version","deleted":true}, updateTime being the deletion's.
func (c Change) MarshalJSON() ([]byte, error) {
	if !c.Deleted {
		return c.Doc.MarshalJSON()
	}
	return value.MarshalTombstone(c.Path, c.UpdateTime, c.Version)
}

// MarshalJSON encodes a listen answer: {"reset","version","changes"}, and when it was cut
// "more": true with its "horizon".
func (c Changes) MarshalJSON() ([]byte, error) {
	changes := c.Changes
	if changes == nil {
		changes = []Change{}
	}
	horizon := ""
	if c.More {
		horizon = strconv.FormatInt(c.Horizon, 10)
	}
	return json.Marshal(struct {
		Reset   bool     `json:"reset"`
		Version string   `json:"version"`
		Changes []Change `json:"changes"`
		More    bool     `json:"more,omitempty"`
		Horizon string   `json:"horizon,omitempty"`
	}{c.Reset, strconv.FormatInt(c.Version, 10), changes, c.More, horizon})
}
