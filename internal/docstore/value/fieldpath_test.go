package value

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"handy/internal/docstore/status"
)

func TestValidFieldName(t *testing.T) {
	tests := []struct {
		name    string
		wantErr string
	}{
		{"a", ""},
		{"odd.name", ""},
		{"with space", ""},
		{"__", ""},
		{"___", ""},
		{"__x", ""},
		{"x__", ""},
		{"_x_", ""},
		{"ü", ""},
		{strings.Repeat("n", MaxFieldNameBytes), ""},

		{"", "field name is empty"},
		{"__x__", `field name "__x__" is reserved`},
		{"____", `field name "____" is reserved`},
		{"__name__", `field name "__name__" is reserved`},
		{"a~b", `field name "a~b" contains '~'`},
		{"a*b", `contains '*'`},
		{"a/b", `contains '/'`},
		{"a[0]", `contains '['`},
		{"a]", `contains ']'`},
		{"\xff", "not valid UTF-8"},
		{strings.Repeat("n", MaxFieldNameBytes+1), "longer than 1500 bytes"},
	}
	for _, tt := range tests {
		err := ValidFieldName(tt.name)
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("ValidFieldName(%.20q) = %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, status.ErrInvalidArgument) {
			t.Errorf("ValidFieldName(%.20q) = %v, want invalid-argument containing %q", tt.name, err, tt.wantErr)
		}
	}
}

func TestParseFieldPath(t *testing.T) {
	tests := []struct {
		in        string
		want      FieldPath
		canonical string // String() of the result; "" when it is in
		wantErr   string
	}{
		{in: "a", want: FieldPath{"a"}},
		{in: "a.b.c", want: FieldPath{"a", "b", "c"}},
		{in: "_x.A9", want: FieldPath{"_x", "A9"}},
		{in: "`odd.name`.c", want: FieldPath{"odd.name", "c"}},
		{in: "`back\\`tick`", want: FieldPath{"back`tick"}},
		{in: "`back\\\\slash`", want: FieldPath{"back\\slash"}},
		{in: "`a`", want: FieldPath{"a"}, canonical: "a"},
		{in: "`9lives`", want: FieldPath{"9lives"}},
		{in: "`a-b`.`ü`", want: FieldPath{"a-b", "ü"}},
		{in: "`with space`", want: FieldPath{"with space"}},
		{in: "`__`", want: FieldPath{"__"}, canonical: "__"},

		{in: "", wantErr: "field path is empty"},
		{in: "a..b", wantErr: `field path "a..b" has an empty segment`},
		{in: ".a", wantErr: `field path ".a" has an empty segment`},
		{in: "a.", wantErr: `field path "a." has an empty segment`},
		{in: "a.``", wantErr: "field path \"a.``\" has an empty segment"},
		{in: "a~b", wantErr: `field path "a~b": field name "a~b" contains '~'`},
		{in: "`a~b`", wantErr: `field name "a~b" contains '~'`},
		{in: "x.`a/b`", wantErr: `contains '/'`},
		{in: "a[0]", wantErr: `contains '['`},
		{in: "a.*", wantErr: `contains '*'`},
		{in: "__x__", wantErr: `field name "__x__" is reserved`},
		{in: "a.`__x__`", wantErr: "is reserved"},
		{in: "__name__", wantErr: "is reserved"},
		{in: "a-b", wantErr: `"a-b" must be back-quoted`},
		{in: "9lives", wantErr: `"9lives" must be back-quoted`},
		{in: "`open", wantErr: "unterminated back-quoted name"},
		{in: "`a\\n`", wantErr: "only \\` and \\\\ may follow \\"},
		{in: "`a\\", wantErr: "only \\` and \\\\ may follow \\"},
		{in: "`a`b", wantErr: `must be followed by "." or the end`},
		{in: "`\xff`", wantErr: "not valid UTF-8"},
	}
	for _, tt := range tests {
		got, err := ParseFieldPath(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, status.ErrInvalidArgument) {
				t.Errorf("ParseFieldPath(%q) = %v, %v; want invalid-argument containing %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseFieldPath(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
			continue
		}
		canonical := tt.canonical
		if canonical == "" {
			canonical = tt.in
		}
		if got.String() != canonical {
			t.Errorf("ParseFieldPath(%q).String() = %q, want %q", tt.in, got.String(), canonical)
		}
	}
}

func TestFieldPathStringRoundTrip(t *testing.T) {
	for _, f := range []FieldPath{
		{"a"}, {"a", "b"}, {"odd.name"}, {"`"}, {"\\"}, {"a`b\\c.d"}, {"é", "x y", "_1"}, {"__"},
	} {
		got, err := ParseFieldPath(f.String())
		if err != nil || !got.Equal(f) {
			t.Errorf("ParseFieldPath(%q) = %#v, %v; want %#v", f.String(), got, err, f)
		}
	}
}

// FuzzParseFieldPath: the parser never panics, and whatever it accepts
// prints to a canonical form that parses back to the same path (and prints
// the same again).
func FuzzParseFieldPath(f *testing.F) {
	for _, s := range []string{"a", "a.b", "`odd.name`.c", "`back\\`tick`", "`\\\\`", "a..b", "`", "__x__", "a~b", "`ü`.é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFieldPath(s)
		if err != nil {
			var e *status.Error
			if !errors.As(err, &e) || !errors.Is(err, status.ErrInvalidArgument) {
				t.Fatalf("ParseFieldPath(%q) error %v is not an invalid-argument Error", s, err)
			}
			return
		}
		if len(p) == 0 {
			t.Fatalf("ParseFieldPath(%q) accepted an empty path", s)
		}
		for _, seg := range p {
			if err := ValidFieldName(seg); err != nil {
				t.Fatalf("ParseFieldPath(%q) accepted segment %q: %v", s, seg, err)
			}
		}
		back, err := ParseFieldPath(p.String())
		if err != nil || !back.Equal(p) {
			t.Fatalf("ParseFieldPath(%q) = %#v; its String %q parses to %#v, %v", s, p, p.String(), back, err)
		}
		if back.String() != p.String() {
			t.Fatalf("String not canonical: %q then %q", p.String(), back.String())
		}
	})
}

