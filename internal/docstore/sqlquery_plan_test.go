package docstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore/query"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// historyQuery is the history screen's query, BenchmarkQueryHistory's.
func historyQuery(tb testing.TB) query.Query {
	return query.Query{
		Parent:  mustParse(tb, value.ParseCollectionPath, "users/u1/history"),
		Where:   []query.Filter{{Field: value.FieldPath{"tool"}, Op: query.OpEqual, Value: valuetest.Str("speed")}},
		OrderBy: []query.Order{{Field: value.FieldPath{"createdAt"}, Descending: true}},
		Limit:   50,
	}
}

// TestQueryPlanSQLite checks how SQLite runs the planned statements: the
// driving rows come off doc_index's primary key, every other row of the
// document is a probe of doc_index_path, nothing scans a table, and when the
// ordering is one field (and the name) the index order serves ORDER BY, so
// that LIMIT stops the scan early.
func TestQueryPlanSQLite(t *testing.T) {
	st := storetest.Engines()[0].Open(t)
	at := value.Value{Kind: value.Timestamp, Time: time.Unix(1700000000, 0).UTC()}
	name := valuetest.Str("users/u1/history/x")
	next := historyQuery(t)
	next.StartAt = &query.Cursor{Values: []value.Value{at, name}}
	ranged := historyQuery(t)
	ranged.Where = append(ranged.Where, query.Filter{Field: value.FieldPath{"result"}, Op: query.OpGreaterThan, Value: valuetest.Dbl(10)})
	byName := historyQuery(t)
	byName.OrderBy, byName.StartAt = nil, &query.Cursor{Values: []value.Value{name}}
	two := historyQuery(t)
	two.OrderBy = append(two.OrderBy, query.Order{Field: value.FieldPath{"result"}})
	last := historyQuery(t)
	last.LimitToLast = true
	tests := []struct {
		name     string
		q        query.Query
		byFilter bool // driven by the filter tool == X
		sorted   bool // ORDER BY needs a sort
	}{
		{"history", historyQuery(t), false, false},
		{"next page", next, false, false},
		// The page is read off the index in the flipped order, LIMIT stopping the scan, then
		// its rows (at most the limit) are sorted back into the query's, to be streamed.
		{"limitToLast", last, false, true},
		{"by name", byName, false, false},
		{"range filter on another field", ranged, false, true},
		{"two orderings", two, false, true},
		{"history by the filter", historyQuery(t), true, true},
		{"next page by the filter", next, true, true},
		{"by name, by the filter", byName, true, false},
	}
	for _, tt := range tests {
		driver := -1
		if tt.byFilter {
			driver = 0
		}
		stmt, ok := planQuery(tt.q, driver)
		if !ok {
			t.Fatalf("%s: planned as empty", tt.name)
		}
		plan := explainSQLite(t, st, stmt)
		drive := "SEARCH d USING COVERING INDEX sqlite_autoindex_doc_index_1 (parent=? AND field=?"
		if tt.byFilter {
			drive += " AND key=?"
		}
		if !strings.Contains(plan, drive) {
			t.Errorf("%s: the driving rows do not come off the primary key:\n%s", tt.name, plan)
		}
		for _, line := range strings.Split(plan, "\n") {
			switch {
			case strings.HasPrefix(line, "SCAN") && line != "SCAN page":
				t.Errorf("%s: a scan: %s\n%s", tt.name, line, plan)
			case strings.HasPrefix(line, "SEARCH") && !strings.HasPrefix(line, "SEARCH d ") &&
				!strings.HasPrefix(line, "SEARCH x ") && !strings.Contains(line, "INDEX doc_index_path (path=?"):
				t.Errorf("%s: a row of the document not probed by path: %s\n%s", tt.name, line, plan)
			}
		}
		if sorts := strings.Contains(plan, "TEMP B-TREE"); sorts != tt.sorted {
			t.Errorf("%s: sorts %v, want %v:\n%s", tt.name, sorts, tt.sorted, plan)
		}
	}
}

// explainSQLite returns the details of EXPLAIN QUERY PLAN, one step a line.
func explainSQLite(t *testing.T, st *store.Store, stmt queryStatement) string {
	t.Helper()
	rows, err := st.Query(context.Background(), "EXPLAIN QUERY PLAN "+stmt.text, stmt.args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "\n")
}
