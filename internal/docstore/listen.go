package docstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
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
	// when nothing changed before the timeout.
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

// Listen waits until a document of caller's changed after version since, and answers those
// changes, deletions included; or answers no change once timeout (5 to 30 seconds) has passed.
// A caller that listens again from the answer's Version misses and repeats nothing, across
// restarts and instances, as long as the tombstones it has not yet seen were not pruned;
// otherwise (or when since is newer than anything this store handed out) the answer is a
// Reset. since 0 asks for the live documents only, without a Reset. waiting, if not nil, is
// called once, when the listen has nothing to answer yet and starts to wait: an HTTP handler
// sends its headers then, so that the client knows it is connected without waiting for a
// change or the timeout.
func (s *Store) Listen(ctx context.Context, caller string, since int64, timeout time.Duration, waiting func()) (Changes, error) {
	return s.listen(ctx, caller, since, timeout, waiting, nil)
}

// Continue is Listen from the Version of an answer that had More, given its Horizon: no Reset
// for tombstones pruned below since as long as nothing was pruned since that answer (the
// horizon has not moved), as the caller then holds exactly what the answers up to since
// brought (after a Reset or from 0: live documents, none deleted before), and every deletion
// after since is still there to tell it. Once the horizon moved, a deletion after since may
// be gone: a Reset, as from Listen.
func (s *Store) Continue(ctx context.Context, caller string, since, horizon int64, timeout time.Duration, waiting func()) (Changes, error) {
	return s.listen(ctx, caller, since, timeout, waiting, &horizon)
}

func (s *Store) listen(ctx context.Context, caller string, since int64, timeout time.Duration, waiting func(), horizon *int64) (Changes, error) {
	switch {
	case caller == "":
		return Changes{}, &status.Error{Code: status.ErrUnauthenticated, Message: "sign in to listen to documents"}
	case since < 0:
		return Changes{}, status.Invalidf("since %d is not a version: versions are 0 or more", since)
	case timeout < MinListenTimeout || timeout > MaxListenTimeout:
		return Changes{}, status.Invalidf("timeout %s is outside 5s to 30s", timeout)
	}
	woken, stop, ok := s.hub.wait(caller)
	if !ok {
		return Changes{}, &status.Error{Code: status.ErrResourceExhausted, RetryAfter: time.Second,
			Message: fmt.Sprintf("too many listens at once: at most %d per user", maxListeners)}
	}
	defer stop()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		// Registered before reading: a commit after the read wakes this listen.
		ch, err := s.changes(ctx, caller, since, horizon)
		if err != nil || ch.Reset || len(ch.Changes) > 0 {
			return ch, err
		}
		since = ch.Version // past tombstones that since 0 leaves out
		if waiting != nil {
			waiting()
			waiting = nil
		}
		select {
		case <-woken:
		case <-timer.C:
			return Changes{Version: since}, nil
		case <-ctx.Done():
			return Changes{}, ctx.Err()
		case <-s.closing:
			return Changes{}, &status.Error{Code: status.ErrUnavailable, Message: "the server is shutting down; listen again"}
		}
	}
}

// changes reads what changed for owner after since, without waiting; horizon, when not nil,
// is the Horizon of the answer that since continues (Continue).
func (s *Store) changes(ctx context.Context, owner string, since int64, horizon *int64) (Changes, error) {
	out, err := s.readChanges(ctx, owner, since)
	if err != nil || (since == 0 && !out.More) {
		return out, err
	}
	// Read after the changes: a pruning that removed a tombstone the read above missed has
	// raised the horizon by now.
	var pruned, newest int64
	err = s.st.QueryRow(ctx, "SELECT COALESCE((SELECT version FROM doc_pruned WHERE owner = ?), 0), version FROM doc_clock WHERE id = 1", owner).
		Scan(&pruned, &newest)
	if err != nil {
		return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	out.Horizon = pruned
	if since == 0 || (since <= newest && (since >= pruned || (horizon != nil && *horizon == pruned))) {
		return out, nil
	}
	out, err = s.readChanges(ctx, owner, 0)
	out.Reset, out.Horizon = true, pruned
	return out, err
}

// readChanges reads owner's changes after since in version order, whole versions only, up to
// the answer's bounds; since 0 reads live documents only.
func (s *Store) readChanges(ctx context.Context, owner string, since int64) (Changes, error) {
	q := "SELECT path, fields, create_time, update_time, version FROM docs WHERE owner = ? AND version > ?"
	args := []any{owner, since}
	newest := since
	if since == 0 {
		// The live documents up to the newest version now: an answer that holds them all
		// resumes from there, past the tombstones it leaves out.
		if err := s.st.QueryRow(ctx, "SELECT COALESCE(MAX(version), 0) FROM docs WHERE owner = ?", owner).Scan(&newest); err != nil {
			return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
		}
		q += " AND fields IS NOT NULL AND version <= ?"
		args = append(args, newest)
	}
	// One row more than the bound: a last version cut by the LIMIT is told from a whole one.
	rows, err := s.st.Query(ctx, q+" ORDER BY version LIMIT ?", append(args, listenDocs+1)...)
	if err != nil {
		return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	out := Changes{Version: since}
	bytes, cut := 0, false
	for rows.Next() {
		c, n, err := scanChange(rows)
		if err != nil {
			rows.Close()
			return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
		}
		if c.Version != out.Version && (len(out.Changes) >= listenDocs || bytes >= listenBytes) {
			cut = true
			break
		}
		out.Changes = append(out.Changes, c)
		out.Version, bytes = c.Version, bytes+n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	if cut {
		out.More = true
		return out, nil
	}
	if len(out.Changes) <= listenDocs {
		out.Version = max(out.Version, newest)
		return out, nil
	}
	// The LIMIT cut the last version: drop it, or when it is the only one, read it whole.
	last := out.Version
	for len(out.Changes) > 0 && out.Changes[len(out.Changes)-1].Version == last {
		out.Changes = out.Changes[:len(out.Changes)-1]
	}
	if len(out.Changes) > 0 {
		out.Version = out.Changes[len(out.Changes)-1].Version
		out.More = true
		return out, nil
	}
	// One version past the bounds alone: what follows it is the next answer's.
	out, err = s.readVersion(ctx, owner, last)
	out.More = err == nil
	return out, err
}

// readVersion reads every change of one version of owner's: one batch, which MaxWrites and
// MaxBatchBytes bound.
func (s *Store) readVersion(ctx context.Context, owner string, v int64) (Changes, error) {
	rows, err := s.st.Query(ctx, "SELECT path, fields, create_time, update_time, version FROM docs WHERE owner = ? AND version = ?", owner, v)
	if err != nil {
		return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	defer rows.Close()
	out := Changes{Version: v}
	for rows.Next() {
		c, _, err := scanChange(rows)
		if err != nil {
			return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
		}
		out.Changes = append(out.Changes, c)
	}
	if err := rows.Err(); err != nil {
		return Changes{}, fmt.Errorf("docstore: listen %s: %w", owner, err)
	}
	return out, nil
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
