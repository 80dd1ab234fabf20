package docstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"handy/internal/docstore/status"
	"handy/internal/store"
)

// keptBatches is how many of a client's batch ids, up to its last, keep their answers.
const keptBatches = 32

// exactlyOnce is what a group knows of the batches clients numbered (ClientID, BatchID): a
// batch whose BatchID is not above the last answered for its client is never applied again,
// and gets the first answer back. It is read when the group begins, kept up to date as each
// batch is answered, and written to doc_batches when the group ends.
type exactlyOnce struct {
	lastBatch map[clientKey]int64            // the last batchId answered; absent: none
	answers   map[clientKey]map[int64]answer // answers given in this group, by batchId
	answered  []answeredBatch                // the same, to write to doc_batches
}

type clientKey struct{ owner, client string }

type answeredBatch struct {
	key    clientKey
	id     int64
	result string
}

func newExactlyOnce() exactlyOnce {
	return exactlyOnce{lastBatch: map[clientKey]int64{}, answers: map[clientKey]map[int64]answer{}}
}

// read reads the last batch ids of the group's clients.
func (e *exactlyOnce) read(ctx context.Context, tx *store.Tx, owners, clients []string) error {
	if len(clients) == 0 {
		return nil
	}
	// Owners and clients are crossed: a few pairs too many are read and ignored.
	err := selectIn(ctx, tx, "SELECT owner, client_id, MAX(batch_id) FROM doc_batches WHERE owner IN ", owners,
		func(q *strings.Builder, args []any) []any {
			q.WriteString(" AND client_id IN ")
			return appendIn(q, args, clients)
		},
		func(rows *sql.Rows) error {
			var k clientKey
			var last int64
			if err := rows.Scan(&k.owner, &k.client, &last); err != nil {
				return err
			}
			e.lastBatch[k] = last
			return nil
		}, " GROUP BY owner, client_id")
	if err != nil {
		return fmt.Errorf("read the last batches: %w", err)
	}
	return nil
}

// replays reports whether p's batch was numbered and answered before, so that its answer must
// be looked up instead of the batch applied.
func (e *exactlyOnce) replays(p *pending) bool {
	last, ok := e.lastBatch[clientKey{p.caller, p.req.ClientID}]
	return ok && p.req.ClientID != "" && p.req.BatchID <= last
}

// rememberedAnswer looks for the answer given to req's batch, or to a later one: a batch whose
// BatchID is not above the last answered is never applied again. found reports whether the
// batch was answered before; the answer is then the first one, or, when it is no longer kept,
// a failed-precondition that says so.
func (e *exactlyOnce) rememberedAnswer(ctx context.Context, tx *store.Tx, owner string, req CommitRequest) (a answer, found bool, err error) {
	if a, ok := e.answers[clientKey{owner, req.ClientID}][req.BatchID]; ok {
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
// the group, and in doc_batches when the group is written (write).
func (e *exactlyOnce) remember(p *pending, a answer) error {
	raw, err := encodeAnswer(a)
	if err != nil {
		return err
	}
	k := clientKey{p.caller, p.req.ClientID}
	e.answered = append(e.answered, answeredBatch{k, p.req.BatchID, string(raw)})
	if e.answers[k] == nil {
		e.answers[k] = map[int64]answer{}
	}
	e.answers[k][p.req.BatchID] = a
	e.lastBatch[k] = max(e.lastBatch[k], p.req.BatchID)
	return nil
}

// write writes the group's answers to doc_batches, in one statement per chunk rather than one
// per batch, and forgets those of batch ids more than keptBatches below a client's last.
func (e *exactlyOnce) write(ctx context.Context, tx *store.Tx) error {
	const chunk = 200
	for rows := e.answered; len(rows) > 0; {
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
	for k := range e.answers {
		if last := e.lastBatch[k]; last > keptBatches {
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
