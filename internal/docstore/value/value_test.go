package value

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore/status"
)

// identical reports whether a and b are the same value bit for bit: doubles
// by their bits (so -0 and NaN payloads count), times as instants in UTC, an
// empty container whether nil or not.
func identical(a, b Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Boolean:
		return a.Bool == b.Bool
	case Integer:
		return a.Int == b.Int
	case Double:
		return math.Float64bits(a.Double) == math.Float64bits(b.Double)
	case Timestamp:
		return a.Time.Equal(b.Time) && a.Time.Location() == time.UTC && b.Time.Location() == time.UTC
	case String:
		return a.Str == b.Str
	case Bytes:
		return string(a.Bytes) == string(b.Bytes)
	case GeoPoint:
		return math.Float64bits(a.Lat) == math.Float64bits(b.Lat) && math.Float64bits(a.Lng) == math.Float64bits(b.Lng)
	case Array:
		if len(a.Array) != len(b.Array) {
			return false
		}
		for i := range a.Array {
			if !identical(a.Array[i], b.Array[i]) {
				return false
			}
		}
		return true
	case Map:
		if len(a.Map) != len(b.Map) {
			return false
		}
		for k, v := range a.Map {
			w, ok := b.Map[k]
			if !ok || !identical(v, w) {
				return false
			}
		}
		return true
	}
	return true
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm.UTC()
}

