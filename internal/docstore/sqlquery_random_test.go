package docstore

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"handy/internal/docstore/query"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
)

// Random documents and valid random queries over them, for the comparison of
// Store.Query with Run. Values come from a small pool so that filters and
// cursors hit equal values often, across types (1 and 1.0, -0 and 0, NaN).

// randomCollection is the collection the random queries run on.
const randomCollection = "users/u1/r"

// randomIDs are document ids whose byte order differs from naive
// expectations: "a" < "a-" < "a0" < "a\u00e9", "B" < "a", "10" < "9".
var randomIDs = []string{"a", "a-", "a0", "aé", "B", "b", "10", "9", "z", "~",
	"c", "d", "e", "f", "g", "h"}

// randomOutside are document paths outside the collection, as __name__
// operands and cursor values: a subcollection, a sibling collection, a
// collection sorting just before and after, another user, the collection's
// own parent document.
var randomOutside = []string{
	"users/u1/r/a/sub/s", "users/u1/r/~/sub/x", "users/u1/q/a", "users/u1/r-/a",
	"users/u1/rr/a", "users/u0/r/a", "users/u2/r/z", "users/u1",
}

func randomPool() []value.Value {
	ts := func(sec int64, usec int) value.Value {
		return value.Value{Kind: value.Timestamp, Time: time.Unix(sec, int64(usec)*1000).UTC()}
	}
	return []value.Value{
		{Kind: value.Null},
		valuetest.Bool(false), valuetest.Bool(true),
		valuetest.Int(0), valuetest.Int(1), valuetest.Int(-1), valuetest.Int(2), valuetest.Int(math.MaxInt64), valuetest.Int(math.MinInt64), valuetest.Int(1<<53 + 1),
		valuetest.Dbl(0), valuetest.Dbl(math.Copysign(0, -1)), valuetest.Dbl(1), valuetest.Dbl(1.5), valuetest.Dbl(-2.5), valuetest.Dbl(math.NaN()),
		valuetest.Dbl(math.Inf(1)), valuetest.Dbl(math.Inf(-1)), valuetest.Dbl(1 << 53), valuetest.Dbl(9.3e18), valuetest.Dbl(-9.3e18),
		ts(0, 0), ts(1700000000, 1), ts(1700000000, 2), ts(-1, 999999),
		valuetest.Str(""), valuetest.Str("a"), valuetest.Str("ab"), valuetest.Str("b"), valuetest.Str("a\x00"), valuetest.Str("é"),
		{Kind: value.Bytes, Bytes: []byte{}}, {Kind: value.Bytes, Bytes: []byte{0}}, {Kind: value.Bytes, Bytes: []byte("a")},
		{Kind: value.GeoPoint, Lat: 0, Lng: 0}, {Kind: value.GeoPoint, Lat: -10, Lng: 20}, {Kind: value.GeoPoint, Lat: -10, Lng: 30},
		valuetest.Arr(), valuetest.Arr(valuetest.Int(1)), valuetest.Arr(valuetest.Dbl(1), valuetest.Str("a")), valuetest.Arr(value.Value{Kind: value.Null}), valuetest.Arr(valuetest.Int(1), valuetest.Int(1)),
		valuetest.Arr(valuetest.Dbl(math.NaN())), valuetest.Arr(valuetest.Map(value.Fields{"x": valuetest.Int(1)})),
		valuetest.Map(value.Fields{}), valuetest.Map(value.Fields{"x": valuetest.Int(1)}), valuetest.Map(value.Fields{"x": valuetest.Str("a")}), valuetest.Map(value.Fields{"y": valuetest.Int(0)}),
	}
}

// randomFields are the field paths documents hold and queries name; "m.x"
// and "m.y" exist only when m is a map, "odd name" needs back-quotes.
var randomFields = []value.FieldPath{{"a"}, {"b"}, {"m"}, {"m", "x"}, {"m", "y"}, {"arr"}, {"odd name"}}

type randomGen struct {
	r    *rand.Rand
	pool []value.Value
}

// value returns a pool value, null and NaN more often than the others: they
// are where the operators' rules differ most.
func (g *randomGen) value() value.Value {
	switch g.r.IntN(10) {
	case 0:
		return value.Value{Kind: value.Null}
	case 1:
		return valuetest.Dbl(math.NaN())
	}
	return g.pool[g.r.IntN(len(g.pool))]
}

// docs returns the documents of one random data set: most in the collection,
// a few outside it that the queries must never return.
func (g *randomGen) docs() []value.Doc {
	var out []value.Doc
	paths := slices.Clone(randomOutside[:4])
	for _, id := range randomIDs {
		if g.r.IntN(5) > 0 {
			paths = append(paths, randomCollection+"/"+id)
		}
	}
	for _, s := range paths {
		p, err := value.ParseDocumentPath(s)
		if err != nil {
			panic(err)
		}
		out = append(out, value.Doc{Path: p, Fields: g.fields()})
	}
	return out
}

