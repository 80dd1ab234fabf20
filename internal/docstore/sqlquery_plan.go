package docstore

import (
	"strconv"
	"strings"

	"handy/internal/docstore/query"
	"handy/internal/docstore/value"
)

// A query becomes one SQL statement over doc_index, the single-field index
// rows (see indexRows): the documents' JSON is read only for the page of
// rows the index part returns. The plan:
//
//   - The driving rows are those of the first normalized ordering's field
//     (or the __name__ rows when there is no explicit ordering), scanned in
//     key order through doc_index's primary key (parent, field, key, path):
//     AppendKey makes that Firestore's value order, and within one parent
//     the byte order of path is the order of document names, so
//     "ORDER BY key, path" is read straight off the index, and a LIMIT stops
//     the scan early.
//   - Each further ordering is a join on that field's row of the same
//     document; the joins also leave out documents lacking an ordered field,
//     as Run does.
//   - A filter on an ordered field constrains that join's key (a key range
//     on the driving field is an index range); a filter on another field is
//     an EXISTS on its row. ARRAY_CONTAINS(_ANY) look at the elements' rows,
//     field "<path>[]".
//   - Those joins and EXISTS name the row by path and field only, never by
//     parent (the path implies it): given the parent, SQLite would take the
//     primary key's (parent, field) prefix and read every row of the field
//     for each driving row; by path it probes doc_index_path.
//   - Cursors are key comparisons on the normalized ordering, expanded
//     position by position because the directions may differ.
//   - __name__ filters and cursor positions compare the __name__ rows' keys
//     when those rows drive, and otherwise d.path as text (namePathExpr),
//     which needs no row: within one parent, paths compare as names.
//
// Every SQL fragment below is a constant; values go in as arguments.

// queryStatement is a planned query: text with ? placeholders and its
// arguments. Its rows come in the query's order, limitToLast included (the
// page is chosen in the flipped order, then sorted back), so that they can be
// handed on as they are read.
type queryStatement struct {
	text string
	args []any
}

// sqlWriter accumulates SQL text and its arguments in step, so that the
// placeholders and the arguments cannot drift apart.
type sqlWriter struct {
	b    strings.Builder
	args []any
}

func (w *sqlWriter) add(text string, args ...any) {
	w.b.WriteString(text)
	w.args = append(w.args, args...)
}

// addExpr adds an expression built elsewhere with its arguments.
func (w *sqlWriter) addExpr(text string, args []any) { w.add(text, args...) }

// placeholders writes "(?, ?, ...)" for keys.
func (w *sqlWriter) placeholders(keys [][]byte) {
	w.add("(")
	for i, k := range keys {
		if i > 0 {
			w.add(", ")
		}
		w.add("?", k)
	}
	w.add(")")
}

// planColumn is one normalized ordering as the statement sees it.
type planColumn struct {
	alias string // the doc_index row holding its key ("d", "o1"...); "" for __name__ compared by path
	name  bool   // __name__
	desc  bool   // direction in the statement (flipped for limitToLast)
}