// TestRoundTrip decodes canonical inputs, checks the value, and checks that
// encoding gives the very same bytes.
func TestRoundTrip(t *testing.T) {
	ts := func(s string) Value { return Value{Kind: Timestamp, Time: mustTime(t, s)} }
	dbl := func(f float64) Value { return Value{Kind: Double, Double: f} }
	integer := func(i int64) Value { return Value{Kind: Integer, Int: i} }
	str := func(s string) Value { return Value{Kind: String, Str: s} }
	tests := []struct {
		json string
		want Value
	}{
		{`{"nullValue":null}`, Value{}},
		{`{"booleanValue":true}`, Value{Kind: Boolean, Bool: true}},
		{`{"booleanValue":false}`, Value{Kind: Boolean}},
		{`{"integerValue":"0"}`, integer(0)},
		{`{"integerValue":"-12"}`, integer(-12)},
		{`{"integerValue":"9223372036854775807"}`, integer(math.MaxInt64)},
		{`{"integerValue":"-9223372036854775808"}`, integer(math.MinInt64)},
		{`{"integerValue":"9007199254740993"}`, integer(1<<53 + 1)},
		{`{"doubleValue":0}`, dbl(0)},
		{`{"doubleValue":-0}`, dbl(math.Copysign(0, -1))},
		{`{"doubleValue":1.5}`, dbl(1.5)},
		{`{"doubleValue":-2}`, dbl(-2)},
		{`{"doubleValue":0.1}`, dbl(0.1)},
		{`{"doubleValue":"NaN"}`, dbl(math.NaN())},
		{`{"doubleValue":"Infinity"}`, dbl(math.Inf(1))},
		{`{"doubleValue":"-Infinity"}`, dbl(math.Inf(-1))},
		{`{"doubleValue":1.7976931348623157e+308}`, dbl(math.MaxFloat64)},
		{`{"doubleValue":5e-324}`, dbl(math.SmallestNonzeroFloat64)},
		{`{"doubleValue":9007199254740992}`, dbl(1 << 53)},
		{`{"doubleValue":1e+21}`, dbl(1e21)},
		{`{"doubleValue":1e-7}`, dbl(1e-7)},
		{`{"doubleValue":0.000001}`, dbl(1e-6)},
		{`{"timestampValue":"2024-02-29T23:59:59Z"}`, ts("2024-02-29T23:59:59Z")},
		{`{"timestampValue":"2024-02-29T23:59:59.120Z"}`, ts("2024-02-29T23:59:59.12Z")},
		{`{"timestampValue":"1969-12-31T23:59:59.999999Z"}`, ts("1969-12-31T23:59:59.999999Z")},
		{`{"timestampValue":"0001-01-01T00:00:00Z"}`, ts("0001-01-01T00:00:00Z")},
		{`{"timestampValue":"9999-12-31T23:59:59.999999Z"}`, ts("9999-12-31T23:59:59.999999Z")},
		{`{"stringValue":""}`, str("")},
		{`{"stringValue":"héllo \"x\" \\ \n\t\u0000 ☃ 😀 <&>"}`, str("héllo \"x\" \\ \n\t\x00 ☃ 😀 <&>")},
		{`{"bytesValue":""}`, Value{Kind: Bytes, Bytes: []byte{}}},
		{`{"bytesValue":"AP8Q"}`, Value{Kind: Bytes, Bytes: []byte{0, 0xFF, 0x10}}},
		{`{"geoPointValue":{"latitude":-90,"longitude":180}}`, Value{Kind: GeoPoint, Lat: -90, Lng: 180}},
		{`{"geoPointValue":{"latitude":-0,"longitude":12.345678}}`, Value{Kind: GeoPoint, Lat: math.Copysign(0, -1), Lng: 12.345678}},
		{`{"arrayValue":{}}`, Value{Kind: Array}},
		{`{"arrayValue":{"values":[{"integerValue":"1"},{"mapValue":{"fields":{"a":{"arrayValue":{"values":[{"nullValue":null}]}}}}}]}}`,
			Value{Kind: Array, Array: []Value{integer(1), {Kind: Map, Map: Fields{"a": {Kind: Array, Array: []Value{{}}}}}}}},
		{`{"mapValue":{}}`, Value{Kind: Map}},
		{`{"mapValue":{"fields":{"_":{"booleanValue":true},"a b":{"stringValue":"x"},"z":{"mapValue":{}},"é":{"integerValue":"1"}}}}`,
			Value{Kind: Map, Map: Fields{"_": {Kind: Boolean, Bool: true}, "a b": str("x"), "z": {Kind: Map}, "é": integer(1)}}},
	}

	for _, tt := range tests {
		got, err := Decode([]byte(tt.json))
		if err != nil {
			t.Errorf("DecodeValue(%s): %v", tt.json, err)
			continue
		}
		if !identical(got, tt.want) {
			t.Errorf("DecodeValue(%s) = %#v, want %#v", tt.json, got, tt.want)
		}
		enc, err := got.MarshalJSON()
		if err != nil || string(enc) != tt.json {
			t.Errorf("MarshalJSON(DecodeValue(%s)) = %s, %v; want the input back", tt.json, enc, err)
		}
		enc, err = tt.want.MarshalJSON()
		if err != nil || string(enc) != tt.json {
			t.Errorf("MarshalJSON(%#v) = %s, %v; want %s", tt.want, enc, err, tt.json)
		}
	}
}

// TestRoundTripBits checks the values whose equality hides their bits.
func TestRoundTripBits(t *testing.T) {
	for _, f := range []float64{math.Copysign(0, -1), 0, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.SmallestNonzeroFloat64, 1 << 63, -(1 << 63)} {
		v := Value{Kind: Double, Double: f}
		enc, err := v.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(enc)
		if err != nil {
			t.Fatalf("DecodeValue(%s): %v", enc, err)
		}
		if math.Float64bits(got.Double) != math.Float64bits(f) {
			t.Errorf("%v → %s → bits %x, want %x", f, enc, math.Float64bits(got.Double), math.Float64bits(f))
		}
	}
}