func (g *randomGen) fields() value.Fields {
	f := value.Fields{}
	for _, name := range []string{"a", "b", "arr", "odd name"} {
		if g.r.IntN(6) > 0 {
			f[name] = g.value()
		}
	}
	if g.r.IntN(2) == 0 { // arrays of pool values, beyond the pool's own arrays
		elems := make([]value.Value, g.r.IntN(4))
		for i := range elems {
			// Firestore stores no array directly inside an array.
			for elems[i] = g.value(); elems[i].Kind == value.Array; elems[i] = g.value() {
			}
		}
		f["arr"] = value.Value{Kind: value.Array, Array: elems}
	}
	switch g.r.IntN(4) {
	case 0: // no m
	case 1:
		f["m"] = g.value()
	default:
		m := value.Fields{}
		for _, name := range []string{"x", "y"} {
			if g.r.IntN(3) > 0 {
				m[name] = g.value()
			}
		}
		f["m"] = value.Value{Kind: value.Map, Map: m}
	}
	return f
}

var randomOps = []query.Op{query.OpEqual, query.OpNotEqual, query.OpLessThan, query.OpLessThanOrEqual, query.OpGreaterThan,
	query.OpGreaterThanOrEqual, query.OpArrayContains, query.OpIn, query.OpNotIn, query.OpArrayContainsAny}

// query returns a random valid query over docs; operands and cursors are
// often taken from the documents themselves so that they hit.
func (g *randomGen) query(docs []value.Doc) query.Query {
	parent, err := value.ParseCollectionPath(randomCollection)
	if err != nil {
		panic(err)
	}
	for {
		q := query.Query{Parent: parent}
		for range []int{0, 1, 1, 1, 2, 2, 3}[g.r.IntN(7)] {
			q.Where = append(q.Where, g.filter(docs))
		}
		fields := append(slices.Clone(randomFields), value.FieldPath{value.NameField})
		g.r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		for _, f := range fields[:[]int{0, 0, 1, 1, 1, 2, 3}[g.r.IntN(7)]] {
			q.OrderBy = append(q.OrderBy, query.Order{Field: f, Descending: g.r.IntN(2) == 0})
		}
		if g.r.IntN(2) == 0 {
			q.Limit = 1 + g.r.IntN(6)
			q.LimitToLast = len(q.OrderBy) > 0 && g.r.IntN(3) == 0
		}
		norm := q.Normalized()
		if g.r.IntN(3) == 0 {
			q.StartAt = g.cursor(norm, docs)
		}
		if g.r.IntN(3) == 0 {
			q.EndAt = g.cursor(norm, docs)
		}
		if q.Validate() == nil {
			return q
		}
	}
}

func (g *randomGen) filter(docs []value.Doc) query.Filter {
	fields := append(slices.Clone(randomFields), value.FieldPath{value.NameField})
	f := query.Filter{Field: fields[g.r.IntN(len(fields))], Op: randomOps[g.r.IntN(len(randomOps))]}
	arrayOp := f.Op == query.OpArrayContains || f.Op == query.OpArrayContainsAny
	if arrayOp && g.r.IntN(4) > 0 {
		f.Field = value.FieldPath{"arr"} // where the arrays mostly are
	}
	one := func() value.Value {
		if f.Field.IsName() {
			return g.name(docs)
		}
		if d := docs[g.r.IntN(len(docs))]; g.r.IntN(3) > 0 {
			if v, ok := f.Field.Get(d.Fields); ok {
				if arrayOp && v.Kind == value.Array && len(v.Array) > 0 {
					return v.Array[g.r.IntN(len(v.Array))]
				}
				return v
			}
		}
		return g.value()
	}
	if f.Op.TakesArray() {
		list := make([]value.Value, 1+g.r.IntN(4))
		for i := range list {
			list[i] = one()
		}
		f.Value = value.Value{Kind: value.Array, Array: list}
	} else {
		f.Value = one()
	}
	return f
}

// name returns a document path for __name__: mostly one in the collection.
func (g *randomGen) name(docs []value.Doc) value.Value {
	switch g.r.IntN(4) {
	case 0:
		return valuetest.Str(randomOutside[g.r.IntN(len(randomOutside))])
	case 1:
		return valuetest.Str(randomCollection + "/" + randomIDs[g.r.IntN(len(randomIDs))])
	}
	return valuetest.Str(docs[g.r.IntN(len(docs))].Path.String())
}

// cursor returns a position: the values of a document at the ordering
// (a document's own position), or random values.
func (g *randomGen) cursor(norm []query.Order, docs []value.Doc) *query.Cursor {
	c := &query.Cursor{Before: g.r.IntN(2) == 0}
	n := 1 + g.r.IntN(len(norm))
	d := docs[g.r.IntN(len(docs))]
	own := g.r.IntN(3) > 0
	for _, o := range norm[:n] {
		v, ok := value.Value{}, false
		switch {
		case o.Field.IsName() && own:
			v, ok = valuetest.Str(d.Path.String()), true
		case o.Field.IsName():
			v, ok = g.name(docs), true
		case own:
			v, ok = o.Field.Get(d.Fields)
		}
		if !ok {
			v = g.value()
		}
		c.Values = append(c.Values, v)
	}
	return c
}
