package docstore

import (
	"context"
	"database/sql"
	"strings"

	"handy/internal/store"
)

// inChunk bounds the values of one IN list, well under both engines' parameter limits.
const inChunk = 500

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
