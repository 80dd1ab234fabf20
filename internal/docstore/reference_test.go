package docstore

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// refDocs is the mixed-type collection the hand-computed cases run on. In
// Firestore's order the n values are: e null < k true < f NaN < a 1 = i 1.0
// < c 2 < b 2.5 < d "2" < g [2] < j {x: 1}; h has no n.
func refDocs(t *testing.T) []Doc {
	doc := func(path string, f Fields) Doc { return Doc{Path: mustPath(t, path), Fields: f} }
	h := func(id string, f Fields) Doc { return doc("users/u1/history/"+id, f) }
	return []Doc{
		// Out of scope: another collection, a subcollection, another user.
		doc("users/u1/other/z", Fields{"n": qInt(1)}),
		doc("users/u1/history/a/sub/s", Fields{"n": qInt(1)}),
		doc("users/u2/history/a", Fields{"n": qInt(1)}),

		h("k", Fields{"n": qBool(true)}),
		h("j", Fields{"n": qMap(Fields{"x": qInt(1)})}),
		h("i", Fields{"n": qDbl(1), "tags": qArr(qDbl(1))}),
		h("h", Fields{"other": qInt(1), "tags": qArr(qArr(qStr("x")))}),
		h("g", Fields{"n": qArr(qInt(2)), "tags": qArr(qDbl(math.NaN()))}),
		h("f", Fields{"n": qDbl(math.NaN()), "tags": qArr(Value{Kind: Null})}),
		h("e", Fields{"n": {Kind: Null}, "tags": qStr("x")}),
		h("d", Fields{"n": qStr("2"), "tags": qArr()}),
		h("c", Fields{"n": qInt(2), "tags": qArr(qStr("y"), qStr("y"))}),
		h("b", Fields{"n": qDbl(2.5), "tags": qArr(qStr("y"))}),
		h("a", Fields{"n": qInt(1), "tags": qArr(qStr("x"), qInt(1))}),
	}
}

const (
	nan   = `{"doubleValue":"NaN"}`
	two   = `{"integerValue":"2"}`
	twoF  = `{"doubleValue":2.0}`
	strX  = `{"stringValue":"x"}`
	strY  = `{"stringValue":"y"}`
	str2  = `{"stringValue":"2"}`
	arr2  = `{"arrayValue":{"values":[{"integerValue":"2"}]}}`
	mapX1 = `{"mapValue":{"fields":{"x":{"integerValue":"1"}}}}`
)

func list(values ...string) string {
	return `{"arrayValue":{"values":[` + strings.Join(values, ",") + `]}}`
}

func ref(id string) string { return `{"referenceValue":"users/u1/history/` + id + `"}` }

func cursor(at string, before bool, values ...string) string {
	b := "false"
	if before {
		b = "true"
	}
	return `"` + at + `":{"values":[` + strings.Join(values, ",") + `],"before":` + b + `}`
}