// planQuery builds the statement for a valid q; ok is false when q can match
// nothing (an IN list of only null and NaN, NOT_IN with null...), in which
// case no SQL needs to run. driver is -1 to drive by the first ordering, or
// the index in q.Where of a filter that drivingFilter accepts, whose
// matching rows then drive (see Store.Query for the choice).
func planQuery(q query.Query, driver int) (st queryStatement, ok bool) {
	parent := q.Parent.String()
	orders := q.Normalized()
	byOrder := driver < 0
	cols := make([]planColumn, len(orders))
	fieldAlias := map[string]string{} // ordered field → the alias of its row
	nameAlias := ""
	for i, o := range orders {
		alias := "o" + strconv.Itoa(i)
		if i == 0 && byOrder {
			alias = "d"
		}
		if o.Field.IsName() {
			if alias == "d" {
				nameAlias = "d"
			} else {
				alias = "" // compared by path (see namePathExpr), no row needed
			}
		} else {
			fieldAlias[o.Field.String()] = alias
		}
		cols[i] = planColumn{alias: alias, name: o.Field.IsName(), desc: o.Descending != q.LimitToLast}
	}

	var where sqlWriter
	first := value.NameField
	if byOrder && !orders[0].Field.IsName() {
		first = orders[0].Field.String()
	}
	if !byOrder {
		var field string
		if field, ok = driverCondition(&where, q.Where[driver]); !ok {
			return queryStatement{}, false
		}
		first = field
	}
	for i, f := range q.Where {
		if i != driver && !filterSQL(&where, f, q.Parent, fieldAlias, nameAlias) {
			return queryStatement{}, false
		}
	}
	for _, c := range []struct {
		cur   *query.Cursor
		start bool
	}{{q.StartAt, true}, {q.EndAt, false}} {
		if c.cur != nil {
			cursorSQL(&where, c.cur, c.start, q.Parent, cols, orders)
		}
	}

	// Within one parent, path's byte order is __name__'s (the same prefix,
	// then the id), which keeps ORDER BY on the primary key's columns: key
	// then path when driving by the first ordering, path alone within one
	// key when driving by an EQUAL filter with the name first.
	var w sqlWriter
	w.add("SELECT x.path, x.fields, x.create_time, x.update_time, x.version FROM (SELECT d.path AS path")
	var inner, outer strings.Builder
	for i, c := range cols {
		if i > 0 {
			inner.WriteString(", ")
			outer.WriteString(", ")
		}
		col, pageCol := c.alias+".key", "page.k"+strconv.Itoa(i)
		switch {
		case c.name && c.alias == "d":
			col = "d.key" // the __name__ rows themselves: keep to the primary key's order
		case c.name:
			col, pageCol = "d.path", "page.path"
		}
		if pageCol != "page.path" {
			w.add(", " + col + " AS k" + strconv.Itoa(i))
		}
		dir, outerDir := " ASC", " ASC"
		if c.desc {
			dir = " DESC"
		}
		if c.desc != q.LimitToLast { // the query's own direction
			outerDir = " DESC"
		}
		inner.WriteString(col + dir)
		outer.WriteString(pageCol + outerDir)
		if c.name {
			break // the name makes the order total
		}
	}
	w.add(" FROM doc_index d")
	for i, o := range orders {
		if cols[i].alias != "d" && !o.Field.IsName() {
			joinRow(&w, cols[i].alias, o.Field.String())
		}
	}
	w.add(" WHERE d.parent = ? AND d.field = ?", parent, first)
	w.add(where.b.String(), where.args...)
	w.add(" ORDER BY " + inner.String())
	if q.Limit > 0 {
		w.add(" LIMIT ?", int64(q.Limit))
	}
	w.add(") page JOIN docs x ON x.path = page.path WHERE x.fields IS NOT NULL ORDER BY " + outer.String())
	return queryStatement{text: w.b.String(), args: w.args}, true
}

// joinRow joins the row of field of the driving row's document.
func joinRow(w *sqlWriter, alias, field string) {
	w.add(" JOIN doc_index "+alias+" ON "+alias+".path = d.path AND "+alias+".field = ?", field)
}

// cursorSQL appends the condition of a cursor: the document's position
// compared with the cursor's, lexicographically over the cursor's prefix of
// the ordering, each position in its direction. As Run: a start keeps
// documents after the position (at it too when Before), an end those before
// it (at it too unless Before).
func cursorSQL(w *sqlWriter, c *query.Cursor, start bool, parent value.Path, cols []planColumn, orders []query.Order) {
	// cmp is the condition "position i of the document op the cursor's":
	// a key comparison, or for the name (unless its rows drive) a path one.
	cmp := func(i int, op string) (string, []any) {
		v := c.Values[i]
		switch {
		case cols[i].name && cols[i].alias != "d":
			return namePathExpr(parent, query.NamePath(v), op)
		case cols[i].name:
			return "d.key " + op + " ?", []any{value.PathKey(query.NamePath(v))}
		}
		return cols[i].alias + ".key " + op + " ?", []any{value.AppendKey(nil, v)}
	}
	// "past" moves away from the position in the direction kept: after it
	// for a start, before it for an end, in the query's own directions
	// (limitToLast flips only the statement's).
	past := func(i int) string {
		if orders[i].Descending == start {
			return "<"
		}
		return ">"
	}
	// The first position also bounds its column alone: when it is the
	// driving key, the index range starts (or ends) at the cursor instead of
	// being filtered.
	w.add(" AND ")
	w.addExpr(cmp(0, past(0)+"="))
	w.add(" AND (")
	for i := range c.Values {
		if i > 0 {
			w.add(" OR ")
		}
		w.add("(")
		for j := range i {
			w.addExpr(cmp(j, "="))
			w.add(" AND ")
		}
		w.addExpr(cmp(i, past(i)))
		w.add(")")
	}
	if inclusive := c.Before == start; inclusive {
		w.add(" OR (")
		for j := range c.Values {
			if j > 0 {
				w.add(" AND ")
			}
			w.addExpr(cmp(j, "="))
		}
		w.add(")")
	}
	w.add(")")
}
