package docstore

import (
	"context"
	"fmt"
	"slices"
)

// Query answers q for caller, with exactly the results Run gives over the
// stored documents (see Run for every semantic choice), in one SQL statement
// over the index rows (see planQuery): the documents' JSON is read only for
// the rows returned. The access rule is Get's: q.Parent must be under
// users/{caller}. A hand-built q is validated first.
func (s *Store) Query(ctx context.Context, caller string, q Query) ([]Doc, error) {
	if err := authorize(caller, q.Parent); err != nil {
		return nil, err
	}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	stmt, ok := planQuery(q)
	if !ok {
		return []Doc{}, nil
	}
	docs, err := s.runQuery(ctx, stmt)
	if err != nil {
		return nil, fmt.Errorf("docstore: query %s: %w", q.Parent.String(), err)
	}
	return docs, nil
}

// runQuery executes a planned statement and decodes its rows. One statement
// outside a transaction: it reads one consistent snapshot on both engines,
// and does not queue behind the committer for SQLite's write lock.
func (s *Store) runQuery(ctx context.Context, stmt queryStatement) ([]Doc, error) {
	rows, err := s.st.Query(ctx, stmt.text, stmt.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	docs := []Doc{}
	for rows.Next() {
		var (
			path, fields           string
			created, updated, vers int64
		)
		if err := rows.Scan(&path, &fields, &created, &updated, &vers); err != nil {
			return nil, err
		}
		p, err := ParseDocumentPath(path)
		if err != nil {
			return nil, fmt.Errorf("stored path %q: %w", path, err)
		}
		d, err := storedDoc(p, fields, created, updated, vers)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if stmt.reverse {
		slices.Reverse(docs)
	}
	return docs, nil
}