func TestRun(t *testing.T) {
	docs := refDocs(t)
	all := "a b c d e f g h i j k"
	tests := []struct {
		name  string
		query string
		want  string // ids in result order
	}{
		{"everything, by name", sq(), all},

		// EQUAL: numbers by value, each other type apart, null and NaN themselves.
		{"EQUAL 1", sq(where(ff("n", "EQUAL", one))), "a i"},
		{"EQUAL 2.0", sq(where(ff("n", "EQUAL", twoF))), "c"},
		{"EQUAL \"2\"", sq(where(ff("n", "EQUAL", str2))), "d"},
		{"EQUAL null", sq(where(ff("n", "EQUAL", null))), "e"},
		{"IS_NULL", sq(where(unary("n", "IS_NULL"))), "e"},
		{"EQUAL NaN", sq(where(ff("n", "EQUAL", nan))), "f"},
		{"IS_NAN", sq(where(unary("n", "IS_NAN"))), "f"},
		{"EQUAL [2]", sq(where(ff("n", "EQUAL", arr2))), "g"},
		{"EQUAL map", sq(where(ff("n", "EQUAL", mapX1))), "j"},
		{"EQUAL nested field", sq(where(ff("n.x", "EQUAL", one))), "j"},

		// Ranges: the operand's type class only, ordered by the field.
		{"LESS_THAN 2", sq(where(ff("n", "LESS_THAN", two))), "f a i"},
		{"LESS_THAN_OR_EQUAL 2", sq(where(ff("n", "LESS_THAN_OR_EQUAL", two))), "f a i c"},
		{"GREATER_THAN 1", sq(where(ff("n", "GREATER_THAN", one))), "c b"},
		{"GREATER_THAN_OR_EQUAL 1.0", sq(where(ff("n", "GREATER_THAN_OR_EQUAL", `{"doubleValue":1}`))), "a i c b"},
		{"GREATER_THAN \"1\"", sq(where(ff("n", "GREATER_THAN", `{"stringValue":"1"}`))), "d"},
		{"LESS_THAN \"3\"", sq(where(ff("n", "LESS_THAN", `{"stringValue":"3"}`))), "d"},
		{"GREATER_THAN NaN", sq(where(ff("n", "GREATER_THAN", nan))), "a i c b"},
		{"GREATER_THAN_OR_EQUAL NaN", sq(where(ff("n", "GREATER_THAN_OR_EQUAL", nan))), "f a i c b"},
		{"LESS_THAN NaN", sq(where(ff("n", "LESS_THAN", nan))), ""},
		{"LESS_THAN_OR_EQUAL null", sq(where(ff("n", "LESS_THAN_OR_EQUAL", null))), "e"},
		{"LESS_THAN null", sq(where(ff("n", "LESS_THAN", null))), ""},
		{"GREATER_THAN false", sq(where(ff("n", "GREATER_THAN", `{"booleanValue":false}`))), "k"},
		{"GREATER_THAN []", sq(where(ff("n", "GREATER_THAN", `{"arrayValue":{}}`))), "g"},
		{"range on both sides", sq(where(and(ff("n", "GREATER_THAN_OR_EQUAL", one), ff("n", "LESS_THAN", `{"doubleValue":2.5}`)))), "a i c"},

		// NOT_EQUAL and NOT_IN: field present and not null, any type, ordered by the field.
		{"NOT_EQUAL 1", sq(where(ff("n", "NOT_EQUAL", one))), "k f c b d g j"},
		{"NOT_EQUAL null", sq(where(ff("n", "NOT_EQUAL", null))), "k f a i c b d g j"},
		{"IS_NOT_NULL", sq(where(unary("n", "IS_NOT_NULL"))), "k f a i c b d g j"},
		{"NOT_EQUAL NaN", sq(where(ff("n", "NOT_EQUAL", nan))), "k a i c b d g j"},
		{"IS_NOT_NAN", sq(where(unary("n", "IS_NOT_NAN"))), "k a i c b d g j"},
		{"NOT_IN [1, 2]", sq(where(ff("n", "NOT_IN", list(one, two)))), "k f b d g j"},
		{"NOT_IN [NaN]", sq(where(ff("n", "NOT_IN", list(nan)))), "k a i c b d g j"},
		{"NOT_IN [null]", sq(where(ff("n", "NOT_IN", list(null)))), ""},
		{"NOT_IN [5, null]", sq(where(ff("n", "NOT_IN", list(`{"integerValue":"5"}`, null)))), ""},

		// IN: by equality; null and NaN in the list match nothing.
		{"IN [1, \"2\"]", sq(where(ff("n", "IN", list(one, str2)))), "a d i"},
		{"IN [null, 2]", sq(where(ff("n", "IN", list(null, two)))), "c"},
		{"IN [NaN]", sq(where(ff("n", "IN", list(nan)))), ""},
		{"IN [[2]]", sq(where(ff("n", "IN", list(arr2)))), "g"},

		// Array operators.
		{"ARRAY_CONTAINS x", sq(where(ff("tags", "ARRAY_CONTAINS", strX))), "a"},
		{"ARRAY_CONTAINS 1", sq(where(ff("tags", "ARRAY_CONTAINS", one))), "a i"},
		{"ARRAY_CONTAINS null", sq(where(ff("tags", "ARRAY_CONTAINS", null))), ""},
		{"ARRAY_CONTAINS NaN", sq(where(ff("tags", "ARRAY_CONTAINS", nan))), ""},
		{"ARRAY_CONTAINS [x]", sq(where(ff("tags", "ARRAY_CONTAINS", list(strX)))), "h"},
		{"ARRAY_CONTAINS_ANY [y, 1]", sq(where(ff("tags", "ARRAY_CONTAINS_ANY", list(strY, one)))), "a b c i"},
		{"ARRAY_CONTAINS_ANY [null, y]", sq(where(ff("tags", "ARRAY_CONTAINS_ANY", list(null, strY)))), "b c"},
		{"ARRAY_CONTAINS_ANY [NaN]", sq(where(ff("tags", "ARRAY_CONTAINS_ANY", list(nan)))), ""},
		{"ARRAY_CONTAINS with EQUAL", sq(where(and(ff("tags", "ARRAY_CONTAINS", one), ff("n", "EQUAL", one)))), "a i"},

		// __name__: compared as paths.
		{"__name__ EQUAL", sq(where(ff("__name__", "EQUAL", ref("c")))), "c"},
		{"__name__ EQUAL by id", sq(where(ff("__name__", "EQUAL", `{"stringValue":"c"}`))), "c"},
		{"__name__ GREATER_THAN", sq(where(ff("__name__", "GREATER_THAN", ref("i")))), "j k"},
		{"__name__ LESS_THAN_OR_EQUAL", sq(where(ff("__name__", "LESS_THAN_OR_EQUAL", ref("b")))), "a b"},
		{"__name__ IN", sq(where(ff("__name__", "IN", list(ref("e"), ref("c"), `{"stringValue":"zz"}`)))), "c e"},
		{"__name__ NOT_IN", sq(where(ff("__name__", "NOT_IN", list(ref("a"), ref("b"))))), "c d e f g h i j k"},
		{"__name__ NOT_EQUAL", sq(where(ff("__name__", "NOT_EQUAL", ref("a")))), "b c d e f g h i j k"},
		// Segment by segment, history < history- (a joined-string order says the opposite).
		{"__name__ segment order", sq(where(ff("__name__", "LESS_THAN", `{"referenceValue":"users/u1/history-/a"}`))), all},
		{"__name__ before the collection", sq(where(ff("__name__", "LESS_THAN", `{"referenceValue":"users/u1/histor/zz"}`))), ""},

		// Ordering: missing fields left out, mixed types in Firestore's order.
		{"orderBy n", sq(orderBy("n")), "e k f a i c b d g j"},
		{"orderBy n DESC", sq(orderBy("n DESCENDING")), "j g d b c i a f k e"},
		{"orderBy __name__ DESC", sq(orderBy("__name__ DESCENDING")), "k j i h g f e d c b a"},
		{"orderBy n, then __name__ DESC", sq(orderBy("n", "__name__ DESCENDING")), "e k f i a c b d g j"},
		{"orderBy other", sq(orderBy("other")), "h"},
		{"limit", sq(orderBy("n"), `"limit":3`), "e k f"},
		{"limit larger than the results", sq(orderBy("n"), `"limit":30`), "e k f a i c b d g j"},
		{"limitToLast", sq(orderBy("n"), `"limit":3`, `"limitToLast":true`), "d g j"},
		{"limitToLast DESC", sq(orderBy("n DESCENDING"), `"limit":2`, `"limitToLast":true`), "k e"},
		{"limit without order", sq(`"limit":2`), "a b"},

		// Cursors on orderBy n: e k f a i c b d g j.
		{"startAt 1", sq(orderBy("n"), cursor("startAt", true, one)), "a i c b d g j"},
		{"startAfter 1", sq(orderBy("n"), cursor("startAt", false, one)), "c b d g j"},
		{"endAt 2", sq(orderBy("n"), cursor("endAt", false, two)), "e k f a i c"},
		{"endBefore 2", sq(orderBy("n"), cursor("endAt", true, two)), "e k f a i"},
		{"startAt 1, i", sq(orderBy("n"), cursor("startAt", true, one, `{"stringValue":"i"}`)), "i c b d g j"},
		{"startAfter 1, a", sq(orderBy("n"), cursor("startAt", false, one, ref("a"))), "i c b d g j"},
		{"endBefore 1, i", sq(orderBy("n"), cursor("endAt", true, one, ref("i"))), "e k f a"},
		{"startAt a string", sq(orderBy("n"), cursor("startAt", true, `{"stringValue":"0"}`)), "d g j"},
		{"startAt null", sq(orderBy("n"), cursor("startAt", true, null)), "e k f a i c b d g j"},
		{"startAfter null", sq(orderBy("n"), cursor("startAt", false, null)), "k f a i c b d g j"},
		{"startAt and endAt", sq(orderBy("n"), cursor("startAt", false, nan), cursor("endAt", false, twoF)), "a i c"},
		{"empty window", sq(orderBy("n"), cursor("startAt", true, two), cursor("endAt", true, one)), ""},
		{"DESC startAt 2", sq(orderBy("n DESCENDING"), cursor("startAt", true, two)), "c i a f k e"},
		{"DESC startAfter 2", sq(orderBy("n DESCENDING"), cursor("startAt", false, two)), "i a f k e"},
		{"DESC endAt 1", sq(orderBy("n DESCENDING"), cursor("endAt", false, one)), "j g d b c i a"},
		{"startAfter then limit", sq(orderBy("n"), cursor("startAt", false, one), `"limit":2`), "c b"},
		{"endBefore then limitToLast", sq(orderBy("n"), cursor("endAt", true, two), `"limit":2`, `"limitToLast":true`), "a i"},
		{"name cursor, no order", sq(cursor("startAt", false, `{"stringValue":"c"}`)), "d e f g h i j k"},
		{"name endBefore, no order", sq(cursor("endAt", true, ref("e"))), "a b c d"},
		{"cursor on an implicit ordering", sq(where(ff("n", "GREATER_THAN", one)), cursor("startAt", true, twoF)), "c b"},
		{"cursor with a filter", sq(where(ff("n", "NOT_EQUAL", one)), cursor("startAt", false, nan), `"limit":3`), "c b d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ParseQuery("users/u1", []byte(tt.query))
			if err != nil {
				t.Fatalf("ParseQuery(%s): %v", tt.query, err)
			}
			if got := ids(Run(q, docs)); got != tt.want {
				t.Errorf("Run(%s)\n = %q\nwant %q", tt.query, got, tt.want)
			}
		})
	}
}

