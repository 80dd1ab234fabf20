package docstore

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
)

func TestIndexRows(t *testing.T) {
	t.Parallel()
	p := valuetest.MustPath(t, "users/u1/history/h1")
	one, oneDouble, word := value.Value{Kind: value.Integer, Int: 1}, value.Value{Kind: value.Double, Double: 1}, value.Value{Kind: value.String, Str: "w"}
	inner := value.Value{Kind: value.Map, Map: map[string]value.Value{"b": one, "odd name": word}}
	list := value.Value{Kind: value.Array, Array: []value.Value{word, one, oneDouble, inner}}
	f := value.Fields{"a": {Kind: value.Map, Map: map[string]value.Value{"m": inner, "l": list}}, "n": {Kind: value.Double, Double: math.NaN()}, "e": {Kind: value.Map}}
	type row struct {
		field string
		key   []byte
	}
	want := []row{
		{"__name__", value.PathKey(p)},
		{"a", value.AppendKey(nil, f["a"])},
		{"a.l", value.AppendKey(nil, list)},
		{"a.l[]", value.AppendKey(nil, one)}, // 1 and 1.0 are one element
		{"a.l[]", value.AppendKey(nil, word)},
		{"a.l[]", value.AppendKey(nil, inner)}, // a map element as a whole, not its fields
		{"a.m", value.AppendKey(nil, inner)},
		{"a.m.`odd name`", value.AppendKey(nil, word)},
		{"a.m.b", value.AppendKey(nil, one)},
		{"e", value.AppendKey(nil, f["e"])},
		{"n", value.AppendKey(nil, f["n"])},
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
	p := valuetest.MustPath(t, "c/d")
	f := value.Fields{
		"x": {Kind: value.Map, Map: map[string]value.Value{
			"y": {Kind: value.Map, Map: map[string]value.Value{"z": {Kind: value.Boolean, Bool: true}}},
			"a": {Kind: value.Array, Array: []value.Value{{Kind: value.Map, Map: map[string]value.Value{"k": {Kind: value.Null}}}}},
		}},
	}
	rows := map[string][]byte{}
	for _, r := range indexRows(p, f) {
		if !strings.HasSuffix(r.Field, elementsSuffix) {
			rows[r.Field] = r.Key
		}
	}
	for _, s := range []string{"x", "x.y", "x.y.z", "x.a"} {
		fp, err := value.ParseFieldPath(s)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := fp.Get(f)
		if !ok || !bytes.Equal(rows[s], value.AppendKey(nil, v)) {
			t.Errorf("%s: row %x, Get %v %v", s, rows[s], v, ok)
		}
		delete(rows, s)
	}
	delete(rows, value.NameField)
	if len(rows) != 0 {
		t.Errorf("rows for paths Get cannot reach: %v", rows)
	}
}

func TestIndexRowsLeaveOutLongEntries(t *testing.T) {
	t.Parallel()
	long := value.Value{Kind: value.String, Str: strings.Repeat("x", MaxIndexEntryBytes)}
	short := value.Value{Kind: value.String, Str: "s"}
	f := value.Fields{"long": long, "m": {Kind: value.Map, Map: map[string]value.Value{"a": short, "b": long}}, "l": {Kind: value.Array, Array: []value.Value{short, long}}}
	var fields []string
	for _, r := range indexRows(valuetest.MustPath(t, "c/d"), f) {
		fields = append(fields, r.Field)
		if len(r.Field)+len(r.Key) > MaxIndexEntryBytes {
			t.Errorf("row %s has %d bytes", r.Field, len(r.Field)+len(r.Key))
		}
	}
	if got := strings.Join(fields, " "); got != "__name__ l[] m.a" {
		t.Errorf("rows %s, want the short leaves only", got)
	}
}
