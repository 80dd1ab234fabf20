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
// to date as each batch writes, so that a batch sees the batches before it.
type groupReads struct {
	cfg       Config
	docs      map[string]docRow   // by path; absent: no row
	buckets   map[string]bucket   // by owner; absent: a full bucket
	lastBatch map[clientKey]int64 // the last batchId answered; absent: none
	startLive map[string]bool     // the documents live when the group began: indexed

	// The documents the group changed, written once at its end (flushDocs).
	dirty        map[string]dirtyDoc
	dirtyOrder   []string
	history      map[string]*historyDelta
	historyOrder []string

	// Bookkeeping that no statement of the group reads back, written once at its end.
	charged  map[string]bool                // owners whose bucket changed
	answers  map[clientKey]map[int64]answer // answers given in this group, by batchId
	answered []answeredBatch                // the same, to write to doc_batches
}

type answeredBatch struct {
	key    clientKey
	id     int64
	result string
}

// docRow is a document as the group's batches have left it: a docs row, with the fields
// decoded and the index rows when a batch has them at hand.
type docRow struct {
	live             bool
	raw              []byte
	fields           value.Fields
	rows             []IndexRow
	created, updated int64
}

type bucket struct {
	tokens float64
	at     int64
}

type clientKey struct{ owner, client string }

// inChunk bounds the values of one IN list, well under both engines' parameter limits.
const inChunk = 500

// prefetch reads the documents, write-rate buckets and last batch ids that group will need.
func prefetch(ctx context.Context, tx *store.Tx, group []*pending, cfg Config) (*groupReads, error) {
	g := &groupReads{cfg: cfg, docs: map[string]docRow{}, buckets: map[string]bucket{}, lastBatch: map[clientKey]int64{},
		startLive: map[string]bool{}, dirty: map[string]dirtyDoc{}, history: map[string]*historyDelta{},
		charged: map[string]bool{}, answers: map[clientKey]map[int64]answer{}}
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
	err := selectIn(ctx, tx, "SELECT path, fields, create_time, update_time FROM docs WHERE path IN ", paths, nil,
		func(rows *sql.Rows) error {
			var path string
			var fields sql.NullString
			var d docRow
			if err := rows.Scan(&path, &fields, &d.created, &d.updated); err != nil {
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
	err = selectIn(ctx, tx, "SELECT owner, tokens, at FROM doc_rate WHERE owner IN ", owners, nil,
		func(rows *sql.Rows) error {
			var owner string
			var b bucket
			if err := rows.Scan(&owner, &b.tokens, &b.at); err != nil {
				return err
			}
			g.buckets[owner] = b
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read the write rates: %w", err)
	}
	if len(clients) == 0 {
		return g, nil
	}
	// Owners and clients are crossed: a few pairs too many are read and ignored.
	err = selectIn(ctx, tx, "SELECT owner, client_id, MAX(batch_id) FROM doc_batches WHERE owner IN ", owners,
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
			g.lastBatch[k] = last
			return nil
		}, " GROUP BY owner, client_id")
	if err != nil {
		return nil, fmt.Errorf("read the last batches: %w", err)
	}
	return g, nil
}

// selectIn runs query + "(?, ?, …)" over values in chunks, with more conditions from extra and
// a tail, and hands each row to scan.
func selectIn(ctx context.Context, tx *store.Tx, query string, values []string,
	extra func(*strings.Builder, []any) []any, scan func(*sql.Rows) error, tail ...string) error {
	for len(values) > 0 {
		chunk := values[:min(len(values), inChunk)]
		values = values[len(chunk):]
		var q strings.Builder
		q.WriteString(query)
		args := appendIn(&q, nil, chunk)
		if extra != nil {
			args = extra(&q, args)
		}
		q.WriteString(strings.Join(tail, ""))
		rows, err := tx.Query(ctx, q.String(), args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := scan(rows); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return err
		}
		if err := rows.Close(); err != nil {
			return err
		}
	}
	return nil
}

// appendIn writes "(?, ?, …)" for values and appends them to args.
func appendIn(q *strings.Builder, args []any, values []string) []any {
	q.WriteString("(")
	for i, v := range values {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("?")
		args = append(args, v)
	}
	q.WriteString(")")
	return args
}
