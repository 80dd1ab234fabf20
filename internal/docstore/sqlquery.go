package docstore

import (
	"context"
	"fmt"

	"handy/internal/docstore/query"
	"handy/internal/docstore/value"
)

// Query answers q for caller, with exactly the results Run gives over the
// stored documents (see Run for every semantic choice), save one exception:
// a value too long to index (MaxIndexEntryBytes) is invisible to filters and
// orderings on its field path, as a Firestore field exempted from indexing
// is. It collects QueryEach's documents: callers that write the answer out
// (the HTTP API) should use QueryEach, which never holds more than one.
func (s *Store) Query(ctx context.Context, caller string, q query.Query) ([]value.Doc, error) {
	docs := []value.Doc{}
	err := s.QueryEach(ctx, caller, q, func(d value.Doc) error {
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return docs, nil
}

// QueryEach answers q as Query does, handing the documents to yield one at a
// time, in the query's order, as they are read: it holds one document, never
// the answer. It runs one SQL statement over the index rows (see planQuery),
// which reads the documents' JSON only for the rows returned; a capped count
// may come first to choose the plan (chooseDriver). The access rule is Get's:
// q.Parent must be under users/{caller}. A hand-built q is validated first.
//
// The statement's connection is held until the last row, however long yield
// takes, so the read waits first for one of the read slots (readslots.go),
// until ctx ends: yield should be quick (the HTTP server spools the answer).
// An error yield returns stops the read and is returned as it is.
func (s *Store) QueryEach(ctx context.Context, caller string, q query.Query, yield func(value.Doc) error) error {
	if err := authorize(caller, q.Parent); err != nil {
		return err
	}
	if err := q.Validate(); err != nil {
		return err
	}
	release, err := s.reads.acquire(ctx, caller)
	if err != nil {
		return fmt.Errorf("docstore: query %s: %w", q.Parent.String(), err)
	}
	defer release()
	driver, err := s.chooseDriver(ctx, q)
	if err != nil {
		return fmt.Errorf("docstore: query %s: %w", q.Parent.String(), err)
	}
	stmt, ok := planQuery(q, driver)
	if !ok {
		return nil
	}
	return s.eachRow(ctx, stmt, q.Parent, yield)
}

// chooseDriver picks the rows that drive q (see planQuery): -1 for its first
// ordering's, or the index of an equality-like filter's (drivingFilter).
// The ordering's rows come in the query's order, so a limit stops the scan
// early, but a rare filter value makes that scan long: a user's 10,000
// history entries scanned for the 50 of a tool used 30 times. The filter's
// rows are all the matches, sorted afterwards. So the filter drives when it
// matches fewer than a few times the limit (counted with a cap, which costs
// at most that many index entries), when there is no limit (everything is
// read anyway), or when the order is by name alone, which is the order an
// EQUAL filter's rows already come in.
func (s *Store) chooseDriver(ctx context.Context, q query.Query) (int, error) {
	i := drivingFilter(q)
	if i < 0 {
		return -1, nil
	}
	f := q.Where[i]
	if q.Limit == 0 || q.Normalized()[0].Field.IsName() && f.Op != query.OpIn {
		return i, nil
	}
	var cond sqlWriter
	field, ok := driverCondition(&cond, f)
	if !ok {
		return -1, nil // matches nothing: planQuery says so whichever drives
	}
	limit := max(minDriverCount, driverCountPerResult*q.Limit)
	var w sqlWriter
	w.add("SELECT COUNT(*) FROM (SELECT 1 FROM doc_index d WHERE d.parent = ? AND d.field = ?", q.Parent.String(), field)
	w.add(cond.b.String(), cond.args...)
	w.add(" LIMIT ?) c", int64(limit))
	var n int
	if err := s.st.QueryRow(ctx, w.b.String(), w.args...).Scan(&n); err != nil {
		return -1, fmt.Errorf("count the matches of where[%d]: %w", i, err)
	}
	if n < limit {
		return i, nil
	}
	return -1, nil
}

// The filter drives when it matches fewer than driverCountPerResult times
// the limit, and at least minDriverCount: sorting that many rows costs about
// what scanning the ordering for a filter that selective does (measured with
// BenchmarkQueryHistory).
const (
	driverCountPerResult = 10
	minDriverCount       = 100
)

// runQuery executes a planned statement and collects its documents (tests).
func (s *Store) runQuery(ctx context.Context, stmt queryStatement) ([]value.Doc, error) {
	docs := []value.Doc{}
	err := s.eachRow(ctx, stmt, value.Path{}, func(d value.Doc) error {
		docs = append(docs, d)
		return nil
	})
	return docs, err
}

// eachRow executes a planned statement and decodes its rows one at a time
// for yield. One statement outside a transaction: it reads one consistent
// snapshot on both engines, and does not queue behind the committer for
// SQLite's write lock. An error from yield stops the read and comes back as
// it is; the database's are named with parent.
func (s *Store) eachRow(ctx context.Context, stmt queryStatement, parent value.Path, yield func(value.Doc) error) error {
	fail := func(err error) error {
		return fmt.Errorf("docstore: query %s: %w", parent.String(), err)
	}
	rows, err := s.st.Query(ctx, stmt.text, stmt.args...)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			path, fields           string
			created, updated, vers int64
		)
		if err := rows.Scan(&path, &fields, &created, &updated, &vers); err != nil {
			return fail(err)
		}
		p, err := value.ParseDocumentPath(path)
		if err != nil {
			return fail(fmt.Errorf("stored path %q: %w", path, err))
		}
		d, err := storedDoc(p, fields, created, updated, vers)
		if err != nil {
			return fail(err)
		}
		if err := yield(d); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	return nil
}