func TestFieldPathGet(t *testing.T) {
	fields := Fields{
		"a":   qInt(1),
		"m":   qMap(Fields{"b": qInt(2), "n": qMap(Fields{"c": qInt(3)})}),
		"arr": {Kind: Array, Array: []Value{qInt(4)}},
	}
	tests := []struct {
		path FieldPath
		want Value
		ok   bool
	}{
		{FieldPath{"a"}, qInt(1), true},
		{FieldPath{"m", "b"}, qInt(2), true},
		{FieldPath{"m", "n", "c"}, qInt(3), true},
		{FieldPath{"m"}, fields["m"], true},
		{FieldPath{"missing"}, Value{}, false},
		{FieldPath{"a", "b"}, Value{}, false},   // through a scalar
		{FieldPath{"arr", "0"}, Value{}, false}, // arrays are not addressed by field paths
		{FieldPath{"m", "x"}, Value{}, false},
		{nil, Value{}, false},
	}
	for _, tt := range tests {
		got, ok := tt.path.Get(fields)
		if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Get(%v) = %v, %v; want %v, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

func TestApplyMask(t *testing.T) {
	fp := func(s string) FieldPath {
		p, err := ParseFieldPath(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	mask := func(ss ...string) []FieldPath {
		var m []FieldPath
		for _, s := range ss {
			m = append(m, fp(s))
		}
		return m
	}
	tests := []struct {
		name     string
		dst, src Fields
		mask     []FieldPath
		want     Fields
	}{
		{
			name: "set a top-level field, others stay",
			dst:  Fields{"a": qInt(1), "b": qInt(2)},
			src:  Fields{"a": qInt(10)},
			mask: mask("a"),
			want: Fields{"a": qInt(10), "b": qInt(2)},
		},
		{
			name: "masked but absent in src: deleted",
			dst:  Fields{"a": qInt(1), "b": qInt(2)},
			src:  Fields{},
			mask: mask("a"),
			want: Fields{"b": qInt(2)},
		},
		{
			name: "src fields outside the mask are ignored",
			dst:  Fields{"a": qInt(1)},
			src:  Fields{"a": qInt(10), "z": qInt(26)},
			mask: mask("a"),
			want: Fields{"a": qInt(10)},
		},
		{
			name: "nested set keeps the map's other keys",
			dst:  Fields{"m": qMap(Fields{"x": qInt(1), "y": qInt(2)})},
			src:  Fields{"m": qMap(Fields{"x": qInt(10), "y": qInt(20)})},
			mask: mask("m.x"),
			want: Fields{"m": qMap(Fields{"x": qInt(10), "y": qInt(2)})},
		},
		{
			name: "masking a whole map replaces it",
			dst:  Fields{"m": qMap(Fields{"x": qInt(1), "y": qInt(2)})},
			src:  Fields{"m": qMap(Fields{"z": qInt(3)})},
			mask: mask("m"),
			want: Fields{"m": qMap(Fields{"z": qInt(3)})},
		},
		{
			name: "intermediate maps are created",
			dst:  Fields{},
			src:  Fields{"a": qMap(Fields{"b": qMap(Fields{"c": qInt(1)})})},
			mask: mask("a.b.c"),
			want: Fields{"a": qMap(Fields{"b": qMap(Fields{"c": qInt(1)})})},
		},
		{
			name: "a scalar in the way is replaced by a map",
			dst:  Fields{"a": qInt(5)},
			src:  Fields{"a": qMap(Fields{"b": qInt(1)})},
			mask: mask("a.b"),
			want: Fields{"a": qMap(Fields{"b": qInt(1)})},
		},
		{
			name: "nested delete leaves the emptied map",
			dst:  Fields{"m": qMap(Fields{"x": qInt(1)})},
			src:  Fields{},
			mask: mask("m.x"),
			want: Fields{"m": qMap(Fields{})},
		},
		{
			name: "deleting a missing nested path creates nothing",
			dst:  Fields{"a": qInt(1)},
			src:  Fields{},
			mask: mask("m.x", "a.b"),
			want: Fields{"a": qInt(1)},
		},
		{
			name: "odd names through back-quotes",
			dst:  Fields{"odd.name": qInt(1), "odd": qMap(Fields{"name": qInt(2)})},
			src:  Fields{"odd.name": qInt(10)},
			mask: mask("`odd.name`"),
			want: Fields{"odd.name": qInt(10), "odd": qMap(Fields{"name": qInt(2)})},
		},
		{
			name: "a path and its extension, either order",
			dst:  Fields{"m": qMap(Fields{"x": qInt(1), "y": qInt(2)})},
			src:  Fields{"m": qMap(Fields{"y": qInt(20)})},
			mask: mask("m.x", "m"),
			want: Fields{"m": qMap(Fields{"y": qInt(20)})},
		},
		{
			name: "nil dst",
			dst:  nil,
			src:  Fields{"a": qInt(1)},
			mask: mask("a", "b"),
			want: Fields{"a": qInt(1)},
		},
		{
			name: "empty mask changes nothing",
			dst:  Fields{"a": qInt(1)},
			src:  Fields{"a": qInt(2)},
			mask: nil,
			want: Fields{"a": qInt(1)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := deepCopyFields(tt.dst)
			got := ApplyMask(tt.dst, tt.src, tt.mask)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ApplyMask = %v, want %v", got, tt.want)
			}
			if !reflect.DeepEqual(tt.dst, before) {
				t.Errorf("ApplyMask modified dst: %v, was %v", tt.dst, before)
			}
		})
	}
	// Reversed order of a path and its extension gives the same result.
	dst := Fields{"m": qMap(Fields{"x": qInt(1), "y": qInt(2)})}
	src := Fields{"m": qMap(Fields{"y": qInt(20)})}
	a := ApplyMask(dst, src, mask("m.x", "m"))
	b := ApplyMask(dst, src, mask("m", "m.x"))
	if !reflect.DeepEqual(a, b) {
		t.Errorf("order matters: %v vs %v", a, b)
	}
}

func deepCopyFields(f Fields) Fields {
	if f == nil {
		return nil
	}
	out := Fields{}
	for k, v := range f {
		if v.Kind == Map {
			v.Map = deepCopyFields(v.Map)
		}
		out[k] = v
	}
	return out
}

func qInt(i int64) Value     { return Value{Kind: Integer, Int: i} }
func qMap(m Fields) Value    { return Value{Kind: Map, Map: m} }
func qStr(s string) Value    { return Value{Kind: String, Str: s} }
func qDbl(d float64) Value   { return Value{Kind: Double, Double: d} }
func qArr(vs ...Value) Value { return Value{Kind: Array, Array: vs} }
func qBool(b bool) Value     { return Value{Kind: Boolean, Bool: b} }
