// Package query is what a document store query means, pure: Parse reads Firestore REST v1's
// structuredQuery, Validate applies Firestore's rules to a Query however it was built, and Run
// evaluates one over documents in memory. Run is the executable specification: the engine's
// SQL (internal/docstore) is checked against it on both databases.
package query

import (
	"math"
	"slices"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// Op is a filter's operator, named as in Firestore REST v1's FieldFilter.
// Unary filters have no Op of their own: Parse maps IS_NULL and IS_NAN to
// OpEqual with null or NaN, IS_NOT_NULL and IS_NOT_NAN to OpNotEqual, as
// Firestore's SDKs do, so each has exactly one meaning.
type Op string

// The operators.
const (
	OpEqual              Op = "EQUAL"
	OpNotEqual           Op = "NOT_EQUAL"
	OpLessThan           Op = "LESS_THAN"
	OpLessThanOrEqual    Op = "LESS_THAN_OR_EQUAL"
	OpGreaterThan        Op = "GREATER_THAN"
	OpGreaterThanOrEqual Op = "GREATER_THAN_OR_EQUAL"
	OpArrayContains      Op = "ARRAY_CONTAINS"
	OpIn                 Op = "IN"
	OpNotIn              Op = "NOT_IN"
	OpArrayContainsAny   Op = "ARRAY_CONTAINS_ANY"
)

// Firestore's query limits (its "query limitations"), kept here too so that a
// client written against Firestore behaves the same on both.
const (
	MaxInValues     = 30  // values in an IN or ARRAY_CONTAINS_ANY filter
	MaxNotInValues  = 10  // values in a NOT_IN filter
	MaxDisjunctions = 30  // product of IN and ARRAY_CONTAINS_ANY sizes (disjunctive normal form)
	MaxQueryClauses = 100 // filters + orderings + 1 for a subcollection
	MaxLimit        = math.MaxInt32
)

// valid reports whether op is one of the operators.
func (op Op) valid() bool {
	switch op {
	case OpEqual, OpNotEqual, OpLessThan, OpLessThanOrEqual, OpGreaterThan, OpGreaterThanOrEqual,
		OpArrayContains, OpIn, OpNotIn, OpArrayContainsAny:
		return true
	}
	return false
}

// Inequality reports whether op constrains its field to a range or excludes
// values, which makes Firestore order by that field implicitly.
func (op Op) Inequality() bool {
	switch op {
	case OpLessThan, OpLessThanOrEqual, OpGreaterThan, OpGreaterThanOrEqual, OpNotEqual, OpNotIn:
		return true
	}
	return false
}

// takesArray reports whether op's value is a list of values to test against.
func (op Op) TakesArray() bool { return op == OpIn || op == OpNotIn || op == OpArrayContainsAny }

// Filter is one field filter; a query's filters are ANDed (a composite AND
// flattens to a []Filter). For the __name__ pseudo field the value is a
// String holding a relative document path ("users/u1/history/h1"), or for IN
// and NOT_IN an Array of them: we have no reference type, and Run compares
// such paths as paths, not as strings.
type Filter struct {
	Field value.FieldPath
	Op    Op
	Value value.Value
}

// Order is one ordering: by Field, ascending unless Descending.
type Order struct {
	Field      value.FieldPath
	Descending bool
}

// Cursor is a position in a query's ordering, as in Firestore REST v1: the
// values are for the first len(Values) orderings of Normalized(). Before
// places the position just before the documents equal to Values, so
// StartAt{Before: true} is startAt (inclusive), StartAt{Before: false} is
// startAfter, EndAt{Before: true} is endBefore and EndAt{Before: false} is
// endAt (inclusive). A __name__ position holds a path as Filter values do.
type Cursor struct {
	Values []value.Value
	Before bool
}

// Query is a validated query over one collection.
type Query struct {
	Parent      value.Path // the collection: users/u1/history
	Where       []Filter   // ANDed
	OrderBy     []Order    // as given; Normalized adds Firestore's implicit ones
	Limit       int        // 0: none
	LimitToLast bool       // Limit counts from the end (our addition); needs OrderBy
	StartAt     *Cursor
	EndAt       *Cursor
}

// Normalized returns the ordering a query really has, by Firestore's rules:
// the explicit orderings, then every field of an inequality filter that is
// not already ordered (in field path order), then __name__ unless already
// there; the added ones take the direction of the last explicit ordering,
// ascending when there is none. So "WHERE a > 1" orders by a, then __name__,
// and the document name makes the order total.
func (q Query) Normalized() []Order {
	out := slices.Clone(q.OrderBy)
	desc := len(out) > 0 && out[len(out)-1].Descending
	var implicit []value.FieldPath
	for _, f := range q.Where {
		if f.Op.Inequality() && !f.Field.IsName() && !ordered(out, f.Field) &&
			!slices.ContainsFunc(implicit, f.Field.Equal) {
			implicit = append(implicit, f.Field)
		}
	}
	slices.SortFunc(implicit, value.FieldPath.Compare)
	for _, f := range implicit {
		out = append(out, Order{Field: f, Descending: desc})
	}
	if !ordered(out, value.FieldPath{value.NameField}) {
		out = append(out, Order{Field: value.FieldPath{value.NameField}, Descending: desc})
	}
	return out
}

func ordered(orders []Order, f value.FieldPath) bool {
	return slices.ContainsFunc(orders, func(o Order) bool { return o.Field.Equal(f) })
}

// Validate applies the rules a query must satisfy, however it was built;
// Parse calls it, and so should anything that builds a Query by hand.
// Each failure is invalid-argument and names the offending part.
func (q Query) Validate() error {
	if !q.Parent.IsCollection() {
		return status.Invalidf("query parent %q is not a collection", q.Parent.String())
	}
	if n := len(q.Where) + len(q.OrderBy) + min(q.Parent.Len()-1, 1); n > MaxQueryClauses {
		return status.Invalidf("query has %d filters and orderings (with its parent), more than %d", n, MaxQueryClauses)
	}
	if err := validateFilters(q.Where); err != nil {
		return err
	}
	for i, o := range q.OrderBy {
		if err := validQueryField(o.Field); err != nil {
			return status.Invalidf("orderBy[%d]: %v", i, err)
		}
		if ordered(q.OrderBy[:i], o.Field) {
			return status.Invalidf("orderBy[%d]: %q is ordered twice", i, o.Field.String())
		}
	}
	switch {
	case q.Limit < 0:
		return status.Invalidf("limit %d is negative", q.Limit)
	case q.Limit > MaxLimit:
		return status.Invalidf("limit %d is more than %d", q.Limit, MaxLimit)
	case q.LimitToLast && len(q.OrderBy) == 0:
		return status.Invalidf("limitToLast needs an orderBy")
	case q.LimitToLast && q.Limit == 0:
		return status.Invalidf("limitToLast needs a limit")
	}
	norm := q.Normalized()
	for _, c := range []struct {
		name string
		cur  *Cursor
	}{{"startAt", q.StartAt}, {"endAt", q.EndAt}} {
		if c.cur == nil {
			continue
		}
		switch {
		case len(c.cur.Values) == 0:
			return status.Invalidf("%s has no values", c.name)
		case len(c.cur.Values) > len(norm):
			return status.Invalidf("%s has %d values, more than the %d orderings of the query (%s)",
				c.name, len(c.cur.Values), len(norm), DescribeOrders(norm))
		}
		for i, v := range c.cur.Values {
			if norm[i].Field.IsName() {
				if err := validNameValue(v); err != nil {
					return status.Invalidf("%s.values[%d] (for __name__): %v", c.name, i, err)
				}
			}
		}
	}
	return nil
}

// validateFilters checks each filter, then Firestore's limits on combining them.
func validateFilters(where []Filter) error {
	var notEqual, arrayContains, arrayContainsAny, in, notIn int
	disjunctions := 1
	for i, f := range where {
		if err := validateFilter(f); err != nil {
			return status.Invalidf("where[%d] (%s on %q): %v", i, f.Op, f.Field.String(), err)
		}
		switch f.Op {
		case OpNotEqual:
			notEqual++
		case OpNotIn:
			notIn++
		case OpArrayContains:
			arrayContains++
		case OpArrayContainsAny:
			arrayContainsAny++
			disjunctions *= len(f.Value.Array)
		case OpIn:
			in++
			disjunctions *= len(f.Value.Array)
		}
		if disjunctions > MaxDisjunctions {
			return status.Invalidf("where: the IN and ARRAY_CONTAINS_ANY filters make more than %d disjunctions", MaxDisjunctions)
		}
	}
	switch {
	case notEqual+notIn > 1:
		return status.Invalidf("where: at most one NOT_EQUAL, NOT_IN, IS_NOT_NULL or IS_NOT_NAN filter per query")
	case notIn > 0 && in+arrayContainsAny > 0:
		return status.Invalidf("where: NOT_IN cannot be combined with IN or ARRAY_CONTAINS_ANY")
	case arrayContains > 1:
		return status.Invalidf("where: at most one ARRAY_CONTAINS filter per query")
	case arrayContains > 0 && arrayContainsAny > 0:
		return status.Invalidf("where: ARRAY_CONTAINS cannot be combined with ARRAY_CONTAINS_ANY")
	}
	return nil
}

// validateFilter checks one filter alone.
func validateFilter(f Filter) error {
	if !f.Op.valid() {
		return status.Invalidf("unknown operator %q", string(f.Op))
	}
	if err := validQueryField(f.Field); err != nil {
		return err
	}
	if f.Op.TakesArray() {
		if f.Value.Kind != value.Array || len(f.Value.Array) == 0 {
			return status.Invalidf("%s needs a non-empty array value", f.Op)
		}
		if limit := maxValues(f.Op); len(f.Value.Array) > limit {
			return status.Invalidf("%s takes at most %d values, not %d", f.Op, limit, len(f.Value.Array))
		}
	}
	if !f.Field.IsName() {
		return nil
	}
	switch f.Op {
	case OpArrayContains, OpArrayContainsAny:
		return status.Invalidf("%s does not apply to __name__", f.Op)
	case OpIn, OpNotIn:
		for _, v := range f.Value.Array {
			if err := validNameValue(v); err != nil {
				return err
			}
		}
		return nil
	}
	return validNameValue(f.Value)
}

func maxValues(op Op) int {
	if op == OpNotIn {
		return MaxNotInValues
	}
	return MaxInValues
}

// validQueryField checks a field of a filter or ordering: a valid field
// path, or the document name __name__.
func validQueryField(f value.FieldPath) error {
	if len(f) == 0 {
		return status.Invalidf("field path is empty")
	}
	if f.IsName() {
		return nil
	}
	for _, seg := range f {
		if err := value.ValidFieldName(seg); err != nil {
			return status.Invalidf("field path %q: %v", f.String(), err)
		}
	}
	return nil
}

// validNameValue checks a value standing for a document name: a String
// holding a document path.
func validNameValue(v value.Value) error {
	if v.Kind != value.String {
		return status.Invalidf("__name__ is compared with a document path, not %s", v.Kind)
	}
	if _, err := value.ParseDocumentPath(v.Str); err != nil {
		return err
	}
	return nil
}

// describeOrders renders an ordering for messages: "a, __name__ DESC".
func DescribeOrders(orders []Order) string {
	s := ""
	for i, o := range orders {
		if i > 0 {
			s += ", "
		}
		s += o.Field.String()
		if o.Descending {
			s += " DESC"
		}
	}
	return s
}
