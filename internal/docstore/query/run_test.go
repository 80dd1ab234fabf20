package query

import (
	"testing"

	"handy/internal/docstore/query/querytest"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
)

const (
	twoF  = `{"doubleValue":2.0}`
	str2  = `{"stringValue":"2"}`
	arr2  = `{"arrayValue":{"values":[{"integerValue":"2"}]}}`
	mapX1 = `{"mapValue":{"fields":{"x":{"integerValue":"1"}}}}`
)

func TestRun(t *testing.T) {
	docs := querytest.RefDocs(t)
	all := "a b c d e f g h i j k"
	tests := []struct {
		name  string
		query string
		want  string // ids in result order
	}{
		{"everything, by name", querytest.SQ(), all},

		// EQUAL: numbers by value, each other type apart, null and NaN themselves.
		{"EQUAL 1", querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", querytest.One))), "a i"},
		{"EQUAL 2.0", querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", twoF))), "c"},
		{"EQUAL \"2\"", querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", str2))), "d"},
		{"EQUAL null", querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", querytest.Null))), "e"},
		{"IS_NULL", querytest.SQ(querytest.Where(querytest.Unary("n", "IS_NULL"))), "e"},
		{"EQUAL NaN", querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", querytest.NaN))), "f"},
		{"IS_NAN", querytest.SQ(querytest.Where(querytest.Unary("n", "IS_NAN"))), "f"},
		{"EQUAL [2]", querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", arr2))), "g"},
		{"EQUAL map", querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", mapX1))), "j"},
		{"EQUAL nested field", querytest.SQ(querytest.Where(querytest.FF("n.x", "EQUAL", querytest.One))), "j"},

		// Ranges: the operand's type class only, ordered by the field.
		{"LESS_THAN 2", querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN", querytest.Two))), "f a i"},
		{"LESS_THAN_OR_EQUAL 2", querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN_OR_EQUAL", querytest.Two))), "f a i c"},
		{"GREATER_THAN 1", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", querytest.One))), "c b"},
		{"GREATER_THAN_OR_EQUAL 1.0", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN_OR_EQUAL", `{"doubleValue":1}`))), "a i c b"},
		{"GREATER_THAN \"1\"", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", `{"stringValue":"1"}`))), "d"},
		{"LESS_THAN \"3\"", querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN", `{"stringValue":"3"}`))), "d"},
		{"GREATER_THAN NaN", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", querytest.NaN))), "a i c b"},
		{"GREATER_THAN_OR_EQUAL NaN", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN_OR_EQUAL", querytest.NaN))), "f a i c b"},
		{"LESS_THAN NaN", querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN", querytest.NaN))), ""},
		{"LESS_THAN_OR_EQUAL null", querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN_OR_EQUAL", querytest.Null))), "e"},
		{"LESS_THAN null", querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN", querytest.Null))), ""},
		{"GREATER_THAN false", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", `{"booleanValue":false}`))), "k"},
		{"GREATER_THAN []", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", `{"arrayValue":{}}`))), "g"},
		{"range on both sides", querytest.SQ(querytest.Where(querytest.And(querytest.FF("n", "GREATER_THAN_OR_EQUAL", querytest.One), querytest.FF("n", "LESS_THAN", `{"doubleValue":2.5}`)))), "a i c"},

		// NOT_EQUAL and NOT_IN: field present and not null, any type, ordered by the field.
		{"NOT_EQUAL 1", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_EQUAL", querytest.One))), "k f c b d g j"},
		{"NOT_EQUAL null", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_EQUAL", querytest.Null))), "k f a i c b d g j"},
		{"IS_NOT_NULL", querytest.SQ(querytest.Where(querytest.Unary("n", "IS_NOT_NULL"))), "k f a i c b d g j"},
		{"NOT_EQUAL NaN", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_EQUAL", querytest.NaN))), "k a i c b d g j"},
		{"IS_NOT_NAN", querytest.SQ(querytest.Where(querytest.Unary("n", "IS_NOT_NAN"))), "k a i c b d g j"},
		{"NOT_IN [1, 2]", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_IN", querytest.List(querytest.One, querytest.Two)))), "k f b d g j"},
		{"NOT_IN [NaN]", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_IN", querytest.List(querytest.NaN)))), "k a i c b d g j"},
		{"NOT_IN [null]", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_IN", querytest.List(querytest.Null)))), ""},
		{"NOT_IN [5, null]", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_IN", querytest.List(`{"integerValue":"5"}`, querytest.Null)))), ""},

		// IN: by equality; null and NaN in the list match nothing.
		{"IN [1, \"2\"]", querytest.SQ(querytest.Where(querytest.FF("n", "IN", querytest.List(querytest.One, str2)))), "a d i"},
		{"IN [null, 2]", querytest.SQ(querytest.Where(querytest.FF("n", "IN", querytest.List(querytest.Null, querytest.Two)))), "c"},
		{"IN [NaN]", querytest.SQ(querytest.Where(querytest.FF("n", "IN", querytest.List(querytest.NaN)))), ""},
		{"IN [[2]]", querytest.SQ(querytest.Where(querytest.FF("n", "IN", querytest.List(arr2)))), "g"},

		// Array operators.
		{"ARRAY_CONTAINS x", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS", querytest.StrX))), "a"},
		{"ARRAY_CONTAINS 1", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS", querytest.One))), "a i"},
		{"ARRAY_CONTAINS null", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS", querytest.Null))), ""},
		{"ARRAY_CONTAINS NaN", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS", querytest.NaN))), ""},
		{"ARRAY_CONTAINS [x]", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS", querytest.List(querytest.StrX)))), "h"},
		{"ARRAY_CONTAINS_ANY [y, 1]", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS_ANY", querytest.List(querytest.StrY, querytest.One)))), "a b c i"},
		{"ARRAY_CONTAINS_ANY [null, y]", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS_ANY", querytest.List(querytest.Null, querytest.StrY)))), "b c"},
		{"ARRAY_CONTAINS_ANY [NaN]", querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS_ANY", querytest.List(querytest.NaN)))), ""},
		{"ARRAY_CONTAINS with EQUAL", querytest.SQ(querytest.Where(querytest.And(querytest.FF("tags", "ARRAY_CONTAINS", querytest.One), querytest.FF("n", "EQUAL", querytest.One)))), "a i"},

		// __name__: compared as paths.
		{"__name__ EQUAL", querytest.SQ(querytest.Where(querytest.FF("__name__", "EQUAL", querytest.Ref("c")))), "c"},
		{"__name__ EQUAL by id", querytest.SQ(querytest.Where(querytest.FF("__name__", "EQUAL", `{"stringValue":"c"}`))), "c"},
		{"__name__ GREATER_THAN", querytest.SQ(querytest.Where(querytest.FF("__name__", "GREATER_THAN", querytest.Ref("i")))), "j k"},
		{"__name__ LESS_THAN_OR_EQUAL", querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN_OR_EQUAL", querytest.Ref("b")))), "a b"},
		{"__name__ IN", querytest.SQ(querytest.Where(querytest.FF("__name__", "IN", querytest.List(querytest.Ref("e"), querytest.Ref("c"), `{"stringValue":"zz"}`)))), "c e"},
		{"__name__ NOT_IN", querytest.SQ(querytest.Where(querytest.FF("__name__", "NOT_IN", querytest.List(querytest.Ref("a"), querytest.Ref("b"))))), "c d e f g h i j k"},
		{"__name__ NOT_EQUAL", querytest.SQ(querytest.Where(querytest.FF("__name__", "NOT_EQUAL", querytest.Ref("a")))), "b c d e f g h i j k"},
		// Segment by segment, history < history- (a joined-string order says the opposite).
		{"__name__ segment order", querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN", `{"referenceValue":"users/u1/history-/a"}`))), all},
		{"__name__ before the collection", querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN", `{"referenceValue":"users/u1/histor/zz"}`))), ""},

		// Ordering: missing fields left out, mixed types in Firestore's order.
		{"orderBy n", querytest.SQ(querytest.OrderBy("n")), "e k f a i c b d g j"},
		{"orderBy n DESC", querytest.SQ(querytest.OrderBy("n DESCENDING")), "j g d b c i a f k e"},
		{"orderBy __name__ DESC", querytest.SQ(querytest.OrderBy("__name__ DESCENDING")), "k j i h g f e d c b a"},
		{"orderBy n, then __name__ DESC", querytest.SQ(querytest.OrderBy("n", "__name__ DESCENDING")), "e k f i a c b d g j"},
		{"orderBy other", querytest.SQ(querytest.OrderBy("other")), "h"},
		{"limit", querytest.SQ(querytest.OrderBy("n"), `"limit":3`), "e k f"},
		{"limit larger than the results", querytest.SQ(querytest.OrderBy("n"), `"limit":30`), "e k f a i c b d g j"},
		{"limitToLast", querytest.SQ(querytest.OrderBy("n"), `"limit":3`, `"limitToLast":true`), "d g j"},
		{"limitToLast DESC", querytest.SQ(querytest.OrderBy("n DESCENDING"), `"limit":2`, `"limitToLast":true`), "k e"},
		{"limit without order", querytest.SQ(`"limit":2`), "a b"},

		// Cursors on orderBy n: e k f a i c b d g j.
		{"startAt 1", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", true, querytest.One)), "a i c b d g j"},
		{"startAfter 1", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", false, querytest.One)), "c b d g j"},
		{"endAt 2", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("endAt", false, querytest.Two)), "e k f a i c"},
		{"endBefore 2", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("endAt", true, querytest.Two)), "e k f a i"},
		{"startAt 1, i", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", true, querytest.One, `{"stringValue":"i"}`)), "i c b d g j"},
		{"startAfter 1, a", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", false, querytest.One, querytest.Ref("a"))), "i c b d g j"},
		{"endBefore 1, i", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("endAt", true, querytest.One, querytest.Ref("i"))), "e k f a"},
		{"startAt a string", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", true, `{"stringValue":"0"}`)), "d g j"},
		{"startAt null", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", true, querytest.Null)), "e k f a i c b d g j"},
		{"startAfter null", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", false, querytest.Null)), "k f a i c b d g j"},
		{"startAt and endAt", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", false, querytest.NaN), querytest.Cursor("endAt", false, twoF)), "a i c"},
		{"empty window", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", true, querytest.Two), querytest.Cursor("endAt", true, querytest.One)), ""},
		{"DESC startAt 2", querytest.SQ(querytest.OrderBy("n DESCENDING"), querytest.Cursor("startAt", true, querytest.Two)), "c i a f k e"},
		{"DESC startAfter 2", querytest.SQ(querytest.OrderBy("n DESCENDING"), querytest.Cursor("startAt", false, querytest.Two)), "i a f k e"},
		{"DESC endAt 1", querytest.SQ(querytest.OrderBy("n DESCENDING"), querytest.Cursor("endAt", false, querytest.One)), "j g d b c i a"},
		{"startAfter then limit", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", false, querytest.One), `"limit":2`), "c b"},
		{"endBefore then limitToLast", querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("endAt", true, querytest.Two), `"limit":2`, `"limitToLast":true`), "a i"},
		{"name cursor, no order", querytest.SQ(querytest.Cursor("startAt", false, `{"stringValue":"c"}`)), "d e f g h i j k"},
		{"name endBefore, no order", querytest.SQ(querytest.Cursor("endAt", true, querytest.Ref("e"))), "a b c d"},
		{"cursor on an implicit ordering", querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", querytest.One)), querytest.Cursor("startAt", true, twoF)), "c b"},
		{"cursor with a filter", querytest.SQ(querytest.Where(querytest.FF("n", "NOT_EQUAL", querytest.One)), querytest.Cursor("startAt", false, querytest.NaN), `"limit":3`), "c b d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Parse("users/u1", []byte(tt.query))
			if err != nil {
				t.Fatalf("ParseQuery(%s): %v", tt.query, err)
			}
			if got := querytest.IDs(Run(q, docs)); got != tt.want {
				t.Errorf("Run(%s)\n = %q\nwant %q", tt.query, got, tt.want)
			}
		})
	}
}

// TestRunSeveralOrderings checks ties broken field by field, each in its
// own direction, and an inequality on a field after an explicit ordering.
func TestRunSeveralOrderings(t *testing.T) {
	h := func(id string, f value.Fields) value.Doc {
		return value.Doc{Path: valuetest.MustPath(t, "users/u1/history/"+id), Fields: f}
	}
	docs := []value.Doc{
		h("p", value.Fields{"a": valuetest.Int(1), "b": valuetest.Int(2)}),
		h("q", value.Fields{"a": valuetest.Int(1), "b": valuetest.Int(1)}),
		h("r", value.Fields{"a": valuetest.Int(0), "b": valuetest.Int(5)}),
		h("s", value.Fields{"a": valuetest.Int(1)}),
		h("t", value.Fields{"a": valuetest.Int(1), "b": valuetest.Int(2)}),
	}
	tests := []struct {
		name  string
		query string
		want  string
	}{
		// __name__ is appended DESC, like the last explicit ordering: t before p.
		{"a, b DESC", querytest.SQ(querytest.OrderBy("a", "b DESCENDING")), "r t p q"},
		{"a, b DESC, limitToLast", querytest.SQ(querytest.OrderBy("a", "b DESCENDING"), `"limit":2`, `"limitToLast":true`), "p q"},
		{"startAfter 1, 2", querytest.SQ(querytest.OrderBy("a", "b DESCENDING"), querytest.Cursor("startAt", false, querytest.One, querytest.Two)), "q"},
		{"startAfter 1, 2, t", querytest.SQ(querytest.OrderBy("a", "b DESCENDING"), querytest.Cursor("startAt", false, querytest.One, querytest.Two, querytest.Ref("t"))), "p q"},
		{"startAt 1", querytest.SQ(querytest.OrderBy("a", "b DESCENDING"), querytest.Cursor("startAt", true, querytest.One)), "t p q"},
		{"endAt 1", querytest.SQ(querytest.OrderBy("a", "b DESCENDING"), querytest.Cursor("endAt", false, querytest.One)), "r t p q"},
		{"endBefore 1", querytest.SQ(querytest.OrderBy("a", "b DESCENDING"), querytest.Cursor("endAt", true, querytest.One)), "r"},
		// b > 1 orders by a DESC (explicit), then b DESC and __name__ DESC (implicit).
		{"inequality after an explicit ordering", querytest.SQ(querytest.Where(querytest.FF("b", "GREATER_THAN", querytest.One)), querytest.OrderBy("a DESCENDING")), "t p r"},
		{"s has no b", querytest.SQ(querytest.Where(querytest.FF("a", "EQUAL", querytest.One)), querytest.OrderBy("b")), "q p t"},
	}
	for _, tt := range tests {
		q, err := Parse("users/u1", []byte(tt.query))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := querytest.IDs(Run(q, docs)); got != tt.want {
			t.Errorf("%s: Run = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRunLeavesInputAlone: Run returns a new slice and does not reorder docs.
func TestRunLeavesInputAlone(t *testing.T) {
	docs := querytest.RefDocs(t)
	before := make([]string, len(docs))
	for i, d := range docs {
		before[i] = d.Path.String()
	}
	q, err := Parse("users/u1", []byte(querytest.SQ(querytest.OrderBy("n"))))
	if err != nil {
		t.Fatal(err)
	}
	Run(q, docs)
	for i, d := range docs {
		if d.Path.String() != before[i] {
			t.Fatalf("docs[%d] = %s, was %s", i, d.Path, before[i])
		}
	}
}
