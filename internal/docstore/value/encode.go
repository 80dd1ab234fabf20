package value

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// MarshalJSON encodes v in Firestore REST v1 JSON, canonically: map keys
// sorted, integers as decimal strings, doubles in JavaScript's shortest form
// (-0 as -0, NaN and infinities as strings), timestamps in UTC with 0, 3 or 6
// fractional digits, bytes in padded standard base64, an empty array or map
// as {} (as Firestore writes them).
//
// It refuses what Decode would refuse (with the same messages) and
// timestamps finer than a microsecond, so that whenever it succeeds
// Decode gives back v exactly and encoding that again gives the same bytes.
func (v Value) MarshalJSON() ([]byte, error) {
	var e encoder
	return e.value(nil, v, 1)
}

// EncodeFields encodes a document's fields as a JSON object of encoded
// values, with MarshalJSON's rules; DecodeFields reverses it exactly.
func EncodeFields(f Fields) ([]byte, error) {
	var e encoder
	return e.fields(nil, f, 1)
}

type encoder struct {
	path []pathElem
}

func (e *encoder) value(b []byte, v Value, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return nil, pathError(e.path, "more than %d levels of nesting", MaxDepth)
	}
	b = append(b, `{"`...)
	b = append(b, v.Kind.String()...)
	b = append(b, `":`...)
	switch v.Kind {
	case Null:
		b = append(b, "null"...)
	case Boolean:
		b = strconv.AppendBool(b, v.Bool)
	case Integer:
		b = append(b, '"')
		b = strconv.AppendInt(b, v.Int, 10)
		b = append(b, '"')
	case Double:
		b = appendDouble(b, v.Double)
	case Timestamp:
		s, err := formatTimestamp(v.Time)
		if err != nil {
			return nil, pathError(e.path, "timestampValue %s", err.Error())
		}
		b = appendString(b, s)
	case String:
		if !utf8.ValidString(v.Str) {
			return nil, pathError(e.path, "stringValue is not valid UTF-8")
		}
		b = appendString(b, v.Str)
	case Bytes:
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, v.Bytes)
		b = append(b, '"')
	case GeoPoint:
		if err := checkGeo(e.path, v.Lat, v.Lng); err != nil {
			return nil, err
		}
		b = append(b, `{"latitude":`...)
		b = appendDouble(b, v.Lat)
		b = append(b, `,"longitude":`...)
		b = appendDouble(b, v.Lng)
		b = append(b, '}')
	case Array:
		return e.array(b, v.Array, depth)
	case Map:
		if len(v.Map) == 0 {
			return append(b, "{}}"...), nil
		}
		b = append(b, `{"fields":`...)
		b, err := e.fields(b, v.Map, depth+1)
		if err != nil {
			return nil, err
		}
		return append(b, "}}"...), nil
	default:
		return nil, pathError(e.path, "unknown value kind %d", v.Kind)
	}
	return append(b, '}'), nil
}

func (e *encoder) array(b []byte, a []Value, depth int) ([]byte, error) {
	if len(a) == 0 {
		return append(b, "{}}"...), nil
	}
	b = append(b, `{"values":[`...)
	for i, el := range a {
		if i > 0 {
			b = append(b, ',')
		}
		e.path = append(e.path, pathElem{index: i, isIndex: true})
		if el.Kind == Array {
			return nil, pathError(e.path, "an array cannot directly contain another array (Firestore does not support it)")
		}
		var err error
		if b, err = e.value(b, el, depth+1); err != nil {
			return nil, err
		}
		e.path = e.path[:len(e.path)-1]
	}
	return append(b, "]}}"...), nil
}

func (e *encoder) fields(b []byte, f Fields, depth int) ([]byte, error) {
	b = append(b, '{')
	for i, name := range sortedKeys(f) {
		if err := ValidFieldName(name); err != nil {
			return nil, pathError(e.path, "%s", err.Error())
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, name)
		b = append(b, ':')
		e.path = append(e.path, pathElem{name: name})
		var err error
		if b, err = e.value(b, f[name], depth); err != nil {
			return nil, err
		}
		e.path = e.path[:len(e.path)-1]
	}
	return append(b, '}'), nil
}

func sortedKeys(f Fields) []string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendDouble writes a finite double as JavaScript (and encoding/json)
// would, so that JS clients see the numbers they wrote, and the rest as the
// strings proto3 JSON uses.
func appendDouble(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	return append(b, formatDouble(f)...)
}

