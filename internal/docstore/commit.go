package docstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// Commit limits besides the document's (MaxDocumentBytes, MaxDepth) and Config.MaxWrites.
const (
	MaxDocumentBytes   = 1 << 20 // DocumentSize of one document, Firestore's 1 MiB
	MaxStoredPathBytes = 512     // a written document's path; see MaxIndexEntryBytes
	// MaxBatchBytes bounds the stored size of the documents one batch leaves: merges into
	// large documents could otherwise make one version, which a listen sends whole, huge.
	MaxBatchBytes    = 16 << 20
	MaxClientIDBytes = 128
)

// CommitRequest is an atomic batch of writes, as Firestore REST v1's commit, with ClientID and
// BatchID for exactly-once delivery: a client numbers its batches with increasing BatchIDs,
// and a batch whose BatchID is not above the last one answered for its ClientID is never
// applied again; it gets the first answer back (see Commit).
type CommitRequest struct {
	Writes   []Write
	ClientID string // empty: no exactly-once bookkeeping
	BatchID  int64  // > 0 when ClientID is set
}

// Write is one write of a commit: a delete, or an update that replaces the document (Merge
// false) or sets only the paths of Mask (Merge true: Firestore's updateMask, whose masked paths
// absent from Fields are deleted). An update creates the document if need be.
type Write struct {
	Path         value.Path
	Delete       bool
	Fields       value.Fields
	Merge        bool
	Mask         []value.FieldPath
	Precondition Precondition
}

// Precondition is Firestore's currentDocument: at most one of its conditions may be set.
type Precondition struct {
	Exists     *bool     // the document must exist (true) or must not (false)
	UpdateTime time.Time // non-zero: the document must exist with exactly this updateTime
}

// CommitResult is a commit's answer.
type CommitResult struct {
	WriteResults []WriteResult
	CommitTime   time.Time
	// Version is the store-wide version at which the commit's changes are visible: its own,
	// or, when it changed nothing (only no-op writes), the last one before it.
	Version int64
}

// WriteResult is one write's answer: the document's updateTime after it, which is the commit
// time, or the previous updateTime when the write left the document as it was (as Firestore
// does); zero after a delete.
type WriteResult struct {
	UpdateTime time.Time
}

// Commit applies req atomically for caller, whose documents (users/{caller} and below) are the
// only ones it may write, and answers once the batch is durably committed.
//
// Commits from all callers are queued to one committer, which applies as many as are waiting
// in one transaction (a failing batch fails alone, see commitGroup), then commits once: one
// fsync for many batches. It takes the callers' batches in turn (fairqueue.go), so that one
// caller's backlog of costly batches does not hold up another's. If ctx ends first, Commit returns ctx's error, but a batch already
// queued may still be applied: that is what ClientID and BatchID are for. A capped collection
// (Config.Capped) keeps its Max live entries: the oldest by createTime become tombstones in
// the commit that overfills it.
//
// Other errors are *Error (errors.As finds it, with the cause wrapped beside it for a database
// failure): invalid-argument (the request, or a merged document over the limits),
// unauthenticated, permission-denied, failed-precondition (a precondition, naming the
// document; or a BatchID below the last answered whose answer is no longer kept),
// resource-exhausted (the write rate, with RetryAfter; such an answer is not remembered, so the
// same batch may be sent again later), unavailable (the Store is closed or the database
// failed; nothing was applied unless the database failed while committing, which a resend
// with the same BatchID resolves).
func (s *Store) Commit(ctx context.Context, caller string, req CommitRequest) (CommitResult, error) {
	start := time.Now()
	res, err := s.commit(ctx, caller, req)
	s.metrics.commitDone(err, start)
	return res, err
}

