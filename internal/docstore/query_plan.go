package docstore

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
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
//
// Every SQL fragment below is a constant; values go in as arguments.

// queryStatement is a planned query: text with ? placeholders, its
// arguments, and whether its rows come in reverse (limitToLast).
type queryStatement struct {
	text    string
	args    []any
	reverse bool
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
	alias string // the doc_index row holding its key: "d", "o1", "n"...
	name  bool   // __name__
	desc  bool   // direction in the statement (flipped for limitToLast)
}

// planQuery builds the statement for a valid q; ok is false when q can match
// nothing (an IN list of only null and NaN, NOT_IN with null...), in which
// case no SQL needs to run.
func planQuery(q Query) (st queryStatement, ok bool) {
	parent := q.Parent.String()
	orders := q.Normalized()
	cols := make([]planColumn, len(orders))
	fieldAlias := map[string]string{} // ordered field → the alias of its row
	nameAlias := ""
	for i, o := range orders {
		alias := "o" + strconv.Itoa(i)
		if i == 0 {
			alias = "d"
		}
		if o.Field.isName() {
			if i == 0 {
				nameAlias = "d"
			} else {
				alias = "" // set below: only joined when a filter or cursor needs it
			}
		} else {
			fieldAlias[o.Field.String()] = alias
		}
		cols[i] = planColumn{alias: alias, name: o.Field.isName(), desc: o.Descending != q.LimitToLast}
	}
	if nameAlias == "" && needsNameKey(q, orders) {
		nameAlias = "n"
	}
	for i := range cols {
		if cols[i].name {
			cols[i].alias = nameAlias
		}
	}

	var where sqlWriter
	for _, f := range q.Where {
		if !filterSQL(&where, f, fieldAlias, nameAlias) {
			return queryStatement{}, false
		}
	}
	for _, c := range []struct {
		cur   *Cursor
		start bool
	}{{q.StartAt, true}, {q.EndAt, false}} {
		if c.cur != nil {
			cursorSQL(&where, c.cur, c.start, cols, orders)
		}
	}

	var w sqlWriter
	w.add("SELECT x.path, x.fields, x.create_time, x.update_time, x.version FROM (SELECT d.path AS path")
	for i, c := range cols {
		if !c.name || i == 0 {
			w.add(", " + c.alias + ".key AS k" + strconv.Itoa(i))
		}
	}
	w.add(" FROM doc_index d")
	for i, o := range orders {
		if i > 0 && !o.Field.isName() {
			joinRow(&w, cols[i].alias, o.Field.String())
		}
	}
	if nameAlias == "n" {
		joinRow(&w, "n", nameField)
	}
	first := nameField
	if !orders[0].Field.isName() {
		first = orders[0].Field.String()
	}
	w.add(" WHERE d.parent = ? AND d.field = ?", parent, first)
	w.add(where.b.String(), where.args...)

	// Within one parent, path's byte order is __name__'s (the same prefix,
	// then the id), which keeps ORDER BY on the primary key's columns.
	var inner, outer strings.Builder
	for i, c := range cols {
		if i > 0 {
			inner.WriteString(", ")
			outer.WriteString(", ")
		}
		col, pageCol := c.alias+".key", "page.k"+strconv.Itoa(i)
		switch {
		case c.name && i == 0:
			col = "d.key" // the __name__ rows themselves: keep to the primary key's order
		case c.name:
			col, pageCol = "d.path", "page.path"
		}
		dir := " ASC"
		if c.desc {
			dir = " DESC"
		}
		inner.WriteString(col + dir)
		outer.WriteString(pageCol + dir)
		if c.name {
			break // the name makes the order total
		}
	}
	w.add(" ORDER BY " + inner.String())
	if q.Limit > 0 {
		w.add(" LIMIT ?", int64(q.Limit))
	}
	w.add(") page JOIN docs x ON x.path = page.path WHERE x.fields IS NOT NULL ORDER BY " + outer.String())
	return queryStatement{text: w.b.String(), args: w.args, reverse: q.LimitToLast}, true
}

// joinRow joins the row of field of the driving row's document.
func joinRow(w *sqlWriter, alias, field string) {
	w.add(" JOIN doc_index "+alias+" ON "+alias+".path = d.path AND "+alias+".field = ?", field)
}

// needsNameKey reports whether a filter or a cursor compares document names,
// which takes the __name__ row's key: a name filter or cursor may hold any
// document path, also one outside the collection.
func needsNameKey(q Query, orders []Order) bool {
	for _, f := range q.Where {
		if f.Field.isName() {
			return true
		}
	}
	for _, c := range []*Cursor{q.StartAt, q.EndAt} {
		if c != nil && slices.ContainsFunc(orders[:len(c.Values)], func(o Order) bool { return o.Field.isName() }) {
			return true
		}
	}
	return false
}

// filterSQL appends " AND <condition>" for f; false when f matches nothing.
func filterSQL(w *sqlWriter, f Filter, fieldAlias map[string]string, nameAlias string) bool {
	if f.Field.isName() {
		nameKeyCondition(w, nameAlias+".key", f)
		return true
	}
	field := f.Field.String()
	switch f.Op {
	case OpArrayContains, OpArrayContainsAny:
		keys := matchableKeys(f.Value)
		if f.Op == OpArrayContainsAny {
			keys = matchableKeys(f.Value.Array...)
		}
		if len(keys) == 0 {
			return false
		}
		// An array has a row per distinct element under "<path>[]".
		w.add(" AND EXISTS (SELECT 1 FROM doc_index e WHERE e.path = d.path AND e.field = ? AND e.key IN ", field+elementsSuffix)
		w.placeholders(keys)
		w.add(")")
		return true
	}
	if alias, ok := fieldAlias[field]; ok {
		return keyCondition(w, alias+".key", f)
	}
	var cond sqlWriter
	if !keyCondition(&cond, "e.key", f) {
		return false
	}
	w.add(" AND EXISTS (SELECT 1 FROM doc_index e WHERE e.path = d.path AND e.field = ?", field)
	w.add(cond.b.String(), cond.args...)
	w.add(")")
	return true
}