// TestDecodeAccepts covers non-canonical inputs Firestore accepts, and what
// each becomes.
func TestDecodeAccepts(t *testing.T) {
	tests := []struct{ in, canonical string }{
		{`{"integerValue":12}`, `{"integerValue":"12"}`},
		{`{"integerValue":-9223372036854775808}`, `{"integerValue":"-9223372036854775808"}`},
		{`{"integerValue":"007"}`, `{"integerValue":"7"}`},
		{`{"integerValue":"-0"}`, `{"integerValue":"0"}`},
		{`{"nullValue":"NULL_VALUE"}`, `{"nullValue":null}`},
		{`{"doubleValue":1E3}`, `{"doubleValue":1000}`},
		{`{"doubleValue":1e-400}`, `{"doubleValue":0}`},
		{` { "stringValue" : "\u00e9\ud83d\ude00" } `, `{"stringValue":"é😀"}`},
		{`{"timestampValue":"2024-01-01T01:00:00.123456789+01:00"}`, `{"timestampValue":"2024-01-01T00:00:00.123456Z"}`},
		{`{"timestampValue":"1969-12-31T23:59:59.9999999Z"}`, `{"timestampValue":"1969-12-31T23:59:59.999999Z"}`},
		{`{"timestampValue":"2024-01-01T00:00:00.000000001-23:59"}`, `{"timestampValue":"2024-01-01T23:59:00Z"}`},
		{`{"timestampValue":"2024-01-01T00:00:00.5Z"}`, `{"timestampValue":"2024-01-01T00:00:00.500Z"}`},
		{`{"geoPointValue":{}}`, `{"geoPointValue":{"latitude":0,"longitude":0}}`},
		{`{"geoPointValue":{"longitude":2,"latitude":1}}`, `{"geoPointValue":{"latitude":1,"longitude":2}}`},
		{`{"arrayValue":{"values":[]}}`, `{"arrayValue":{}}`},
		{`{"mapValue":{"fields":{}}}`, `{"mapValue":{}}`},
		{`{"mapValue":{"fields":{"b":{"nullValue":null},"a":{"nullValue":null}}}}`, `{"mapValue":{"fields":{"a":{"nullValue":null},"b":{"nullValue":null}}}}`},
	}
	for _, tt := range tests {
		v, err := Decode([]byte(tt.in))
		if err != nil {
			t.Errorf("DecodeValue(%s): %v", tt.in, err)
			continue
		}
		enc, err := v.MarshalJSON()
		if err != nil || string(enc) != tt.canonical {
			t.Errorf("DecodeValue(%s) encodes as %s, %v; want %s", tt.in, enc, err, tt.canonical)
		}
	}
}

