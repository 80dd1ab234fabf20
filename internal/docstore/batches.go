package docstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/store"
)

// rememberedAnswer looks for the answer given to req's batch, or to a later one: a batch whose
// BatchID is not above the last answered is never applied again. found reports whether the
// batch was answered before; the answer is then the first one, or, when it is no longer kept,
// a failed-precondition that says so.
func (g *groupReads) rememberedAnswer(ctx context.Context, tx *store.Tx, owner string, req CommitRequest) (a answer, found bool, err error) {
	if a, ok := g.answers[clientKey{owner, req.ClientID}][req.BatchID]; ok {
		return a, true, nil
	}
	var last int64
	var result string
	err = tx.QueryRow(ctx, "SELECT batch_id, result FROM doc_batches WHERE owner = ? AND client_id = ? ORDER BY batch_id DESC LIMIT 1",
		owner, req.ClientID).Scan(&last, &result)
	if errors.Is(err, sql.ErrNoRows) || err == nil && last < req.BatchID {
		return answer{}, false, nil
	}
	if err != nil {
		return answer{}, false, fmt.Errorf("read the last batch of %q: %w", req.ClientID, err)
	}
	if last != req.BatchID {
		err = tx.QueryRow(ctx, "SELECT result FROM doc_batches WHERE owner = ? AND client_id = ? AND batch_id = ?",
			owner, req.ClientID, req.BatchID).Scan(&result)
		if errors.Is(err, sql.ErrNoRows) {
			return answer{err: &status.Error{Code: status.ErrFailedPrecondition, Message: fmt.Sprintf(
				"batch %d of client %q is below its last batch, %d, and answers are kept for the last %d batch ids only: it was not applied", req.BatchID, req.ClientID, last, keptBatches)}}, true, nil
		}
		if err != nil {
			return answer{}, false, fmt.Errorf("read batch %d of %q: %w", req.BatchID, req.ClientID, err)
		}
	}
	a, err = decodeAnswer(result)
	if err != nil {
		return answer{}, false, fmt.Errorf("batch %d of %q: %w", req.BatchID, req.ClientID, err)
	}
	return a, true, nil
}

// remember keeps a batch's final answer for exactly-once delivery: in memory for the rest of
// the group, and in doc_batches when the group is written (writeBookkeeping).
func (g *groupReads) remember(p *pending, a answer) error {
	raw, err := encodeAnswer(a)
	if err != nil {
		return err
	}
	k := clientKey{p.caller, p.req.ClientID}
	g.answered = append(g.answered, answeredBatch{k, p.req.BatchID, string(raw)})
	if g.answers[k] == nil {
		g.answers[k] = map[int64]answer{}
	}
	g.answers[k][p.req.BatchID] = a
	g.lastBatch[k] = max(g.lastBatch[k], p.req.BatchID)
	return nil
}

// writeBookkeeping writes what the group's batches left in memory, each table in one
// statement (per chunk) rather than one per batch: the answers to remember, forgetting those
// of batch ids more than keptBatches below a client's last, and the write-rate buckets.
func (g *groupReads) writeBookkeeping(ctx context.Context, tx *store.Tx) error {
	const chunk = 200
	for rows := g.answered; len(rows) > 0; {
		part := rows[:min(len(rows), chunk)]
		rows = rows[len(part):]
		q := "INSERT INTO doc_batches (owner, client_id, batch_id, result) VALUES " + strings.Repeat("(?, ?, ?, ?), ", len(part)-1) + "(?, ?, ?, ?)"
		var args []any
		for _, b := range part {
			args = append(args, b.key.owner, b.key.client, b.id, b.result)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("remember the answers: %w", err)
		}
	}
	var forget []any
	for k := range g.answers {
		if last := g.lastBatch[k]; last > keptBatches {
			forget = append(forget, k.owner, k.client, last-keptBatches)
		}
	}
	for len(forget) > 0 {
		part := forget[:min(len(forget), 3*chunk)]
		forget = forget[len(part):]
		q := "DELETE FROM doc_batches WHERE " + strings.Repeat("(owner = ? AND client_id = ? AND batch_id <= ?) OR ", len(part)/3-1) +
			"(owner = ? AND client_id = ? AND batch_id <= ?)"
		if _, err := tx.Exec(ctx, q, part...); err != nil {
			return fmt.Errorf("forget old answers: %w", err)
		}
	}
	var owners []string
	for o := range g.charged {
		owners = append(owners, o)
	}
	for len(owners) > 0 {
		part := owners[:min(len(owners), chunk)]
		owners = owners[len(part):]
		q := "INSERT INTO doc_rate (owner, tokens, at) VALUES " + strings.Repeat("(?, ?, ?), ", len(part)-1) +
			"(?, ?, ?) ON CONFLICT (owner) DO UPDATE SET tokens = excluded.tokens, at = excluded.at"
		var args []any
		for _, o := range part {
			args = append(args, o, g.buckets[o].tokens, g.buckets[o].at)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("charge the write rates: %w", err)
		}
	}
	return nil
}

// storedAnswer is an answer as doc_batches keeps it: the commit's result in its JSON form, or
// the error's code and public message.
type storedAnswer struct {
	Result *CommitResult `json:"result,omitempty"`
	Error  *storedError  `json:"error,omitempty"`
}

type storedError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func encodeAnswer(a answer) ([]byte, error) {
	if a.err == nil {
		return json.Marshal(storedAnswer{Result: &a.result})
	}
	var e *status.Error
	if !errors.As(a.err, &e) {
		return nil, fmt.Errorf("only a domain error is an answer to keep: %w", a.err)
	}
	return json.Marshal(storedAnswer{Error: &storedError{Code: e.Code.Error(), Message: e.Message}})
}

func decodeAnswer(raw string) (answer, error) {
	var s storedAnswer
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return answer{}, fmt.Errorf("stored answer: %w", err)
	}
	switch {
	case s.Result != nil:
		return answer{result: *s.Result}, nil
	case s.Error != nil:
		for _, code := range []error{status.ErrInvalidArgument, status.ErrUnauthenticated, status.ErrNotFound, status.ErrPermissionDenied,
			status.ErrFailedPrecondition, status.ErrAborted, status.ErrResourceExhausted, status.ErrUnavailable} {
			if code.Error() == s.Error.Code {
				return answer{err: &status.Error{Code: code, Message: s.Error.Message}}, nil
			}
		}
		return answer{}, fmt.Errorf("stored answer: unknown code %q", s.Error.Code)
	}
	return answer{}, errors.New("stored answer: neither a result nor an error")
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
