package query

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"handy/internal/docstore/query/querytest"
	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
)

func ints(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf(`{"integerValue":"%d"}`, i))
	}
	return `{"arrayValue":{"values":[` + strings.Join(parts, ",") + `]}}`
}

const (
	aStr  = `{"stringValue":"a"}`
	empty = `{"arrayValue":{}}`
)

// TestParseQueryValidation is the table of every query rule, each failing
// case next to a valid neighbour that differs only in the offending part.
func TestParseQueryValidation(t *testing.T) {
	tests := []struct {
		name    string
		parent  string
		query   string
		wantErr string // part of the message; "" for a valid neighbour
	}{
		{"minimal", "users/u1", querytest.SQ(), ""},
		{"top-level collection", "", `{"from":[{"collectionId":"users"}]}`, ""},
		{"parent is a collection", "users", querytest.SQ(), "parent: users is a collection, not a document"},
		{"parent with an empty document id", "users/", querytest.SQ(), `ends with "/": its last id is empty`},
		{"parent with an empty id inside", "users//x/y", querytest.SQ(), "an empty document id is invalid"},
		{"not an object", "users/u1", `[]`, "structuredQuery must be a JSON object"},
		{"a key twice", "users/u1", `{"from":[{"collectionId":"h"}],"limit":1,"limit":2}`, `structuredQuery has the field "limit" twice`},
		{"no from", "users/u1", `{}`, "structuredQuery.from must name exactly one collection"},
		{"two froms", "users/u1", `{"from":[{"collectionId":"a"},{"collectionId":"b"}]}`, "exactly one collection"},
		{"empty collection id", "users/u1", `{"from":[{"collectionId":""}]}`, "an empty collection id is invalid"},
		{"collection id with a slash", "users/u1", `{"from":[{"collectionId":"a/b"}]}`, `contains "/"`},
		{"allDescendants false", "users/u1", `{"from":[{"collectionId":"history","allDescendants":false}]}`, ""},
		{"allDescendants true", "users/u1", `{"from":[{"collectionId":"history","allDescendants":true}]}`, "collection group queries are not supported"},
		{"unknown member", "users/u1", querytest.SQ(`"frm":1`), `structuredQuery has an unknown field "frm"`},
		{"select", "users/u1", querytest.SQ(`"select":{}`), "select (projections) is not supported"},
		{"offset", "users/u1", querytest.SQ(`"offset":3`), "offset is not supported"},

		// Filters: operators.
		{"EQUAL", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "EQUAL", querytest.One))), ""},
		{"unknown op", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "EQUALS", querytest.One))), `structuredQuery.where.fieldFilter: unknown operator "EQUALS"`},
		{"unspecified op", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "OPERATOR_UNSPECIFIED", querytest.One))), "unknown operator"},
		{"missing value", "users/u1", querytest.SQ(querytest.Where(`{"fieldFilter":{"field":{"fieldPath":"a"},"op":"EQUAL"}}`)), "value is missing"},
		{"bad value", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "EQUAL", `{"integerValue":"x"}`))), "structuredQuery.where.fieldFilter.value"},
		{"two filter kinds", "users/u1", querytest.SQ(querytest.Where(`{"fieldFilter":{},"unaryFilter":{}}`)), "exactly one of fieldFilter, compositeFilter and unaryFilter"},
		{"unary IS_NULL", "users/u1", querytest.SQ(querytest.Where(querytest.Unary("a", "IS_NULL"))), ""},
		{"unary unknown", "users/u1", querytest.SQ(querytest.Where(querytest.Unary("a", "IS_EMPTY"))), `unaryFilter: unknown operator "IS_EMPTY"`},
		{"unary on __name__", "users/u1", querytest.SQ(querytest.Where(querytest.Unary("__name__", "IS_NULL"))), "does not apply to __name__"},
		{"AND", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "EQUAL", querytest.One), querytest.And(querytest.FF("b", "EQUAL", querytest.One))))), ""},
		{"OR", "users/u1", querytest.SQ(querytest.Where(`{"compositeFilter":{"op":"OR","filters":[` + querytest.FF("a", "EQUAL", querytest.One) + `]}}`)), "OR filters are not supported"},
		{"empty AND", "users/u1", querytest.SQ(querytest.Where(`{"compositeFilter":{"op":"AND","filters":[]}}`)), "filters must be a non-empty array"},
		{"nested error names its place", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "EQUAL", querytest.One), querytest.FF("b", "NOPE", querytest.One)))), "structuredQuery.where.compositeFilter.filters[1].fieldFilter: unknown operator"},

		// Filters: field names, by the spec's rule.
		{"dotted field", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a.b", "EQUAL", querytest.One))), ""},
		{"quoted field", "users/u1", querytest.SQ(querytest.Where(querytest.FF("`odd.name`", "EQUAL", querytest.One))), ""},
		{"empty field", "users/u1", querytest.SQ(querytest.Where(querytest.FF("", "EQUAL", querytest.One))), "field path is empty"},
		{"empty segment", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a..b", "EQUAL", querytest.One))), `field path "a..b" has an empty segment`},
		{"reserved field", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__x__", "EQUAL", querytest.One))), "is reserved"},
		{"field with ~", "users/u1", querytest.SQ(querytest.Where(querytest.FF("`a~b`", "EQUAL", querytest.One))), `field name "a~b" contains '~'`},
		{"field with [", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a[0]", "EQUAL", querytest.One))), `contains '['`},
		{"orderBy reserved field", "users/u1", querytest.SQ(querytest.OrderBy("__x__")), "structuredQuery.orderBy[0].field: "},
		{"orderBy field with *", "users/u1", querytest.SQ(querytest.OrderBy("`a*`")), `contains '*'`},
		{"orderBy __name__", "users/u1", querytest.SQ(querytest.OrderBy("__name__ DESCENDING")), ""},
		{"orderBy unknown direction", "users/u1", querytest.SQ(querytest.OrderBy("a UP")), `unknown direction "UP"`},
		{"orderBy twice", "users/u1", querytest.SQ(querytest.OrderBy("a", "a DESCENDING")), `orderBy[1]: "a" is ordered twice`},

		// IN, NOT_IN, ARRAY_CONTAINS_ANY need a non-empty array, within Firestore's limits.
		{"IN", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "IN", ints(1)))), ""},
		{"IN empty", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "IN", empty))), "IN needs a non-empty array value"},
		{"IN not an array", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "IN", querytest.One))), "needs a non-empty array value"},
		{"IN holding arrays", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "IN", `{"arrayValue":{"values":[{"arrayValue":{"values":[`+querytest.One+`]}}]}}`))), ""},
		{"IN 30", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "IN", ints(30)))), ""},
		{"IN 31", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "IN", ints(31)))), "IN takes at most 30 values, not 31"},
		{"NOT_IN", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "NOT_IN", ints(10)))), ""},
		{"NOT_IN empty", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "NOT_IN", empty))), "NOT_IN needs a non-empty array value"},
		{"NOT_IN 11", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "NOT_IN", ints(11)))), "NOT_IN takes at most 10 values"},
		{"ARRAY_CONTAINS_ANY", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "ARRAY_CONTAINS_ANY", ints(2)))), ""},
		{"ARRAY_CONTAINS_ANY empty", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "ARRAY_CONTAINS_ANY", empty))), "ARRAY_CONTAINS_ANY needs a non-empty array value"},
		{"ARRAY_CONTAINS_ANY null", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "ARRAY_CONTAINS_ANY", querytest.Null))), "needs a non-empty array value"},
		{"ARRAY_CONTAINS with an array", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "ARRAY_CONTAINS", querytest.One))), ""},
		{"IN × ARRAY_CONTAINS_ANY 30", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "IN", ints(6)), querytest.FF("b", "ARRAY_CONTAINS_ANY", ints(5))))), ""},
		{"IN × ARRAY_CONTAINS_ANY 36", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "IN", ints(6)), querytest.FF("b", "ARRAY_CONTAINS_ANY", ints(6))))), "more than 30 disjunctions"},

		// Combinations Firestore refuses.
		{"one NOT_EQUAL", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "NOT_EQUAL", querytest.One), querytest.FF("b", "LESS_THAN", querytest.One)))), ""},
		{"two NOT_EQUAL", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "NOT_EQUAL", querytest.One), querytest.FF("b", "NOT_EQUAL", querytest.One)))), "at most one NOT_EQUAL, NOT_IN, IS_NOT_NULL or IS_NOT_NAN"},
		{"NOT_EQUAL and IS_NOT_NULL", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "NOT_EQUAL", querytest.One), querytest.Unary("b", "IS_NOT_NULL")))), "at most one NOT_EQUAL"},
		{"NOT_IN with IN", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "NOT_IN", ints(2)), querytest.FF("b", "IN", ints(2))))), "NOT_IN cannot be combined with IN"},
		{"two ARRAY_CONTAINS", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "ARRAY_CONTAINS", querytest.One), querytest.FF("b", "ARRAY_CONTAINS", querytest.One)))), "at most one ARRAY_CONTAINS"},
		{"ARRAY_CONTAINS with ANY", "users/u1", querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "ARRAY_CONTAINS", querytest.One), querytest.FF("b", "ARRAY_CONTAINS_ANY", ints(2))))), "cannot be combined with ARRAY_CONTAINS_ANY"},

		// __name__ filters and the spec's empty document id.
		{"__name__ by id", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "EQUAL", `{"stringValue":"h1"}`))), ""},
		{"__name__ by reference", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "GREATER_THAN", `{"referenceValue":"users/u1/history/h1"}`))), ""},
		{"__name__ empty id", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "EQUAL", `{"stringValue":""}`))), "an empty document id is invalid"},
		{"__name__ IN with an empty id", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "IN", `{"arrayValue":{"values":[{"stringValue":"h1"},{"stringValue":""}]}}`))), "values[1]: an empty document id is invalid"},
		{"__name__ id with a slash", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "EQUAL", `{"stringValue":"a/b"}`))), `contains "/"`},
		{"__name__ reference to a collection", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "EQUAL", `{"referenceValue":"users/u1/history"}`))), "users/u1/history is a collection, not a document"},
		{"__name__ with an integer", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "EQUAL", querytest.One))), "__name__ is compared with a referenceValue"},
		{"__name__ ARRAY_CONTAINS", "users/u1", querytest.SQ(querytest.Where(querytest.FF("__name__", "ARRAY_CONTAINS", `{"stringValue":"h1"}`))), "ARRAY_CONTAINS does not apply to __name__"},
		{"__name__ in a map", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a.__name__", "EQUAL", querytest.One))), "is reserved"},

		// limit and limitToLast.
		{"limit", "users/u1", querytest.SQ(`"limit":1`), ""},
		{"negative limit", "users/u1", querytest.SQ(`"limit":-1`), "structuredQuery.limit -1 is outside 1..2147483647"},
		{"zero limit", "users/u1", querytest.SQ(`"limit":0`), "outside 1.."},
		{"huge limit", "users/u1", querytest.SQ(`"limit":2147483648`), "outside 1.."},
		{"fractional limit", "users/u1", querytest.SQ(`"limit":1.5`), "must be an integer"},
		{"string limit", "users/u1", querytest.SQ(`"limit":"5"`), "must be an integer"},
		{"limitToLast with orderBy", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"limit":2`, `"limitToLast":true`), ""},
		{"limitToLast without orderBy", "users/u1", querytest.SQ(`"limit":2`, `"limitToLast":true`), "limitToLast needs an orderBy"},
		{"limitToLast with only an inequality", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "GREATER_THAN", querytest.One)), `"limit":2`, `"limitToLast":true`), "limitToLast needs an orderBy"},
		{"limitToLast without limit", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"limitToLast":true`), "limitToLast needs a limit"},
		{"limitToLast false without orderBy", "users/u1", querytest.SQ(`"limit":2`, `"limitToLast":false`), ""},

		// Cursors.
		{"cursor on the explicit order", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"startAt":{"values":[`+querytest.One+`],"before":true}`), ""},
		{"cursor reaching __name__", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"startAt":{"values":[`+querytest.One+`,{"stringValue":"h1"}]}`), ""},
		{"cursor past the ordering", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"startAt":{"values":[`+querytest.One+`,{"stringValue":"h1"},`+querytest.One+`]}`), "structuredQuery.startAt has 3 values, more than the 2 orderings of the query (a, __name__)"},
		{"cursor without orderBy", "users/u1", querytest.SQ(`"endAt":{"values":[{"stringValue":"h1"}]}`), ""},
		{"cursor without orderBy, two values", "users/u1", querytest.SQ(`"endAt":{"values":[{"stringValue":"h1"},` + querytest.One + `]}`), "more than the 1 orderings"},
		{"cursor on an inequality field", "users/u1", querytest.SQ(querytest.Where(querytest.FF("a", "LESS_THAN", querytest.One)), `"endAt":{"values":[`+querytest.One+`,{"stringValue":"h1"}]}`), ""},
		{"empty cursor", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"startAt":{"values":[]}`), "structuredQuery.startAt.values must be a non-empty array"},
		{"cursor with an empty document id", "users/u1", querytest.SQ(`"startAt":{"values":[{"stringValue":""}]}`), "structuredQuery.startAt.values[0]: an empty document id is invalid"},
		{"cursor __name__ not a name", "users/u1", querytest.SQ(`"startAt":{"values":[` + querytest.One + `]}`), "__name__ is compared with a referenceValue"},
		{"cursor before not a bool", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"startAt":{"values":[`+querytest.One+`],"before":"yes"}`), "before must be true or false"},
		{"cursor bad value", "users/u1", querytest.SQ(querytest.OrderBy("a"), `"startAt":{"values":[{"geoPointValue":{"latitude":91}}]}`), "structuredQuery.startAt.values[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Parse(tt.parent, []byte(tt.query))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseQuery(%s) = %v", tt.query, err)
				}
				if err := q.Validate(); err != nil {
					t.Fatalf("parsed query does not validate: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, status.ErrInvalidArgument) {
				t.Fatalf("ParseQuery(%s) = %v, want invalid-argument containing %q", tt.query, err, tt.wantErr)
			}
		})
	}
}

func TestParseQueryShape(t *testing.T) {
	query := querytest.SQ(
		querytest.Where(querytest.And(
			querytest.FF("tool", "EQUAL", `{"stringValue":"area"}`),
			querytest.And(querytest.Unary("result", "IS_NOT_NULL"), querytest.Unary("r", "IS_NAN")),
			querytest.FF("__name__", "IN", `{"arrayValue":{"values":[{"stringValue":"h1"},{"referenceValue":"users/u2/history/h2"}]}}`),
		)),
		querytest.OrderBy("at DESCENDING", "`odd.name`"),
		`"limit":50`, `"limitToLast":true`,
		`"startAt":{"values":[{"integerValue":"5"}],"before":true}`,
		// The IS_NOT_NULL makes result an implicit ordering before __name__.
		`"endAt":{"values":[{"integerValue":"1"},{"stringValue":"x"},{"stringValue":"r"},{"stringValue":"h9"}]}`,
	)
	q, err := Parse("users/u1", []byte(query))
	if err != nil {
		t.Fatal(err)
	}
	want := Query{
		Parent: valuetest.MustPath(t, "users/u1/history"),
		Where: []Filter{
			{Field: value.FieldPath{"tool"}, Op: OpEqual, Value: valuetest.Str("area")},
			{Field: value.FieldPath{"result"}, Op: OpNotEqual, Value: value.Value{Kind: value.Null}},
			{Field: value.FieldPath{"r"}, Op: OpEqual, Value: valuetest.Dbl(math.NaN())},
			{Field: value.FieldPath{"__name__"}, Op: OpIn, Value: valuetest.Arr(valuetest.Str("users/u1/history/h1"), valuetest.Str("users/u2/history/h2"))},
		},
		OrderBy:     []Order{{value.FieldPath{"at"}, true}, {value.FieldPath{"odd.name"}, false}},
		Limit:       50,
		LimitToLast: true,
		StartAt:     &Cursor{Values: []value.Value{valuetest.Int(5)}, Before: true},
		EndAt:       &Cursor{Values: []value.Value{valuetest.Int(1), valuetest.Str("x"), valuetest.Str("r"), valuetest.Str("users/u1/history/h9")}},
	}
	// NaN != NaN for DeepEqual: compare that filter apart.
	if nan := q.Where[2].Value; nan.Kind != value.Double || !math.IsNaN(nan.Double) {
		t.Errorf("IS_NAN value = %v", nan)
	}
	q.Where[2].Value, want.Where[2].Value = value.Value{}, value.Value{}
	if !reflect.DeepEqual(q.Where, want.Where) || !reflect.DeepEqual(q.OrderBy, want.OrderBy) ||
		!reflect.DeepEqual(q.StartAt, want.StartAt) || !reflect.DeepEqual(q.EndAt, want.EndAt) {
		t.Errorf("ParseQuery =\n%+v\n%+v %+v\nwant\n%+v\n%+v %+v", q.Where, q.StartAt, q.EndAt, want.Where, want.StartAt, want.EndAt)
	}
	q.Where, q.OrderBy, q.StartAt, q.EndAt = nil, nil, nil, nil
	want.Where, want.OrderBy, want.StartAt, want.EndAt = nil, nil, nil, nil
	if !reflect.DeepEqual(q, want) {
		t.Errorf("ParseQuery = %+v, want %+v", q, want)
	}
}

func TestNormalized(t *testing.T) {
	name := Order{Field: value.FieldPath{"__name__"}}
	nameDesc := Order{Field: value.FieldPath{"__name__"}, Descending: true}
	asc := func(f ...string) Order { return Order{Field: value.FieldPath(f)} }
	desc := func(f ...string) Order { return Order{Field: value.FieldPath(f), Descending: true} }
	flt := func(op Op, f ...string) Filter {
		return Filter{Field: value.FieldPath(f), Op: op, Value: valuetest.Int(1)}
	}
	tests := []struct {
		name string
		q    Query
		want []Order
	}{
		{"nothing", Query{}, []Order{name}},
		{"explicit", Query{OrderBy: []Order{asc("a")}}, []Order{asc("a"), name}},
		{"explicit descending", Query{OrderBy: []Order{asc("a"), desc("b")}}, []Order{asc("a"), desc("b"), nameDesc}},
		{"equality adds nothing", Query{Where: []Filter{flt(OpEqual, "a"), flt(OpIn, "b"), flt(OpArrayContains, "c")}}, []Order{name}},
		{"inequality first", Query{Where: []Filter{flt(OpGreaterThan, "a")}}, []Order{asc("a"), name}},
		{"NOT_EQUAL and NOT_IN are inequalities", Query{Where: []Filter{flt(OpNotIn, "b"), flt(OpNotEqual, "a")}}, []Order{asc("a"), asc("b"), name}},
		{"inequality fields in path order, once", Query{Where: []Filter{flt(OpLessThan, "b"), flt(OpGreaterThan, "a", "z"), flt(OpGreaterThan, "b"), flt(OpLessThan, "a")}},
			[]Order{asc("a"), asc("a", "z"), asc("b"), name}},
		{"after explicit, in its direction", Query{Where: []Filter{flt(OpLessThan, "b")}, OrderBy: []Order{desc("c")}}, []Order{desc("c"), desc("b"), nameDesc}},
		{"already ordered", Query{Where: []Filter{flt(OpLessThan, "b")}, OrderBy: []Order{desc("b")}}, []Order{desc("b"), nameDesc}},
		{"explicit __name__", Query{OrderBy: []Order{nameDesc}}, []Order{nameDesc}},
		{"explicit __name__ first", Query{OrderBy: []Order{name, desc("a")}}, []Order{name, desc("a")}},
		{"__name__ inequality", Query{Where: []Filter{{Field: value.FieldPath{"__name__"}, Op: OpGreaterThan, Value: valuetest.Str("c/d")}}}, []Order{name}},
	}
	for _, tt := range tests {
		if got := tt.q.Normalized(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Normalized = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestValidateBuiltQuery covers the rules a hand-built Query can break that
// the JSON parser cannot produce.
func TestValidateBuiltQuery(t *testing.T) {
	coll := valuetest.MustPath(t, "users/u1/history")
	valid := Query{Parent: coll, Where: []Filter{{Field: value.FieldPath{"a"}, Op: OpEqual, Value: valuetest.Int(1)}}}
	if err := valid.Validate(); err != nil {
		t.Fatalf("valid query: %v", err)
	}
	tests := []struct {
		name    string
		edit    func(q *Query)
		wantErr string
	}{
		{"document parent", func(q *Query) { q.Parent = valuetest.MustPath(t, "users/u1") }, "is not a collection"},
		{"unknown op", func(q *Query) { q.Where[0].Op = "LIKE" }, `unknown operator "LIKE"`},
		{"empty field", func(q *Query) { q.Where[0].Field = nil }, "field path is empty"},
		{"bad field name", func(q *Query) { q.Where[0].Field = value.FieldPath{"a", ""} }, "field name is empty"},
		{"__name__ with a number", func(q *Query) { q.Where[0].Field = value.FieldPath{"__name__"} }, "not integerValue"},
		{"__name__ with a collection path", func(q *Query) {
			q.Where[0] = Filter{Field: value.FieldPath{"__name__"}, Op: OpEqual, Value: valuetest.Str("users")}
		}, "users is a collection, not a document"},
		{"negative limit", func(q *Query) { q.Limit = -1 }, "limit -1 is negative"},
		{"cursor __name__ value", func(q *Query) { q.StartAt = &Cursor{Values: []value.Value{valuetest.Int(1)}} }, "startAt.values[0] (for __name__)"},
		{"too many clauses", func(q *Query) {
			for range 100 {
				q.OrderBy = append(q.OrderBy, Order{Field: value.FieldPath{fmt.Sprint("f", len(q.OrderBy))}})
			}
		}, "more than 100"},
	}
	for _, tt := range tests {
		q := valid
		q.Where = append([]Filter(nil), valid.Where...)
		tt.edit(&q)
		err := q.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, status.ErrInvalidArgument) {
			t.Errorf("%s: Validate = %v, want invalid-argument containing %q", tt.name, err, tt.wantErr)
		}
	}
}

// FuzzParseQuery: the parser never panics, returns only invalid-argument
// errors, and whatever it accepts validates and runs.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		querytest.SQ(),
		querytest.SQ(querytest.Where(querytest.And(querytest.FF("a", "IN", ints(3)), querytest.Unary("b", "IS_NOT_NAN"))), querytest.OrderBy("c DESCENDING"), `"limit":2`, `"limitToLast":true`),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "NOT_IN", querytest.List(querytest.Ref("a"), `{"stringValue":"b"}`))), querytest.Cursor("startAt", false, querytest.Ref("c"))),
		querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", querytest.NaN)), querytest.OrderBy("n"), querytest.Cursor("endAt", true, querytest.One, querytest.Ref("x"))),
		querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS_ANY", querytest.List(querytest.Null, querytest.StrY)))),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse("users/u1", []byte(s))
		if err != nil {
			if !errors.Is(err, status.ErrInvalidArgument) {
				t.Fatalf("ParseQuery(%s) error %v is not invalid-argument", s, err)
			}
			return
		}
		if err := q.Validate(); err != nil {
			t.Fatalf("ParseQuery(%s) accepted a query that does not validate: %v", s, err)
		}
		got := Run(q, querytest.RefDocs(t))
		if q.Limit > 0 && len(got) > q.Limit {
			t.Fatalf("Run returned %d documents, limit %d", len(got), q.Limit)
		}
	})
}