// TestRunSeveralOrderings checks ties broken field by field, each in its
// own direction, and an inequality on a field after an explicit ordering.
func TestRunSeveralOrderings(t *testing.T) {
	h := func(id string, f Fields) Doc { return Doc{Path: mustPath(t, "users/u1/history/"+id), Fields: f} }
	docs := []Doc{
		h("p", Fields{"a": qInt(1), "b": qInt(2)}),
		h("q", Fields{"a": qInt(1), "b": qInt(1)}),
		h("r", Fields{"a": qInt(0), "b": qInt(5)}),
		h("s", Fields{"a": qInt(1)}),
		h("t", Fields{"a": qInt(1), "b": qInt(2)}),
	}
	tests := []struct {
		name  string
		query string
		want  string
	}{
		// __name__ is appended DESC, like the last explicit ordering: t before p.
		{"a, b DESC", sq(orderBy("a", "b DESCENDING")), "r t p q"},
		{"a, b DESC, limitToLast", sq(orderBy("a", "b DESCENDING"), `"limit":2`, `"limitToLast":true`), "p q"},
		{"startAfter 1, 2", sq(orderBy("a", "b DESCENDING"), cursor("startAt", false, one, two)), "q"},
		{"startAfter 1, 2, t", sq(orderBy("a", "b DESCENDING"), cursor("startAt", false, one, two, ref("t"))), "p q"},
		{"startAt 1", sq(orderBy("a", "b DESCENDING"), cursor("startAt", true, one)), "t p q"},
		{"endAt 1", sq(orderBy("a", "b DESCENDING"), cursor("endAt", false, one)), "r t p q"},
		{"endBefore 1", sq(orderBy("a", "b DESCENDING"), cursor("endAt", true, one)), "r"},
		// b > 1 orders by a DESC (explicit), then b DESC and __name__ DESC (implicit).
		{"inequality after an explicit ordering", sq(where(ff("b", "GREATER_THAN", one)), orderBy("a DESCENDING")), "t p r"},
		{"s has no b", sq(where(ff("a", "EQUAL", one)), orderBy("b")), "q p t"},
	}
	for _, tt := range tests {
		q, err := ParseQuery("users/u1", []byte(tt.query))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := ids(Run(q, docs)); got != tt.want {
			t.Errorf("%s: Run = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRunLeavesInputAlone: Run returns a new slice and does not reorder docs.
func TestRunLeavesInputAlone(t *testing.T) {
	docs := refDocs(t)
	before := make([]string, len(docs))
	for i, d := range docs {
		before[i] = d.Path.String()
	}
	q, err := ParseQuery("users/u1", []byte(sq(orderBy("n"))))
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

func ids(docs []Doc) string {
	out := make([]string, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.Path.ID())
	}
	return strings.Join(slices.Clip(out), " ")
}
