package docstore

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestIndexRows(t *testing.T) {
	t.Parallel()
	p := mustPath(t, "users/u1/history/h1")
	one, oneDouble, word := Value{Kind: Integer, Int: 1}, Value{Kind: Double, Double: 1}, Value{Kind: String, Str: "w"}
	inner := Value{Kind: Map, Map: map[string]Value{"b": one, "odd name": word}}
	list := Value{Kind: Array, Array: []Value{word, one, oneDouble, inner}}
	f := Fields{"a": {Kind: Map, Map: map[string]Value{"m": inner, "l": list}}, "n": {Kind: Double, Double: math.NaN()}, "e": {Kind: Map}}
	type row struct {
		field string
		key   []byte
	}
	want := []row{
		{"__name__", nameKey(p)},
		{"a", AppendKey(nil, f["a"])},
		{"a.l", AppendKey(nil, list)},
		{"a.l[]", AppendKey(nil, one)}, // 1 and 1.0 are one element
		{"a.l[]", AppendKey(nil, word)},
		{"a.l[]", AppendKey(nil, inner)}, // a map element as a whole, not its fields
		{"a.m", AppendKey(nil, inner)},
		{"a.m.`odd name`", AppendKey(nil, word)},
		{"a.m.b", AppendKey(nil, one)},
		{"e", AppendKey(nil, f["e"])},
		{"n", AppendKey(nil, f["n"])},
	}
	got := indexRows(p, f)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d: %v", len(got), len(want), got)
	}
	for i, r := range got {
		if r.Parent != "users/u1/history" || r.Path != "users/u1/history/h1" || r.Field != want[i].field || !bytes.Equal(r.Key, want[i].key) {
			t.Errorf("row %d = %+v, want field %s key %x", i, r, want[i].field, want[i].key)
		}
	}
}

// Every field path Run can reach has its row with the value's key, and no other
// path has one, so that the SQL half answers what Run answers.
func TestIndexRowsMatchGet(t *testing.T) {
	t.Parallel()
	p := mustPath(t, "c/d")
	f := Fields{
		"x": {Kind: Map, Map: map[string]Value{
			"y": {Kind: Map, Map: map[string]Value{"z": {Kind: Boolean, Bool: true}}},
			"a": {Kind: Array, Array: []Value{{Kind: Map, Map: map[string]Value{"k": {Kind: Null}}}}},
		}},
	}
	rows := map[string][]byte{}
	for _, r := range indexRows(p, f) {
		if !strings.HasSuffix(r.Field, elementsSuffix) {
			rows[r.Field] = r.Key
		}
	}
	for _, s := range []string{"x", "x.y", "x.y.z", "x.a"} {
		fp, err := ParseFieldPath(s)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := fp.Get(f)
		if !ok || !bytes.Equal(rows[s], AppendKey(nil, v)) {
			t.Errorf("%s: row %x, Get %v %v", s, rows[s], v, ok)
		}
		delete(rows, s)
	}
	delete(rows, nameField)
	if len(rows) != 0 {
		t.Errorf("rows for paths Get cannot reach: %v", rows)
	}
}

func TestIndexRowsLeaveOutLongEntries(t *testing.T) {
	t.Parallel()
	long := Value{Kind: String, Str: strings.Repeat("x", MaxIndexEntryBytes)}
	short := Value{Kind: String, Str: "s"}
	f := Fields{"long": long, "m": {Kind: Map, Map: map[string]Value{"a": short, "b": long}}, "l": {Kind: Array, Array: []Value{short, long}}}
	var fields []string
	for _, r := range indexRows(mustPath(t, "c/d"), f) {
		fields = append(fields, r.Field)
		if len(r.Field)+len(r.Key) > MaxIndexEntryBytes {
			t.Errorf("row %s has %d bytes", r.Field, len(r.Field)+len(r.Key))
		}
	}
	if got := strings.Join(fields, " "); got != "__name__ l[] m.a" {
		t.Errorf("rows %s, want the short leaves only", got)
	}
}

func TestNameKeyOrdersAsPathCompare(t *testing.T) {
	t.Parallel()
	paths := []string{"a/b", "a-/b", "a/b/c/d", "a/b-", "a/b/c/d\x00", "ab/c", "a\x00/b", "a\x00\x01/b", "a/c", "b/a"}
	for _, x := range paths {
		for _, y := range paths {
			px, py := mustPath(t, x), mustPath(t, y)
			if got, want := bytes.Compare(nameKey(px), nameKey(py)), px.Compare(py); got != want {
				t.Errorf("%q vs %q: keys %d, paths %d", x, y, got, want)
			}
		}
	}
}