// keyCondition appends " AND ..." constraining col, the key of f's field,
// as Run's matches does: comparisons stay within the operand's type class,
// which is a key range because every key starts with its class's tag byte;
// NOT_EQUAL and NOT_IN exclude null; IN ignores null and NaN.
func keyCondition(w *sqlWriter, col string, f Filter) bool {
	k := AppendKey(nil, f.Value)
	classLow, classHigh := k[:1], []byte{k[0] + 1}
	switch f.Op {
	case OpEqual:
		w.add(" AND "+col+" = ?", k)
	case OpLessThan:
		w.add(" AND "+col+" >= ? AND "+col+" < ?", classLow, k)
	case OpLessThanOrEqual:
		w.add(" AND "+col+" >= ? AND "+col+" <= ?", classLow, k)
	case OpGreaterThan:
		w.add(" AND "+col+" > ? AND "+col+" < ?", k, classHigh)
	case OpGreaterThanOrEqual:
		w.add(" AND "+col+" >= ? AND "+col+" < ?", k, classHigh)
	case OpNotEqual:
		w.add(" AND "+col+" <> ? AND "+col+" <> ?", []byte{keyNull}, k)
	case OpIn:
		keys := matchableKeys(f.Value.Array...)
		if len(keys) == 0 {
			return false
		}
		w.add(" AND " + col + " IN ")
		w.placeholders(keys)
	case OpNotIn:
		if slices.ContainsFunc(f.Value.Array, isNull) {
			return false
		}
		w.add(" AND "+col+" <> ? AND "+col+" NOT IN ", []byte{keyNull})
		w.placeholders(distinctKeys(f.Value.Array))
	default:
		return false // Validate refuses other operators
	}
	return true
}

// nameKeyCondition appends the condition of a __name__ filter on col, the
// __name__ row's key, whose bytes order is Path.Compare.
func nameKeyCondition(w *sqlWriter, col string, f Filter) {
	if f.Op == OpIn || f.Op == OpNotIn {
		keys := make([][]byte, 0, len(f.Value.Array))
		for _, v := range f.Value.Array {
			keys = append(keys, nameKey(namePath(v)))
		}
		op := " IN "
		if f.Op == OpNotIn {
			op = " NOT IN "
		}
		w.add(" AND " + col + op)
		w.placeholders(keys)
		return
	}
	op := " = ?"
	switch f.Op {
	case OpNotEqual:
		op = " <> ?"
	case OpLessThan:
		op = " < ?"
	case OpLessThanOrEqual:
		op = " <= ?"
	case OpGreaterThan:
		op = " > ?"
	case OpGreaterThanOrEqual:
		op = " >= ?"
	}
	w.add(" AND "+col+op, nameKey(namePath(f.Value)))
}

// matchableKeys returns the distinct keys of the operands that can match:
// null and NaN operands of IN and the array operators match nothing (Run).
func matchableKeys(vs ...Value) [][]byte {
	return distinctKeys(slices.DeleteFunc(slices.Clone(vs), func(v Value) bool { return isNull(v) || isNaN(v) }))
}

func distinctKeys(vs []Value) [][]byte {
	keys := make([][]byte, 0, len(vs))
	for _, v := range vs {
		keys = append(keys, AppendKey(nil, v))
	}
	slices.SortFunc(keys, bytes.Compare)
	return slices.CompactFunc(keys, bytes.Equal)
}

// cursorSQL appends the condition of a cursor: the document's position
// compared with the cursor's, lexicographically over the cursor's prefix of
// the ordering, each position in its direction. As Run: a start keeps
// documents after the position (at it too when Before), an end those before
// it (at it too unless Before).
func cursorSQL(w *sqlWriter, c *Cursor, start bool, cols []planColumn, orders []Order) {
	keys := make([][]byte, len(c.Values))
	for i, v := range c.Values {
		if orders[i].Field.isName() {
			keys[i] = nameKey(namePath(v))
		} else {
			keys[i] = AppendKey(nil, v)
		}
	}
	// "past" is the comparison that moves away from the position in the
	// direction kept: after it for a start, before it for an end, in the
	// query's own directions (limitToLast flips only the statement's).
	past := func(i int) string {
		if orders[i].Descending == start {
			return " < ?"
		}
		return " > ?"
	}
	// The first position also bounds the driving key alone, so that the
	// index range starts (or ends) at the cursor instead of being filtered.
	if orders[0].Descending == start {
		w.add(" AND d.key <= ?", keys[0])
	} else {
		w.add(" AND d.key >= ?", keys[0])
	}
	w.add(" AND (")
	for i := range keys {
		if i > 0 {
			w.add(" OR ")
		}
		w.add("(")
		for j := range i {
			w.add(cols[j].alias+".key = ? AND ", keys[j])
		}
		w.add(cols[i].alias+".key"+past(i), keys[i])
		w.add(")")
	}
	inclusive := c.Before == start
	if inclusive {
		w.add(" OR (")
		for j := range keys {
			if j > 0 {
				w.add(" AND ")
			}
			w.add(cols[j].alias+".key = ?", keys[j])
		}
		w.add(")")
	}
	w.add(")")
}
