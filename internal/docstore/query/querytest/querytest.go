// Package querytest builds structured queries and a reference collection for the tests of the
// query package and of the engine's SQL, which must agree with the query package's Run.
package querytest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
)

// Operand values in the REST encoding.
const (
	One  = `{"integerValue":"1"}`
	Two  = `{"integerValue":"2"}`
	Null = `{"nullValue":null}`
	NaN  = `{"doubleValue":"NaN"}`
	StrX = `{"stringValue":"x"}`
	StrY = `{"stringValue":"y"}`
)

// sq builds a structuredQuery on the "history" collection with extra members.
func SQ(members ...string) string {
	return `{"from":[{"collectionId":"history"}]` + prefixComma(members) + `}`
}

func prefixComma(members []string) string {
	if len(members) == 0 {
		return ""
	}
	return "," + strings.Join(members, ",")
}

// where wraps one filter as the where member.
func Where(filter string) string { return `"where":` + filter }

// ff is a fieldFilter.
func FF(field, op, value string) string {
	return fmt.Sprintf(`{"fieldFilter":{"field":{"fieldPath":%q},"op":%q,"value":%s}}`, field, op, value)
}

// and is a compositeFilter AND of filters.
func And(filters ...string) string {
	return `{"compositeFilter":{"op":"AND","filters":[` + strings.Join(filters, ",") + `]}}`
}

func Unary(field, op string) string {
	return fmt.Sprintf(`{"unaryFilter":{"field":{"fieldPath":%q},"op":%q}}`, field, op)
}

func OrderBy(orders ...string) string {
	var parts []string
	for _, o := range orders {
		field, dir, _ := strings.Cut(o, " ")
		if dir == "" {
			parts = append(parts, fmt.Sprintf(`{"field":{"fieldPath":%q}}`, field))
		} else {
			parts = append(parts, fmt.Sprintf(`{"field":{"fieldPath":%q},"direction":%q}`, field, dir))
		}
	}
	return `"orderBy":[` + strings.Join(parts, ",") + `]`
}

// refDocs is the mixed-type collection the hand-computed cases run on. In
// Firestore's order the n values are: e null < k true < f NaN < a 1 = i 1.0
// < c 2 < b 2.5 < d "2" < g [2] < j {x: 1}; h has no n.
func RefDocs(t testing.TB) []value.Doc {
	doc := func(path string, f value.Fields) value.Doc {
		return value.Doc{Path: valuetest.MustPath(t, path), Fields: f}
	}
	h := func(id string, f value.Fields) value.Doc { return doc("users/u1/history/"+id, f) }
	return []value.Doc{
		// Out of scope: another collection, a subcollection, another user.
		doc("users/u1/other/z", value.Fields{"n": valuetest.Int(1)}),
		doc("users/u1/history/a/sub/s", value.Fields{"n": valuetest.Int(1)}),
		doc("users/u2/history/a", value.Fields{"n": valuetest.Int(1)}),

		h("k", value.Fields{"n": valuetest.Bool(true)}),
		h("j", value.Fields{"n": valuetest.Map(value.Fields{"x": valuetest.Int(1)})}),
		h("i", value.Fields{"n": valuetest.Dbl(1), "tags": valuetest.Arr(valuetest.Dbl(1))}),
		h("h", value.Fields{"other": valuetest.Int(1), "tags": valuetest.Arr(valuetest.Arr(valuetest.Str("x")))}),
		h("g", value.Fields{"n": valuetest.Arr(valuetest.Int(2)), "tags": valuetest.Arr(valuetest.Dbl(math.NaN()))}),
		h("f", value.Fields{"n": valuetest.Dbl(math.NaN()), "tags": valuetest.Arr(value.Value{Kind: value.Null})}),
		h("e", value.Fields{"n": {Kind: value.Null}, "tags": valuetest.Str("x")}),
		h("d", value.Fields{"n": valuetest.Str("2"), "tags": valuetest.Arr()}),
		h("c", value.Fields{"n": valuetest.Int(2), "tags": valuetest.Arr(valuetest.Str("y"), valuetest.Str("y"))}),
		h("b", value.Fields{"n": valuetest.Dbl(2.5), "tags": valuetest.Arr(valuetest.Str("y"))}),
		h("a", value.Fields{"n": valuetest.Int(1), "tags": valuetest.Arr(valuetest.Str("x"), valuetest.Int(1))}),
	}
}

func List(values ...string) string {
	return `{"arrayValue":{"values":[` + strings.Join(values, ",") + `]}}`
}

func Ref(id string) string { return `{"referenceValue":"users/u1/history/` + id + `"}` }

func Cursor(at string, before bool, values ...string) string {
	b := "false"
	if before {
		b = "true"
	}
	return `"` + at + `":{"values":[` + strings.Join(values, ",") + `],"before":` + b + `}`
}

// ids lists the documents' ids in order, space-separated.
func IDs(docs []value.Doc) string {
	out := make([]string, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.Path.ID())
	}
	return strings.Join(slices.Clip(out), " ")
}
