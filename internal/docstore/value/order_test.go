package value

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func sign(n int) int { return max(-1, min(1, n)) }

// ascending lists values in Firestore's order; values in one group are equal.
func ascending() [][]Value {
	i := func(n int64) Value { return Value{Kind: Integer, Int: n} }
	d := func(f float64) Value { return Value{Kind: Double, Double: f} }
	s := func(x string) Value { return Value{Kind: String, Str: x} }
	ts := func(sec int64, ns int64) Value { return Value{Kind: Timestamp, Time: time.Unix(sec, ns).UTC()} }
	arr := func(vs ...Value) Value { return Value{Kind: Array, Array: vs} }
	m := func(kv ...any) Value {
		f := Fields{}
		for j := 0; j < len(kv); j += 2 {
			f[kv[j].(string)] = kv[j+1].(Value)
		}
		return Value{Kind: Map, Map: f}
	}
	return [][]Value{
		{{}},
		{{Kind: Boolean}},
		{{Kind: Boolean, Bool: true}},
		{d(math.NaN()), d(math.Float64frombits(0x7FF0000000000001)), d(-math.NaN())},
		{d(math.Inf(-1))},
		{d(-math.MaxFloat64)},
		{d(-(1 << 63) - 2048)}, // the double below -2^63
		{i(math.MinInt64), d(-(1 << 63))},
		{i(math.MinInt64 + 1)},
		{i(-1<<53 - 1)},
		{i(-1 << 53), d(-(1 << 53))},
		{d(-1.5)},
		{i(-1), d(-1)},
		{d(-math.SmallestNonzeroFloat64)},
		{i(0), d(0), d(math.Copysign(0, -1))},
		{d(math.SmallestNonzeroFloat64)},
		{d(0.5)},
		{i(1), d(1)},
		{d(1.0000000000000002)},
		{i(2), d(2)},
		{i(1 << 53), d(1 << 53)},
		{i(1<<53 + 1)},
		{i(1<<53 + 2), d(1<<53 + 2)},
		{i(math.MaxInt64 - 1)},
		{i(math.MaxInt64)},
		{d(1 << 63)},
		{d(math.MaxFloat64)},
		{d(math.Inf(1))},
		{ts(-62135596800, 0)},
		{ts(-1, 999999000)},
		{ts(0, 0)},
		{ts(0, 1000)},
		{ts(253402300799, 999999000)},
		{s("")},
		{s("\x00")},
		{s("\x00\x00")},
		{s("\x00a")},
		{s("\x01")},
		{s("a")},
		{s("a\x00")},
		{s("ab")},
		{s("b")},
		{s("é")}, // UTF-8 byte order: U+00E9 before U+FF5E and emoji
		{s("～")},
		{s("😀")},
		{{Kind: Bytes}, {Kind: Bytes, Bytes: []byte{}}},
		{{Kind: Bytes, Bytes: []byte{0}}},
		{{Kind: Bytes, Bytes: []byte{0, 0xFF}}},
		{{Kind: Bytes, Bytes: []byte{1}}},
		{{Kind: Bytes, Bytes: []byte{0xFF}}},
		{{Kind: GeoPoint, Lat: -90, Lng: 10}},
		{{Kind: GeoPoint, Lat: 0, Lng: -180}, {Kind: GeoPoint, Lat: math.Copysign(0, -1), Lng: -180}},
		{{Kind: GeoPoint, Lat: 0, Lng: 0}},
		{{Kind: GeoPoint, Lat: 90, Lng: -180}},
		{arr(), {Kind: Array, Array: []Value{}}},
		{arr(Value{})},
		{arr(i(1), i(2), i(3)), arr(d(1), i(2), d(3))},
		{arr(i(1), i(2), i(3), i(1))},
		{arr(i(2))},
		{arr(s("a"))},
		{arr(m())},
		{m(), {Kind: Map, Map: Fields{}}},
		{m("a", s("aaa"), "b", s("baz"))},
		{m("a", s("foo"), "b", s("bar"))},
		{m("a", s("foo"), "b", s("bar"), "c", s("qux"))},
		{m("a", s("foo"), "b", s("baz"))},
		{m("a\x00", Value{})},
		{m("b", s("aaa"), "c", s("baz"))},
		{m("c", s("aaa"))},
		{{Kind: 42}},
		{{Kind: 200}},
	}
}

func TestCompareTable(t *testing.T) {
	groups := ascending()
	for gi, ga := range groups {
		for gj, gb := range groups {
			want := sign(gi - gj)
			for _, a := range ga {
				for _, b := range gb {
					if got := Compare(a, b); got != want {
						t.Errorf("Compare(%#v, %#v) = %d, want %d", a, b, got, want)
					}
					if got := sign(bytes.Compare(AppendKey(nil, a), AppendKey(nil, b))); got != want {
						t.Errorf("key order of %#v, %#v = %d, want %d\n%x\n%x", a, b, got, want, AppendKey(nil, a), AppendKey(nil, b))
					}
					if Equal(a, b) != (want == 0) {
						t.Errorf("Equal(%#v, %#v) = %v", a, b, !(want == 0))
					}
				}
			}
		}
	}
	// AppendKey appends.
	if got := AppendKey([]byte("x"), Value{}); !bytes.Equal(got, []byte{'x', keyNull}) {
		t.Errorf("AppendKey(x, null) = %x", got)
	}
}

