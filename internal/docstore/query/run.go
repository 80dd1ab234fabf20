package query

import (
	"math"
	"slices"

	"handy/internal/docstore/value"
)

// Run is the reference evaluator: it answers q over docs the slow, obvious
// way, so that the SQL implementation can be checked against it on random
// documents and queries. q must be valid (Validate). Every semantic choice is
// here, each following what Firestore's backend does (its own SDK
// integration tests are the evidence where the documentation is silent):
//
//   - Scope: only documents directly in q.Parent (not in subcollections).
//   - Filters are ANDed. A document lacking a filter's field never matches,
//     whatever the operator (NOT_EQUAL and NOT_IN included). Fields are
//     reached through maps only (a.b inside a map a).
//   - EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN,
//     GREATER_THAN_OR_EQUAL match only values of the filter value's type
//     class (Integer and Double are one class, numbers; every other Kind is
//     its own), compared by Compare within it: x < 5 never matches a string,
//     x > "a" never matches a number. Within numbers, NaN sorts first, so
//     x < 5 matches NaN, x > NaN matches every other number and x >= NaN
//     every number; null compares equal to null only, so x <= null and
//     x >= null match nulls and x < null nothing. Firestore accepts null and
//     NaN with every operator and this is how its order makes them behave.
//   - EQUAL null is IS_NULL (matches null, not a missing field); EQUAL NaN
//     is IS_NAN (matches the Double NaN). 1 == 1.0 and -0 == 0 (numbers
//     compare by value).
//   - NOT_EQUAL matches documents that have the field, not null, with a
//     value of any type not equal to the filter value: x != 5 matches "5",
//     NaN and [5]; x != null (IS_NOT_NULL) matches every non-null value;
//     x != NaN (IS_NOT_NAN) every non-null value but NaN.
//   - IN matches a value equal to one of the list's values; null and NaN in
//     the list match nothing (IN [null] is empty, IN [null, 1] is IN [1]),
//     as Firestore's standard edition does. The list may hold arrays, which
//     match equal arrays.
//   - NOT_IN matches documents that have the field, not null, whose value
//     equals none of the list's; a list holding null matches no document at
//     all; NaN in the list excludes NaN.
//   - ARRAY_CONTAINS matches an Array field with an element equal to the
//     value; ARRAY_CONTAINS_ANY one with an element equal to any of the
//     list's. As for IN, a null or NaN operand matches nothing. A non-array
//     field never matches.
//   - __name__ filters compare the document's path with the filter's path
//     (Path.Compare: segment by segment, each by bytes), with every operator
//     Validate allows (not the array ones); IN and NOT_IN by path equality.
//   - Ordering is q.Normalized(): each ordering by Compare (Firestore's
//     cross-type order: null < booleans < numbers < timestamps < strings <
//     bytes < geo points < arrays < maps), __name__ by Path.Compare; the
//     trailing __name__ makes it total. A document lacking any ordered field
//     is left out of the results, as Firestore's indexes leave it out.
//   - Cursors are compared with the first len(Values) orderings, each in its
//     direction (a descending ordering flips the comparison). StartAt keeps
//     documents at or after the position when Before (startAt), strictly
//     after it otherwise (startAfter); EndAt keeps documents strictly before
//     it when Before (endBefore), at or before it otherwise (endAt). A cursor
//     value of another type than a document's sorts by the cross-type order.
//   - Limit keeps the first Limit documents; with LimitToLast, the last
//     Limit, still in the query's order. Cursors apply before the limit.
//
// The result is a new slice in query order; its Docs share Fields with docs.
func Run(q Query, docs []value.Doc) []value.Doc {
	orders := q.Normalized()
	var out []value.Doc
	for _, d := range docs {
		if d.Path.IsDocument() && d.Path.Parent().Equal(q.Parent) &&
			matchesAll(q.Where, d) && hasOrderFields(orders, d) &&
			afterStart(q.StartAt, orders, d) && beforeEnd(q.EndAt, orders, d) {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b value.Doc) int { return compareDocs(orders, a, b) })
	if q.Limit > 0 && len(out) > q.Limit {
		if q.LimitToLast {
			out = out[len(out)-q.Limit:]
		} else {
			out = out[:q.Limit]
		}
	}
	return out
}

func matchesAll(where []Filter, d value.Doc) bool {
	for _, f := range where {
		if !matches(f, d) {
			return false
		}
	}
	return true
}