// commit is Commit without its metrics.
func (s *Store) commit(ctx context.Context, caller string, req CommitRequest) (CommitResult, error) {
	writes, err := s.prepare(caller, req)
	if err != nil {
		return CommitResult{}, err
	}
	p := &pending{caller: caller, req: req, writes: writes, cost: estimateCost(writes), answer: make(chan answer, 1)}
	select {
	case <-s.closing:
		return CommitResult{}, errClosed
	default:
	}
	select {
	case s.queue <- p:
	case <-s.closing:
		return CommitResult{}, errClosed
	case <-ctx.Done():
		return CommitResult{}, fmt.Errorf("docstore: commit: %w", ctx.Err())
	}
	select {
	case a := <-p.answer:
		return a.result, a.err
	case <-s.done:
		// Close raced with the send: the committer answered everything it took before it
		// stopped, so an empty answer channel means p was never taken.
		select {
		case a := <-p.answer:
			return a.result, a.err
		default:
			return CommitResult{}, errClosed
		}
	case <-ctx.Done():
		return CommitResult{}, fmt.Errorf("docstore: commit: %w", ctx.Err())
	}
}

var errClosed = &status.Error{Code: status.ErrUnavailable, Message: "the document store is shutting down; try again"}

// prepared is a write checked and, for a replace or delete, made ready on the caller's
// goroutine, so that the committer only reads, compares and writes.
type prepared struct {
	Write
	path   string
	parent string
	json   []byte     // the new fields' JSON, for a replace
	rows   []IndexRow // the new index rows, for a replace
	// patchBytes is a merge's fields' JSON size: what the committer's groups estimate it by.
	patchBytes int
}

// prepare validates a request as far as it can without the stored documents.
func (s *Store) prepare(caller string, req CommitRequest) ([]prepared, error) {
	if caller == "" {
		return nil, authorize(caller, value.Path{})
	}
	if len(req.Writes) > s.cfg.MaxWrites {
		return nil, status.Invalidf("a commit has %d writes, more than %d", len(req.Writes), s.cfg.MaxWrites)
	}
	switch {
	case req.ClientID == "" && req.BatchID != 0:
		return nil, status.Invalidf("batchId needs a clientId")
	case req.ClientID != "" && req.BatchID <= 0:
		return nil, status.Invalidf("clientId needs a batchId above 0")
	case len(req.ClientID) > MaxClientIDBytes || !utf8.ValidString(req.ClientID):
		return nil, status.Invalidf("clientId must be valid UTF-8 of at most %d bytes", MaxClientIDBytes)
	}
	out := make([]prepared, len(req.Writes))
	for i, w := range req.Writes {
		p, err := prepareWrite(caller, w)
		if err != nil {
			if e := (*status.Error)(nil); errors.As(err, &e) && e.Code == status.ErrInvalidArgument {
				return nil, status.Invalidf("write %d: %s", i, e.Message)
			}
			return nil, err
		}
		// A replace does not depend on the stored document: checked here, on the caller's
		// goroutine; a merge is checked once the committer has merged it (apply).
		if !w.Delete && !w.Merge {
			if err := s.cfg.checkDoc(i, w.Path, w.Fields); err != nil {
				return nil, err
			}
		}
		out[i] = p
	}
	// A replace's cost is known here: a batch over the bound is refused before it is queued
	// (applyBatch checks the merged documents too).
	if err := checkCommitCost(estimateCost(out)); err != nil {
		return nil, err
	}
	return out, nil
}