// randomValue makes a valid value (one MarshalJSON accepts), biased toward
// the edges: boundary numbers, numbers that interleave, near-equal strings.
func randomValue(r *rand.Rand, depth int, inArray bool) Value {
	edgeNums := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1 << 53, 1<<53 + 2, -(1 << 53),
		1 << 63, -(1 << 63), 0.5, -0.5, 1, -1, math.MaxFloat64, math.SmallestNonzeroFloat64, 9007199254740991}
	edgeInts := []int64{0, 1, -1, math.MinInt64, math.MaxInt64, 1 << 53, 1<<53 + 1, 1<<53 - 1, -1<<53 - 1, 1 << 62, math.MinInt64 + 1}
	strs := []string{"", "a", "a\x00", "\x00", "ab", "b", "é", "😀", "\xef\xbf\xbf"}
	kinds := 10
	if depth >= MaxDepth {
		kinds = 8 // scalars only
	}
	switch k := Kind(r.IntN(kinds)); k {
	case Null:
		return Value{}
	case Boolean:
		return Value{Kind: Boolean, Bool: r.IntN(2) == 1}
	case Integer:
		if r.IntN(2) == 0 {
			return Value{Kind: Integer, Int: edgeInts[r.IntN(len(edgeInts))]}
		}
		return Value{Kind: Integer, Int: r.Int64N(2001) - 1000}
	case Double:
		switch r.IntN(3) {
		case 0:
			return Value{Kind: Double, Double: edgeNums[r.IntN(len(edgeNums))]}
		case 1:
			return Value{Kind: Double, Double: float64(r.IntN(2001)-1000) / 4}
		}
		return Value{Kind: Double, Double: math.Float64frombits(r.Uint64())}
	case Timestamp:
		sec := r.Int64N(253402300800+62135596800) - 62135596800
		if r.IntN(2) == 0 {
			sec = r.Int64N(3) - 1
		}
		return Value{Kind: Timestamp, Time: time.Unix(sec, int64(r.IntN(3))*int64(r.IntN(1_000_000))*1000%1e9).UTC()}
	case String:
		return Value{Kind: String, Str: strs[r.IntN(len(strs))] + strs[r.IntN(len(strs))]}
	case Bytes:
		b := make([]byte, r.IntN(4))
		for i := range b {
			b[i] = []byte{0, 1, 0xFF, 'a'}[r.IntN(4)]
		}
		return Value{Kind: Bytes, Bytes: b}
	case GeoPoint:
		c := []float64{-90, 0, math.Copysign(0, -1), 45.5, 90}
		return Value{Kind: GeoPoint, Lat: c[r.IntN(len(c))], Lng: c[r.IntN(len(c))] * 2}
	case Array:
		if inArray {
			return Value{Kind: Map}
		}
		a := make([]Value, r.IntN(4))
		for i := range a {
			a[i] = randomValue(r, depth+1, true)
		}
		return Value{Kind: Array, Array: a}
	default:
		m := Fields{}
		for range r.IntN(4) {
			m[[]string{"a", "b", "a b", "é", "_"}[r.IntN(5)]] = randomValue(r, depth+1, false)
		}
		return Value{Kind: Map, Map: m}
	}
}

// TestCompareProperties checks, over random pairs and triples, that Compare
// is a total order (antisymmetric, transitive), that AppendKey agrees with it
// exactly, and that random values round-trip through JSON.
func TestCompareProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2024))
	const n = 3000
	vals := make([]Value, n)
	keys := make([][]byte, n)
	for i := range vals {
		vals[i] = randomValue(r, 1, false)
		keys[i] = AppendKey(nil, vals[i])
		enc, err := vals[i].MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON(%#v): %v", vals[i], err)
		}
		got, err := Decode(enc)
		if err != nil || !identical(got, vals[i]) && !(Equal(got, vals[i]) && hasNaN(vals[i])) {
			t.Fatalf("round trip of %#v via %s = %#v, %v", vals[i], enc, got, err)
		}
	}
	for range 20 * n {
		a, b, c := r.IntN(n), r.IntN(n), r.IntN(n)
		ab, ba := Compare(vals[a], vals[b]), Compare(vals[b], vals[a])
		if ab != -ba {
			t.Fatalf("Compare not antisymmetric: %#v vs %#v: %d, %d", vals[a], vals[b], ab, ba)
		}
		if k := sign(bytes.Compare(keys[a], keys[b])); k != ab {
			t.Fatalf("AppendKey disagrees with Compare on %#v vs %#v: %d vs %d", vals[a], vals[b], k, ab)
		}
		if ab <= 0 && Compare(vals[b], vals[c]) <= 0 && Compare(vals[a], vals[c]) > 0 {
			t.Fatalf("Compare not transitive: %#v <= %#v <= %#v", vals[a], vals[b], vals[c])
		}
	}
	// Sorting by Compare and by key gives the same sequence of keys.
	byCompare := slices.Clone(vals)
	slices.SortStableFunc(byCompare, Compare)
	sortedKeys := slices.Clone(keys)
	slices.SortFunc(sortedKeys, bytes.Compare)
	for i, v := range byCompare {
		if !bytes.Equal(AppendKey(nil, v), sortedKeys[i]) {
			t.Fatalf("position %d: sorted by Compare %#v, by key %x", i, v, sortedKeys[i])
		}
	}
}

// hasNaN reports whether v holds a NaN, whose payload bits the JSON "NaN"
// does not carry.
func hasNaN(v Value) bool {
	switch v.Kind {
	case Double:
		return math.IsNaN(v.Double)
	case Array:
		return slices.ContainsFunc(v.Array, hasNaN)
	case Map:
		for _, e := range v.Map {
			if hasNaN(e) {
				return true
			}
		}
	}
	return false
}