// formatDouble is encoding/json's float64 format (ES6 Number.toString).
func formatDouble(f float64) string {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	s := strconv.FormatFloat(f, format, -1, 64)
	if format == 'e' {
		// 1e-07 → 1e-7, as JavaScript writes it.
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:]
		}
	}
	return s
}

// formatTimestamp writes t in UTC with 0, 3 or 6 fractional digits, as
// proto3 JSON does for a microsecond timestamp.
func formatTimestamp(t time.Time) (string, error) {
	t = t.UTC()
	if y := t.Year(); y < 1 || y > 9999 {
		return "", errSentence("is outside 0001-01-01 to 9999-12-31 UTC")
	}
	ns := t.Nanosecond()
	switch {
	case ns%1000 != 0:
		return "", errSentence("has sub-microsecond precision (Firestore keeps microseconds)")
	case ns == 0:
		return t.Format("2006-01-02T15:04:05Z"), nil
	case ns%1_000_000 == 0:
		return t.Format("2006-01-02T15:04:05.000Z"), nil
	}
	return t.Format("2006-01-02T15:04:05.000000Z"), nil
}

// errSentence is a plain error whose text completes a message.
type errSentence string

func (e errSentence) Error() string { return string(e) }

// appendString writes s as a JSON string, escaping only what JSON requires
// (quote, backslash, control characters), so the encoding is canonical.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// PlainJSON decodes fields to plain JSON for the account export, which people
// read and other programs import: maps become objects, arrays arrays, null
// null, booleans and strings themselves; integers json.Number with their
// exact digits (always numbers, even beyond 2^53: one field keeps one JSON
// type, and the file stays exact; a reader that parses numbers as doubles
// rounds them, as it would any big number); finite doubles numbers, NaN and
// the infinities the strings "NaN", "Infinity", "-Infinity"; timestamps RFC
// 3339 strings; bytes standard base64 strings; geo points objects with
// "latitude" and "longitude". The result marshals with encoding/json.
func PlainJSON(f Fields) any {
	out := make(map[string]any, len(f))
	for k, v := range f {
		out[k] = plain(v)
	}
	return out
}

func plain(v Value) any {
	switch v.Kind {
	case Boolean:
		return v.Bool
	case Integer:
		return json.Number(strconv.FormatInt(v.Int, 10))
	case Double:
		switch {
		case math.IsNaN(v.Double):
			return "NaN"
		case math.IsInf(v.Double, 1):
			return "Infinity"
		case math.IsInf(v.Double, -1):
			return "-Infinity"
		}
		return v.Double
	case Timestamp:
		return v.Time.UTC().Format(time.RFC3339Nano)
	case String:
		return v.Str
	case Bytes:
		return base64.StdEncoding.EncodeToString(v.Bytes)
	case GeoPoint:
		return map[string]any{"latitude": v.Lat, "longitude": v.Lng}
	case Array:
		out := make([]any, len(v.Array))
		for i, e := range v.Array {
			out[i] = plain(e)
		}
		return out
	case Map:
		return PlainJSON(v.Map)
	}
	return nil
}

// FromPlain encodes plain JSON, as encoding/json decodes it (with or without UseNumber), to a
// value: objects become maps, numbers integers when whole and within int64 and doubles
// otherwise. Server code that writes documents from plain data (the account's users/{uid})
// uses it; anything else is refused.
func FromPlain(v any) (Value, error) {
	switch x := v.(type) {
	case nil:
		return Value{Kind: Null}, nil
	case bool:
		return Value{Kind: Boolean, Bool: x}, nil
	case string:
		return Value{Kind: String, Str: x}, nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return Value{Kind: Integer, Int: i}, nil
		}
		f, err := x.Float64()
		if err != nil {
			return Value{}, fmt.Errorf("number %s: %w", x, err)
		}
		return FromPlain(f)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 && !(x == 0 && math.Signbit(x)) {
			return Value{Kind: Integer, Int: int64(x)}, nil
		}
		return Value{Kind: Double, Double: x}, nil
	case []any:
		out := make([]Value, len(x))
		for i, e := range x {
			var err error
			if out[i], err = FromPlain(e); err != nil {
				return Value{}, err
			}
		}
		return Value{Kind: Array, Array: out}, nil
	case map[string]any:
		f, err := FieldsFromPlain(x)
		return Value{Kind: Map, Map: f}, err
	}
	return Value{}, fmt.Errorf("%T is not plain JSON", v)
}

// FieldsFromPlain encodes a plain JSON object to fields (see FromPlain).
func FieldsFromPlain(m map[string]any) (Fields, error) {
	out := make(Fields, len(m))
	for k, e := range m {
		v, err := FromPlain(e)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}