func prepareWrite(caller string, w Write) (prepared, error) {
	if !w.Path.IsDocument() {
		return prepared{}, status.Invalidf("%q is not a document path", w.Path.String())
	}
	if err := authorize(caller, w.Path); err != nil {
		return prepared{}, err
	}
	p := prepared{Write: w, path: w.Path.String(), parent: w.Path.Parent().String()}
	switch {
	case len(p.path) > MaxStoredPathBytes:
		return prepared{}, status.Invalidf("document path %.40q… is longer than %d bytes", p.path, MaxStoredPathBytes)
	case w.Precondition.Exists != nil && !w.Precondition.UpdateTime.IsZero():
		return prepared{}, status.Invalidf("a precondition has both exists and updateTime")
	case w.Delete && (w.Fields != nil || w.Merge || w.Mask != nil):
		return prepared{}, status.Invalidf("a delete has fields or an updateMask")
	case !w.Merge && w.Mask != nil:
		return prepared{}, status.Invalidf("an updateMask needs Merge")
	case w.Delete:
		return p, nil
	}
	for _, fp := range w.Mask {
		if len(fp) == 0 {
			return prepared{}, status.Invalidf("updateMask has an empty field path")
		}
		for _, name := range fp {
			if err := value.ValidFieldName(name); err != nil {
				return prepared{}, status.Invalidf("updateMask %s: %s", fp.String(), err.Error())
			}
		}
	}
	// Encoding validates what a Go caller may have built by hand (names, depth, geo points,
	// timestamps), as decoding validates what came as JSON.
	raw, err := value.EncodeFields(w.Fields)
	if err != nil {
		return prepared{}, err
	}
	if !w.Merge {
		if err := checkSize(p.path, w.Fields); err != nil {
			return prepared{}, err
		}
		p.json, p.rows = raw, indexRows(w.Path, w.Fields)
		if err := checkEntries(p.path, len(p.rows)); err != nil {
			return prepared{}, err
		}
	} else {
		p.patchBytes = len(raw)
	}
	return p, nil
}

// checkSize applies the 1 MiB limit to a document's new content.
func checkSize(path string, f value.Fields) error {
	if n := value.DocumentSize(path, f); n > MaxDocumentBytes {
		return status.Invalidf("document %q would be %d bytes, more than %d (1 MiB)", path, n, MaxDocumentBytes)
	}
	return nil
}

// commitResultJSON is CommitResult in Firestore REST v1's CommitResponse shape, plus our
// version (an int64, so a decimal string as proto3 JSON writes them).
type commitResultJSON struct {
	WriteResults []writeResultJSON `json:"writeResults"`
	CommitTime   string            `json:"commitTime"`
	Version      string            `json:"version"`
}

type writeResultJSON struct {
	UpdateTime string `json:"updateTime,omitempty"`
}

// MarshalJSON encodes r as Firestore REST v1's CommitResponse, with our version:
// {"writeResults":[{"updateTime":"…"},{}],"commitTime":"…","version":"12"}; a delete's result
// is {}.
func (r CommitResult) MarshalJSON() ([]byte, error) {
	out := commitResultJSON{WriteResults: make([]writeResultJSON, len(r.WriteResults)),
		CommitTime: value.FormatTime(r.CommitTime), Version: strconv.FormatInt(r.Version, 10)}
	for i, w := range r.WriteResults {
		if !w.UpdateTime.IsZero() {
			out.WriteResults[i].UpdateTime = value.FormatTime(w.UpdateTime)
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reverses MarshalJSON.
func (r *CommitResult) UnmarshalJSON(raw []byte) error {
	var in commitResultJSON
	if err := json.Unmarshal(raw, &in); err != nil {
		return fmt.Errorf("commit result: %w", err)
	}
	var out CommitResult
	var err error
	if out.CommitTime, err = time.Parse(time.RFC3339Nano, in.CommitTime); err != nil {
		return fmt.Errorf("commit result: commitTime: %w", err)
	}
	if out.Version, err = strconv.ParseInt(in.Version, 10, 64); err != nil {
		return fmt.Errorf("commit result: version: %w", err)
	}
	out.WriteResults = make([]WriteResult, len(in.WriteResults))
	for i, w := range in.WriteResults {
		if w.UpdateTime == "" {
			continue
		}
		if out.WriteResults[i].UpdateTime, err = time.Parse(time.RFC3339Nano, w.UpdateTime); err != nil {
			return fmt.Errorf("commit result: writeResults[%d]: %w", i, err)
		}
	}
	*r = out
	return nil
}