func nested(levels int, inner string) string {
	return strings.Repeat(`{"mapValue":{"fields":{"a":`, levels) + inner + strings.Repeat(`}}}`, levels)
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{``, `invalid JSON: unexpected end of input`},
		{`[]`, `a value must be an object, not an array`},
		{`{}`, `a value needs one key such as "stringValue", found none`},
		{`{"stringValue":"a"} {}`, `invalid JSON: unexpected data after the value`},
		{`{"stringValue":"a",}`, `invalid JSON at byte 19: invalid character '}' looking for beginning of object key string`},
		{`{"fooValue":1}`, `unknown value key "fooValue"`},
		{`{"referenceValue":"projects/p/databases/d/documents/a/b"}`, `unknown value key "referenceValue"`},
		{`{"fooValue":}`, `unknown value key "fooValue"`},
		{`{"stringValue":"a","integerValue":"1"}`, `two value keys in one value ("stringValue" and "integerValue")`},
		{`{"stringValue":"a","stringValue":"b"}`, `two value keys in one value ("stringValue" and "stringValue")`},
		{`{"nullValue":0}`, `nullValue must be null, not a number`},
		{`{"booleanValue":"true"}`, `booleanValue must be true or false, not a string`},
		{`{"integerValue":true}`, `integerValue must be a decimal string, not a boolean`},
		{`{"integerValue":"1.0"}`, `integerValue "1.0" is not a decimal integer`},
		{`{"integerValue":1e3}`, `integerValue "1e3" is not a decimal integer`},
		{`{"integerValue":"+1"}`, `integerValue "+1" is not a decimal integer`},
		{`{"integerValue":" 1"}`, `integerValue " 1" is not a decimal integer`},
		{`{"integerValue":""}`, `integerValue "" is not a decimal integer`},
		{`{"integerValue":"9223372036854775808"}`, `integerValue 9223372036854775808 is outside the 64-bit range`},
		{`{"integerValue":-9223372036854775809}`, `integerValue -9223372036854775809 is outside the 64-bit range`},
		{`{"doubleValue":"1.5"}`, `doubleValue "1.5" is not a number, "NaN", "Infinity" or "-Infinity"`},
		{`{"doubleValue":"nan"}`, `doubleValue "nan" is not a number, "NaN", "Infinity" or "-Infinity"`},
		{`{"doubleValue":1e400}`, `doubleValue 1e400 is outside the range of a double`},
		{`{"doubleValue":null}`, `doubleValue must be a number, not null`},
		{`{"timestampValue":1}`, `timestampValue must be an RFC 3339 string, not a number`},
		{`{"timestampValue":"2024-01-01"}`, `timestampValue "2024-01-01": is not RFC 3339 (2006-01-02T15:04:05.000000Z)`},
		{`{"timestampValue":"2024-01-01T00:00:00"}`, `timestampValue "2024-01-01T00:00:00": is not RFC 3339 (2006-01-02T15:04:05.000000Z)`},
		{`{"timestampValue":"2024-01-01T00:00:00.1234567891Z"}`, `timestampValue "2024-01-01T00:00:00.1234567891Z": wants 1 to 9 fractional digits`},
		{`{"timestampValue":"2024-01-01T00:00:00.Z"}`, `timestampValue "2024-01-01T00:00:00.Z": wants 1 to 9 fractional digits`},
		{`{"timestampValue":"2024-01-01T00:00:00,5Z"}`, `timestampValue "2024-01-01T00:00:00,5Z": is not RFC 3339 (2006-01-02T15:04:05.000000Z)`},
		{`{"timestampValue":"2024-01-01T00:00:00+24:00"}`, `timestampValue "2024-01-01T00:00:00+24:00": is not RFC 3339 (2006-01-02T15:04:05.000000Z)`},
		{`{"timestampValue":"2024-01-01T00:00:00-00:60"}`, `timestampValue "2024-01-01T00:00:00-00:60": is not RFC 3339 (2006-01-02T15:04:05.000000Z)`},
		{`{"timestampValue":"2024-01-01t00:00:00z"}`, `timestampValue "2024-01-01t00:00:00z": is not RFC 3339 (2006-01-02T15:04:05.000000Z)`},
		{`{"timestampValue":"0000-12-31T23:59:59Z"}`, `timestampValue "0000-12-31T23:59:59Z": is outside 0001-01-01 to 9999-12-31 UTC`},
		{`{"timestampValue":"9999-12-31T23:00:00-01:00"}`, `timestampValue "9999-12-31T23:00:00-01:00": is outside 0001-01-01 to 9999-12-31 UTC`},
		{`{"stringValue":1}`, `stringValue must be a string, not a number`},
		{"{\"stringValue\":\"\xff\"}", `invalid JSON: not valid UTF-8`},
		{`{"stringValue":"\ud800"}`, `invalid JSON: lone surrogate \uD800 in a string`},
		{`{"stringValue":"\ud800\u0041"}`, `invalid JSON: lone surrogate \uD800 in a string`},
		{`{"stringValue":"\udc00"}`, `invalid JSON: lone surrogate \uDC00 in a string`},
		{`{"bytesValue":"AP8"}`, `bytesValue is not valid standard base64 with padding`},
		{`{"bytesValue":"AP-Q"}`, `bytesValue is not valid standard base64 with padding`},
		{`{"bytesValue":"AP9="}`, `bytesValue is not valid standard base64 with padding`}, // non-zero padding bits: two spellings of the same bytes
		{`{"bytesValue":"AA==\n"}`, `bytesValue is not valid standard base64 with padding`},
		{`{"bytesValue":[]}`, `bytesValue must be a base64 string, not an array`},
		{`{"geoPointValue":[]}`, `geoPointValue must be an object, not an array`},
		{`{"geoPointValue":{"latitude":91,"longitude":0}}`, `latitude 91 is outside -90..90`},
		{`{"geoPointValue":{"latitude":-90.5}}`, `latitude -90.5 is outside -90..90`},
		{`{"geoPointValue":{"latitude":0,"longitude":180.000001}}`, `longitude 180.000001 is outside -180..180`},
		{`{"geoPointValue":{"latitude":"NaN","longitude":0}}`, `latitude must be a number, not a string`},
		{`{"geoPointValue":{"latitude":1,"latitude":1}}`, `geoPointValue has an unknown or repeated key "latitude" (want "latitude" and "longitude")`},
		{`{"geoPointValue":{"lat":1}}`, `geoPointValue has an unknown or repeated key "lat" (want "latitude" and "longitude")`},
		{`{"arrayValue":[]}`, `arrayValue must be an object, not an array`},
		{`{"arrayValue":{"values":{}}}`, `arrayValue.values must be an array, not an object`},
		{`{"arrayValue":{"elements":[]}}`, `arrayValue has an unknown or repeated key "elements" (want "values")`},
		{`{"arrayValue":{"values":[],"values":[]}}`, `arrayValue has an unknown or repeated key "values" (want "values")`},
		{`{"arrayValue":{"values":[{"nullValue":null},{"arrayValue":{}}]}}`, `field "[1]": an array cannot directly contain another array (Firestore does not support it)`},
		{strings.Repeat(`{"arrayValue":{"values":[`, 5000), `field "[0]": an array cannot directly contain another array (Firestore does not support it)`},
		{`{"arrayValue":{"values":[{"nullValue":null},1]}}`, `field "[1]": a value must be an object, not a number`},
		{`{"mapValue":{"fields":[]}}`, `fields must be an object, not an array`},
		{`{"mapValue":{"fields":{},"fields":{}}}`, `mapValue has an unknown or repeated key "fields" (want "fields")`},
		{`{"mapValue":{"fields":{"a":{"nullValue":null},"a":{"nullValue":null}}}}`, `field "a": field given twice`},
		{`{"mapValue":{"fields":{"":{"nullValue":null}}}}`, `field name is empty`},
		{`{"mapValue":{"fields":{"a":{"mapValue":{"fields":{"__x__":{"nullValue":null}}}}}}}`, `field "a": field name "__x__" is reserved (it begins and ends with __)`},
		{`{"mapValue":{"fields":{"a~b":{"nullValue":null}}}}`, `field name "a~b" contains '~'`},
		{`{"mapValue":{"fields":{"a":{"mapValue":{"fields":{"b":{"arrayValue":{"values":[{"nullValue":null},{"nullValue":null},{"geoPointValue":{"latitude":91}}]}}}}}}}}`,
			`field "a.b[2]": latitude 91 is outside -90..90`},
		{`{"mapValue":{"fields":{"odd name":{"arrayValue":{"values":[{"mapValue":{"fields":{"x":{"integerValue":"x"}}}}]}}}}}`,
			"field \"`odd name`[0].x\": integerValue \"x\" is not a decimal integer"},
		{nested(19, `{"mapValue":{"fields":{"a":{"nullValue":null}}}}`), `field "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a": more than 20 levels of nesting`},
		{nested(5000, `{"nullValue":null}`), `field "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a": more than 20 levels of nesting`},
	}
	for _, tt := range tests {
		_, err := Decode([]byte(tt.in))
		if err == nil {
			t.Errorf("DecodeValue(%.80s) succeeded, want %q", tt.in, tt.msg)
			continue
		}
		if err.Error() != tt.msg || !errors.Is(err, status.ErrInvalidArgument) {
			t.Errorf("DecodeValue(%.80s) = %q, want %q (invalid-argument)", tt.in, err, tt.msg)
		}
	}
	// The deepest allowed value: 20 levels.
	if _, err := Decode([]byte(nested(19, `{"nullValue":null}`))); err != nil {
		t.Errorf("20 levels: %v", err)
	}
}

