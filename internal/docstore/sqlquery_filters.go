package docstore

import (
	"bytes"
	"slices"
	"strings"

	"handy/internal/docstore/query"
	"handy/internal/docstore/value"
)

// The conditions of filters, as key comparisons on doc_index rows (see
// planQuery), and the choice of a filter to drive a query.

// drivingFilter returns the index in q.Where of a filter whose matching
// index rows can drive q instead of its first ordering's, or -1: an EQUAL
// or IN on a field (one row per document, so no document comes twice), or
// an ARRAY_CONTAINS (one row per distinct element), not on the first
// ordered field, which already drives with the filter as its key range.
func drivingFilter(q query.Query) int {
	first := q.Normalized()[0].Field
	for i, f := range q.Where {
		switch {
		case f.Field.IsName():
		case f.Op == query.OpArrayContains:
			return i
		case (f.Op == query.OpEqual || f.Op == query.OpIn) && !f.Field.Equal(first):
			return i
		}
	}
	return -1
}

// driverCondition appends the key condition of a driving filter (see
// drivingFilter) on d and returns the field of its rows; false when it
// matches nothing.
func driverCondition(w *sqlWriter, f query.Filter) (field string, ok bool) {
	if f.Op == query.OpArrayContains {
		keys := matchableKeys(f.Value)
		if len(keys) == 0 {
			return "", false
		}
		w.add(" AND d.key = ?", keys[0])
		return f.Field.String() + elementsSuffix, true
	}
	return f.Field.String(), keyCondition(w, "d.key", f)
}

