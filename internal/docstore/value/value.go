// Package value is the document store's data model, pure: the Value type and Fields, their
// exact round trip through Firestore REST v1 JSON (Decode, DecodeFields, MarshalJSON,
// EncodeFields), Firestore's cross-type order (Compare) and an order-preserving byte encoding
// of it for SQL indexes (AppendKey, PathKey), document paths (Path) and field paths
// (FieldPath), and Doc, a stored document. It imports no database and no network; the engine
// (internal/docstore) and the query package build on it.
package value

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"handy/internal/docstore/status"
)

// Kind is a value's type, in Firestore's cross-type order (Integer and Double compare as numbers).
type Kind uint8

// The kinds, in Firestore's cross-type order. Firestore's references would
// sit between Bytes and GeoPoint; this store has none.
const (
	Null Kind = iota
	Boolean
	Integer
	Double
	Timestamp
	String
	Bytes
	GeoPoint
	Array
	Map
)

// kindNames are the REST v1 keys, so that messages use the names clients send.
var kindNames = [...]string{
	Null: "nullValue", Boolean: "booleanValue", Integer: "integerValue", Double: "doubleValue",
	Timestamp: "timestampValue", String: "stringValue", Bytes: "bytesValue",
	GeoPoint: "geoPointValue", Array: "arrayValue", Map: "mapValue",
}

// String returns the kind's REST v1 key ("integerValue"), as messages name it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one Firestore value. Only the field(s) of its Kind are meaningful;
// the zero Value is null.
type Value struct {
	Kind     Kind
	Bool     bool
	Int      int64
	Double   float64
	Time     time.Time // UTC, microsecond precision (Firestore's)
	Str      string
	Bytes    []byte
	Lat, Lng float64
	Array    []Value
	Map      map[string]Value
}

// Fields is a document's content: field name → value.
type Fields = map[string]Value

// MaxDepth is Firestore's limit on nesting: a field's value may hold maps and
// arrays down to this many levels (Depth counts the value itself as one).
const MaxDepth = 20

// Depth returns v's nesting levels (a scalar is 1; a map holding a scalar is
// 2; an empty map or array is 1), the measure MaxDepth limits.
func Depth(v Value) int {
	inner := 0
	switch v.Kind {
	case Array:
		for _, e := range v.Array {
			inner = max(inner, Depth(e))
		}
	case Map:
		for _, e := range v.Map {
			inner = max(inner, Depth(e))
		}
	}
	return 1 + inner
}

// Size returns the storage size of a document's fields as Firestore counts
// it (https://firebase.google.com/docs/firestore/storage-size): each field
// name as a string (UTF-8 bytes + 1) plus its value: null and booleans 1,
// integers, doubles and timestamps 8, strings UTF-8 bytes + 1, bytes their
// length, geo points 16, arrays the sum of their elements, maps computed like
// fields. DocumentSize adds the document name and Firestore's overhead.
func Size(f Fields) int {
	n := 0
	for name, v := range f {
		n += len(name) + 1 + valueSize(v)
	}
	return n
}

// DocumentSize returns a document's size as Firestore counts it for its
// 1 MiB limit: the name (each path segment as a string, plus 16), the fields
// (Size) and 32 bytes of overhead. path is the slash path, users/u1/history/h1.
func DocumentSize(path string, f Fields) int {
	name := 16
	for seg := range strings.SplitSeq(path, "/") {
		name += len(seg) + 1
	}
	return name + Size(f) + 32
}

func valueSize(v Value) int {
	switch v.Kind {
	case Integer, Double, Timestamp:
		return 8
	case String:
		return len(v.Str) + 1
	case Bytes:
		return len(v.Bytes)
	case GeoPoint:
		return 16
	case Array:
		n := 0
		for _, e := range v.Array {
			n += valueSize(e)
		}
		return n
	case Map:
		return Size(v.Map)
	default: // Null, Boolean
		return 1
	}
}

// pathElem is one step from a document's fields down to a nested value: a
// field name, or an array index when isIndex is set.
type pathElem struct {
	name    string
	index   int
	isIndex bool
}

// formatPath renders a path as messages show it, names as field paths do:
// a.b[2].`odd name`.
func formatPath(p []pathElem) string {
	var b strings.Builder
	for i, e := range p {
		if e.isIndex {
			fmt.Fprintf(&b, "[%d]", e.index)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(FieldPath{e.name}.String())
	}
	return b.String()
}

// pathError builds an invalid-argument error that names the value at path.
func pathError(path []pathElem, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if len(path) == 0 {
		return status.Invalidf("%s", msg)
	}
	return status.Invalidf("field %q: %s", formatPath(path), msg)
}