// matches evaluates one filter, as Run's documentation says.
func matches(f Filter, d value.Doc) bool {
	if f.Field.IsName() {
		return matchesName(f, d.Path)
	}
	v, ok := f.Field.Get(d.Fields)
	if !ok {
		return false
	}
	switch f.Op {
	case OpEqual, OpLessThan, OpLessThanOrEqual, OpGreaterThan, OpGreaterThanOrEqual:
		return typeClass(v.Kind) == typeClass(f.Value.Kind) && holds(f.Op, value.Compare(v, f.Value))
	case OpNotEqual:
		return v.Kind != value.Null && !value.Equal(v, f.Value)
	case OpIn:
		return containsMatchable(f.Value.Array, v)
	case OpNotIn:
		return v.Kind != value.Null && !slices.ContainsFunc(f.Value.Array, isNull) &&
			!slices.ContainsFunc(f.Value.Array, func(e value.Value) bool { return value.Equal(e, v) })
	case OpArrayContains:
		return v.Kind == value.Array && containsMatchable([]value.Value{f.Value}, v.Array...)
	case OpArrayContainsAny:
		return v.Kind == value.Array && containsMatchable(f.Value.Array, v.Array...)
	}
	return false
}

// containsMatchable reports whether one of candidates equals an element of
// list that can match at all: null and NaN operands of IN and the array
// operators match nothing (see Run).
func containsMatchable(list []value.Value, candidates ...value.Value) bool {
	for _, e := range list {
		if !Matchable(e) {
			continue
		}
		for _, c := range candidates {
			if value.Equal(e, c) {
				return true
			}
		}
	}
	return false
}

func matchesName(f Filter, p value.Path) bool {
	switch f.Op {
	case OpIn:
		return slices.ContainsFunc(f.Value.Array, func(e value.Value) bool { return p.Equal(NamePath(e)) })
	case OpNotIn:
		return !slices.ContainsFunc(f.Value.Array, func(e value.Value) bool { return p.Equal(NamePath(e)) })
	case OpNotEqual:
		return !p.Equal(NamePath(f.Value))
	}
	return holds(f.Op, p.Compare(NamePath(f.Value)))
}

// holds reports whether a comparison result c (value against operand)
// satisfies a comparison operator.
func holds(op Op, c int) bool {
	switch op {
	case OpEqual:
		return c == 0
	case OpLessThan:
		return c < 0
	case OpLessThanOrEqual:
		return c <= 0
	case OpGreaterThan:
		return c > 0
	case OpGreaterThanOrEqual:
		return c >= 0
	}
	return false
}

// typeClass merges the two number kinds, which filters treat as one type.
func typeClass(k value.Kind) value.Kind {
	if k == value.Integer {
		return value.Double
	}
	return k
}

func isNull(v value.Value) bool { return v.Kind == value.Null }
func isNaN(v value.Value) bool  { return v.Kind == value.Double && math.IsNaN(v.Double) }

// Matchable reports whether an operand of IN or of an array operator can match: null and NaN
// operands match nothing.
func Matchable(v value.Value) bool { return !isNull(v) && !isNaN(v) }

// NamePath reads back the path of a __name__ operand that Validate has checked.
func NamePath(v value.Value) value.Path {
	p, err := value.ParseDocumentPath(v.Str)
	if err != nil {
		panic("query: Run needs a validated query: " + err.Error())
	}
	return p
}

func hasOrderFields(orders []Order, d value.Doc) bool {
	for _, o := range orders {
		if !o.Field.IsName() {
			if _, ok := o.Field.Get(d.Fields); !ok {
				return false
			}
		}
	}
	return true
}

// compareDocs orders two documents by the normalized ordering.
func compareDocs(orders []Order, a, b value.Doc) int {
	for _, o := range orders {
		var c int
		if o.Field.IsName() {
			c = a.Path.Compare(b.Path)
		} else {
			va, _ := o.Field.Get(a.Fields)
			vb, _ := o.Field.Get(b.Fields)
			c = value.Compare(va, vb)
		}
		if o.Descending {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// compareToCursor compares a document with a cursor position over the
// cursor's prefix of the ordering: < 0 when the document sorts before it.
func compareToCursor(c *Cursor, orders []Order, d value.Doc) int {
	for i, cv := range c.Values {
		o := orders[i]
		var cmp int
		if o.Field.IsName() {
			cmp = d.Path.Compare(NamePath(cv))
		} else {
			v, _ := o.Field.Get(d.Fields)
			cmp = value.Compare(v, cv)
		}
		if o.Descending {
			cmp = -cmp
		}
		if cmp != 0 {
			return cmp
		}
	}
	return 0
}

func afterStart(c *Cursor, orders []Order, d value.Doc) bool {
	if c == nil {
		return true
	}
	cmp := compareToCursor(c, orders, d)
	return cmp > 0 || cmp == 0 && c.Before
}

func beforeEnd(c *Cursor, orders []Order, d value.Doc) bool {
	if c == nil {
		return true
	}
	cmp := compareToCursor(c, orders, d)
	return cmp < 0 || cmp == 0 && !c.Before
}