// filterSQL appends " AND <condition>" for f; false when f matches nothing.
func filterSQL(w *sqlWriter, f query.Filter, parent value.Path, fieldAlias map[string]string, nameAlias string) bool {
	if f.Field.IsName() && nameAlias == "d" {
		nameKeyCondition(w, "d.key", f)
		return true
	}
	if f.Field.IsName() {
		return namePathFilter(w, parent, f)
	}
	field := f.Field.String()
	switch f.Op {
	case query.OpArrayContains, query.OpArrayContainsAny:
		keys := matchableKeys(f.Value)
		if f.Op == query.OpArrayContainsAny {
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
func keyCondition(w *sqlWriter, col string, f query.Filter) bool {
	k := value.AppendKey(nil, f.Value)
	classLow, classHigh := k[:1], []byte{k[0] + 1}
	nullKey := value.AppendKey(nil, value.Value{Kind: value.Null})
	switch f.Op {
	case query.OpEqual:
		w.add(" AND "+col+" = ?", k)
	case query.OpLessThan:
		w.add(" AND "+col+" >= ? AND "+col+" < ?", classLow, k)
	case query.OpLessThanOrEqual:
		w.add(" AND "+col+" >= ? AND "+col+" <= ?", classLow, k)
	case query.OpGreaterThan:
		w.add(" AND "+col+" > ? AND "+col+" < ?", k, classHigh)
	case query.OpGreaterThanOrEqual:
		w.add(" AND "+col+" >= ? AND "+col+" < ?", k, classHigh)
	case query.OpNotEqual:
		w.add(" AND "+col+" <> ? AND "+col+" <> ?", nullKey, k)
	case query.OpIn:
		keys := matchableKeys(f.Value.Array...)
		if len(keys) == 0 {
			return false
		}
		w.add(" AND " + col + " IN ")
		w.placeholders(keys)
	case query.OpNotIn:
		if slices.ContainsFunc(f.Value.Array, func(v value.Value) bool { return v.Kind == value.Null }) {
			return false
		}
		w.add(" AND "+col+" <> ? AND "+col+" NOT IN ", nullKey)
		w.placeholders(distinctKeys(f.Value.Array))
	default:
		return false // Validate refuses other operators
	}
	return true
}

// nameKeyCondition appends the condition of a __name__ filter on col, the
// __name__ row's key, whose bytes order is Path.Compare.
func nameKeyCondition(w *sqlWriter, col string, f query.Filter) {
	if f.Op == query.OpIn || f.Op == query.OpNotIn {
		keys := make([][]byte, 0, len(f.Value.Array))
		for _, v := range f.Value.Array {
			keys = append(keys, value.PathKey(query.NamePath(v)))
		}
		op := " IN "
		if f.Op == query.OpNotIn {
			op = " NOT IN "
		}
		w.add(" AND " + col + op)
		w.placeholders(keys)
		return
	}
	op := " = ?"
	switch f.Op {
	case query.OpNotEqual:
		op = " <> ?"
	case query.OpLessThan:
		op = " < ?"
	case query.OpLessThanOrEqual:
		op = " <= ?"
	case query.OpGreaterThan:
		op = " > ?"
	case query.OpGreaterThanOrEqual:
		op = " >= ?"
	}
	w.add(" AND "+col+op, value.PathKey(query.NamePath(f.Value)))
}

// matchableKeys returns the distinct keys of the operands that can match:
// null and NaN operands of IN and the array operators match nothing (Run).
func matchableKeys(vs ...value.Value) [][]byte {
	return distinctKeys(slices.DeleteFunc(slices.Clone(vs), func(v value.Value) bool { return !query.Matchable(v) }))
}

func distinctKeys(vs []value.Value) [][]byte {
	keys := make([][]byte, 0, len(vs))
	for _, v := range vs {
		keys = append(keys, value.AppendKey(nil, v))
	}
	slices.SortFunc(keys, bytes.Compare)
	return slices.CompactFunc(keys, bytes.Equal)
}

// namePathFilter appends the condition of a __name__ filter as comparisons
// of d.path (see namePathExpr); false when it matches nothing.
func namePathFilter(w *sqlWriter, parent value.Path, f query.Filter) bool {
	if f.Op == query.OpIn || f.Op == query.OpNotIn {
		// Only a document directly in parent can be equal to one of ours.
		var paths []any
		for _, v := range f.Value.Array {
			if p := query.NamePath(v); p.Parent().Equal(parent) {
				paths = append(paths, p.String())
			}
		}
		switch {
		case len(paths) == 0:
			return f.Op == query.OpNotIn
		case f.Op == query.OpIn:
			w.add(" AND d.path IN (?"+strings.Repeat(", ?", len(paths)-1)+")", paths...)
		default:
			w.add(" AND d.path NOT IN (?"+strings.Repeat(", ?", len(paths)-1)+")", paths...)
		}
		return true
	}
	op := map[query.Op]string{query.OpEqual: "=", query.OpNotEqual: "<>", query.OpLessThan: "<",
		query.OpLessThanOrEqual: "<=", query.OpGreaterThan: ">", query.OpGreaterThanOrEqual: ">="}[f.Op]
	w.add(" AND ")
	w.addExpr(namePathExpr(parent, query.NamePath(f.Value), op))
	return true
}

// namePathExpr returns the condition "the document's name op target" (op:
// = <> < <= > >=) on d.path, for the documents of parent only: within one
// parent, Path.Compare is the byte order of the paths (the same prefix, then
// the id), which the text columns keep (COLLATE "C" in PostgreSQL). A
// target elsewhere compares the same with every document of parent, or sits
// just after the document parent/id it is below.
func namePathExpr(parent, target value.Path, op string) (string, []any) {
	n := parent.Len()
	for i := range min(n, target.Len()) {
		// Every document of parent has parent's segments first.
		if c := strings.Compare(parent.Segment(i), target.Segment(i)); c != 0 {
			return truth(cmpHolds(op, c)), nil
		}
	}
	if target.Len() <= n { // an ancestor of parent: every document sorts after it
		return truth(cmpHolds(op, 1)), nil
	}
	boundary := parent.String() + "/" + target.Segment(n)
	if target.Len() == n+1 {
		return "d.path " + op + " ?", []any{boundary}
	}
	switch op { // below parent/id: after that document, before the next id
	case "=":
		return truth(false), nil
	case "<>":
		return truth(true), nil
	case "<", "<=":
		return "d.path <= ?", []any{boundary}
	}
	return "d.path > ?", []any{boundary}
}

// cmpHolds reports whether a comparison result c satisfies op.
func cmpHolds(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "<>":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

// truth is a constant condition both engines accept.
func truth(b bool) string {
	if b {
		return "1 = 1"
	}
	return "1 = 0"
}
