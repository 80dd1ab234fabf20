package docstore

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"
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

func randomPool() []Value {
	ts := func(sec int64, usec int) Value {
		return Value{Kind: Timestamp, Time: time.Unix(sec, int64(usec)*1000).UTC()}
	}
	return []Value{
		{Kind: Null},
		qBool(false), qBool(true),
		qInt(0), qInt(1), qInt(-1), qInt(2), qInt(math.MaxInt64), qInt(math.MinInt64), qInt(1<<53 + 1),
		qDbl(0), qDbl(math.Copysign(0, -1)), qDbl(1), qDbl(1.5), qDbl(-2.5), qDbl(math.NaN()),
		qDbl(math.Inf(1)), qDbl(math.Inf(-1)), qDbl(1 << 53), qDbl(9.3e18), qDbl(-9.3e18),
		ts(0, 0), ts(1700000000, 1), ts(1700000000, 2), ts(-1, 999999),
		qStr(""), qStr("a"), qStr("ab"), qStr("b"), qStr("a\x00"), qStr("é"),
		{Kind: Bytes, Bytes: []byte{}}, {Kind: Bytes, Bytes: []byte{0}}, {Kind: Bytes, Bytes: []byte("a")},
		{Kind: GeoPoint, Lat: 0, Lng: 0}, {Kind: GeoPoint, Lat: -10, Lng: 20}, {Kind: GeoPoint, Lat: -10, Lng: 30},
		qArr(), qArr(qInt(1)), qArr(qDbl(1), qStr("a")), qArr(Value{Kind: Null}), qArr(qInt(1), qInt(1)),
		qArr(qDbl(math.NaN())), qArr(qMap(Fields{"x": qInt(1)})),
		qMap(Fields{}), qMap(Fields{"x": qInt(1)}), qMap(Fields{"x": qStr("a")}), qMap(Fields{"y": qInt(0)}),
	}
}

// randomFields are the field paths documents hold and queries name; "m.x"
// and "m.y" exist only when m is a map, "odd name" needs back-quotes.
var randomFields = []FieldPath{{"a"}, {"b"}, {"m"}, {"m", "x"}, {"m", "y"}, {"arr"}, {"odd name"}}

type randomGen struct {
	r    *rand.Rand
	pool []Value
}

// value returns a pool value, null and NaN more often than the others: they
// are where the operators' rules differ most.
func (g *randomGen) value() Value {
	switch g.r.IntN(10) {
	case 0:
		return Value{Kind: Null}
	case 1:
		return qDbl(math.NaN())
	}
	return g.pool[g.r.IntN(len(g.pool))]
}

// docs returns the documents of one random data set: most in the collection,
// a few outside it that the queries must never return.
func (g *randomGen) docs() []Doc {
	var out []Doc
	paths := slices.Clone(randomOutside[:4])
	for _, id := range randomIDs {
		if g.r.IntN(5) > 0 {
			paths = append(paths, randomCollection+"/"+id)
		}
	}
	for _, s := range paths {
		p, err := ParseDocumentPath(s)
		if err != nil {
			panic(err)
		}
		out = append(out, Doc{Path: p, Fields: g.fields()})
	}
	return out
}

func (g *randomGen) fields() Fields {
	f := Fields{}
	for _, name := range []string{"a", "b", "arr", "odd name"} {
		if g.r.IntN(6) > 0 {
			f[name] = g.value()
		}
	}
	if g.r.IntN(2) == 0 { // arrays of pool values, beyond the pool's own arrays
		elems := make([]Value, g.r.IntN(4))
		for i := range elems {
			// Firestore stores no array directly inside an array.
			for elems[i] = g.value(); elems[i].Kind == Array; elems[i] = g.value() {
			}
		}
		f["arr"] = Value{Kind: Array, Array: elems}
	}
	switch g.r.IntN(4) {
	case 0: // no m
	case 1:
		f["m"] = g.value()
	default:
		m := Fields{}
		for _, name := range []string{"x", "y"} {
			if g.r.IntN(3) > 0 {
				m[name] = g.value()
			}
		}
		f["m"] = Value{Kind: Map, Map: m}
	}
	return f
}

var randomOps = []Op{OpEqual, OpNotEqual, OpLessThan, OpLessThanOrEqual, OpGreaterThan,
	OpGreaterThanOrEqual, OpArrayContains, OpIn, OpNotIn, OpArrayContainsAny}

// query returns a random valid query over docs; operands and cursors are
// often taken from the documents themselves so that they hit.
func (g *randomGen) query(docs []Doc) Query {
	parent, err := ParseCollectionPath(randomCollection)
	if err != nil {
		panic(err)
	}
	for {
		q := Query{Parent: parent}
		for range []int{0, 1, 1, 1, 2, 2, 3}[g.r.IntN(7)] {
			q.Where = append(q.Where, g.filter(docs))
		}
		fields := append(slices.Clone(randomFields), FieldPath{nameField})
		g.r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		for _, f := range fields[:[]int{0, 0, 1, 1, 1, 2, 3}[g.r.IntN(7)]] {
			q.OrderBy = append(q.OrderBy, Order{Field: f, Descending: g.r.IntN(2) == 0})
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

func (g *randomGen) filter(docs []Doc) Filter {
	fields := append(slices.Clone(randomFields), FieldPath{nameField})
	f := Filter{Field: fields[g.r.IntN(len(fields))], Op: randomOps[g.r.IntN(len(randomOps))]}
	arrayOp := f.Op == OpArrayContains || f.Op == OpArrayContainsAny
	if arrayOp && g.r.IntN(4) > 0 {
		f.Field = FieldPath{"arr"} // where the arrays mostly are
	}
	one := func() Value {
		if f.Field.isName() {
			return g.name(docs)
		}
		if d := docs[g.r.IntN(len(docs))]; g.r.IntN(3) > 0 {
			if v, ok := f.Field.Get(d.Fields); ok {
				if arrayOp && v.Kind == Array && len(v.Array) > 0 {
					return v.Array[g.r.IntN(len(v.Array))]
				}
				return v
			}
		}
		return g.value()
	}
	if f.Op.takesArray() {
		list := make([]Value, 1+g.r.IntN(4))
		for i := range list {
			list[i] = one()
		}
		f.Value = Value{Kind: Array, Array: list}
	} else {
		f.Value = one()
	}
	return f
}

// name returns a document path for __name__: mostly one in the collection.
func (g *randomGen) name(docs []Doc) Value {
	switch g.r.IntN(4) {
	case 0:
		return qStr(randomOutside[g.r.IntN(len(randomOutside))])
	case 1:
		return qStr(randomCollection + "/" + randomIDs[g.r.IntN(len(randomIDs))])
	}
	return qStr(docs[g.r.IntN(len(docs))].Path.String())
}

// cursor returns a position: the values of a document at the ordering
// (a document's own position), or random values.
func (g *randomGen) cursor(norm []Order, docs []Doc) *Cursor {
	c := &Cursor{Before: g.r.IntN(2) == 0}
	n := 1 + g.r.IntN(len(norm))
	d := docs[g.r.IntN(len(docs))]
	own := g.r.IntN(3) > 0
	for _, o := range norm[:n] {
		v, ok := Value{}, false
		switch {
		case o.Field.isName() && own:
			v, ok = qStr(d.Path.String()), true
		case o.Field.isName():
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