func TestDecodeFields(t *testing.T) {
	f, err := DecodeFields([]byte(`{"b":{"integerValue":"1"},"a":{"mapValue":{"fields":{"c":{"stringValue":"x"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := EncodeFields(f)
	if want := `{"a":{"mapValue":{"fields":{"c":{"stringValue":"x"}}}},"b":{"integerValue":"1"}}`; err != nil || string(enc) != want {
		t.Errorf("EncodeFields = %s, %v; want %s", enc, err, want)
	}
	if f, err := DecodeFields([]byte(`{}`)); err != nil || f == nil || len(f) != 0 {
		t.Errorf("DecodeFields({}) = %v, %v; want an empty non-nil map", f, err)
	}
	for _, tt := range []struct{ in, msg string }{
		{`[]`, `fields must be an object, not an array`},
		{`{"a":{"nullValue":null},"a":{"nullValue":null}}`, `field "a": field given twice`},
		{`{"a/b":{"nullValue":null}}`, `field name "a/b" contains '/'`},
		{`{"a":{"geoPointValue":{"latitude":0,"longitude":-181}}}`, `field "a": longitude -181 is outside -180..180`},
		{`{"a":` + nested(19, `{"nullValue":null}`) + `}`, ``},
		{`{"a":` + nested(20, `{"nullValue":null}`) + `}`, `field "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a": more than 20 levels of nesting`},
	} {
		_, err := DecodeFields([]byte(tt.in))
		if tt.msg == "" && err != nil || tt.msg != "" && (err == nil || err.Error() != tt.msg) {
			t.Errorf("DecodeFields(%.60s) = %v, want %q", tt.in, err, tt.msg)
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	deep := Value{}
	for range 20 {
		deep = Value{Kind: Map, Map: Fields{"a": deep}}
	}
	tests := []struct {
		v   Value
		msg string
	}{
		{Value{Kind: 42}, `unknown value kind 42`},
		{Value{Kind: String, Str: "\xff"}, `stringValue is not valid UTF-8`},
		{Value{Kind: GeoPoint, Lat: math.NaN()}, `latitude NaN is outside -90..90`},
		{Value{Kind: GeoPoint, Lng: -180.5}, `longitude -180.5 is outside -180..180`},
		{Value{Kind: Timestamp, Time: time.Unix(0, 1)}, `timestampValue has sub-microsecond precision (Firestore keeps microseconds)`},
		{Value{Kind: Timestamp, Time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, `timestampValue is outside 0001-01-01 to 9999-12-31 UTC`},
		{Value{Kind: Array, Array: []Value{{}, {Kind: Array}}}, `field "[1]": an array cannot directly contain another array (Firestore does not support it)`},
		{Value{Kind: Map, Map: Fields{"x": {Kind: Map, Map: Fields{"__a__": {}}}}}, `field "x": field name "__a__" is reserved (it begins and ends with __)`},
		{deep, `field "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a": more than 20 levels of nesting`},
	}
	for _, tt := range tests {
		_, err := tt.v.MarshalJSON()
		if err == nil || err.Error() != tt.msg {
			t.Errorf("MarshalJSON(%#v) = %v, want %q", tt.v, err, tt.msg)
		}
	}
	if _, err := EncodeFields(Fields{"": {}}); err == nil || err.Error() != "field name is empty" {
		t.Errorf("EncodeFields with an empty name = %v", err)
	}
	// A non-UTC time is written in UTC: its instant is what counts.
	v := Value{Kind: Timestamp, Time: time.Date(2024, 1, 1, 1, 0, 0, 0, time.FixedZone("x", 3600))}
	if b, err := v.MarshalJSON(); err != nil || string(b) != `{"timestampValue":"2024-01-01T00:00:00Z"}` {
		t.Errorf("MarshalJSON(non-UTC) = %s, %v", b, err)
	}
}

func TestDepth(t *testing.T) {
	scalar := Value{Kind: Integer, Int: 1}
	tests := []struct {
		v    Value
		want int
	}{
		{scalar, 1},
		{Value{Kind: Map}, 1},
		{Value{Kind: Array}, 1},
		{Value{Kind: Map, Map: Fields{"a": scalar}}, 2},
		{Value{Kind: Array, Array: []Value{scalar, {Kind: Map, Map: Fields{"a": {Kind: Map, Map: Fields{"b": scalar}}}}}}, 4},
	}
	for _, tt := range tests {
		if got := Depth(tt.v); got != tt.want {
			t.Errorf("Depth(%#v) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

func TestSize(t *testing.T) {
	// Firestore's worked example: users/jeff/tasks/my_task_id with
	// "type": "Personal", "done": false, "priority": 1, "description":
	// "Learn Cloud Firestore" is 147 bytes.
	f := Fields{
		"type":        {Kind: String, Str: "Personal"},
		"done":        {Kind: Boolean},
		"priority":    {Kind: Integer, Int: 1},
		"description": {Kind: String, Str: "Learn Cloud Firestore"},
	}
	if got := DocumentSize("users/jeff/tasks/my_task_id", f); got != 147 {
		t.Errorf("DocumentSize = %d, want 147", got)
	}
	g := Fields{"m": {Kind: Map, Map: Fields{
		"a": {Kind: Array, Array: []Value{{}, {Kind: Double}, {Kind: Timestamp}, {Kind: Bytes, Bytes: []byte("xyz")}, {Kind: GeoPoint}}},
	}}}
	// m: 2 + (a: 2 + 1 + 8 + 8 + 3 + 16)
	if got := Size(g); got != 40 {
		t.Errorf("Size = %d, want 40", got)
	}
}

func TestPlainJSON(t *testing.T) {
	f, err := DecodeFields([]byte(`{
		"n": {"nullValue": null}, "b": {"booleanValue": true},
		"i": {"integerValue": "9223372036854775807"}, "d": {"doubleValue": 1.5},
		"z": {"doubleValue": -0}, "nan": {"doubleValue": "NaN"}, "inf": {"doubleValue": "-Infinity"},
		"t": {"timestampValue": "2024-01-01T00:00:00.123456Z"}, "s": {"stringValue": "x"},
		"y": {"bytesValue": "AP8Q"}, "g": {"geoPointValue": {"latitude": 1, "longitude": 2}},
		"a": {"arrayValue": {"values": [{"integerValue": "1"}]}}, "m": {"mapValue": {"fields": {"k": {"stringValue": "v"}}}},
		"e": {"arrayValue": {}}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(PlainJSON(f))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a":[1],"b":true,"d":1.5,"e":[],"g":{"latitude":1,"longitude":2},"i":9223372036854775807,"inf":"-Infinity",` +
		`"m":{"k":"v"},"n":null,"nan":"NaN","s":"x","t":"2024-01-01T00:00:00.123456Z","y":"AP8Q","z":-0}`
	if string(got) != want {
		t.Errorf("PlainJSON =\n%s\nwant\n%s", got, want)
	}
}

// FromPlain encodes what encoding/json decodes: whole numbers as integers (float64 or
// json.Number), others as doubles, -0 kept a double; and refuses anything else.
func TestFromPlain(t *testing.T) {
	var decoded any
	if err := json.Unmarshal([]byte(`{"a":[1,2.5,-0,null,true,"s",{"b":9007199254740993}],"c":{}}`), &decoded); err != nil {
		t.Fatal(err)
	}
	f, err := FieldsFromPlain(decoded.(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := EncodeFields(f)
	want := `{"a":{"arrayValue":{"values":[{"integerValue":"1"},{"doubleValue":2.5},{"doubleValue":-0},{"nullValue":null},{"booleanValue":true},{"stringValue":"s"},{"mapValue":{"fields":{"b":{"integerValue":"9007199254740992"}}}}]}},"c":{"mapValue":{}}}`
	if string(got) != want {
		t.Errorf("FieldsFromPlain = %s\nwant %s", got, want)
	}
	n, err := FromPlain(json.Number("9007199254740993"))
	if err != nil || n.Kind != Integer || n.Int != 9007199254740993 {
		t.Errorf("FromPlain(json.Number) = %+v, %v; want the exact integer", n, err)
	}
	if _, err := FromPlain(struct{}{}); err == nil {
		t.Error("FromPlain(struct{}{}) passed; want an error")
	}
}
