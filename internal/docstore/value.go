package docstore

import (
	"errors"
	"time"
)

// Kind is a value's type, in Firestore's cross-type order (Integer and Double compare as numbers).
type Kind uint8

// The kinds, in Firestore's cross-type order.
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

// Value is one Firestore value. Only the field(s) of its Kind are meaningful.
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

var errTODO = errors.New("docstore: not implemented yet")

// DecodeValue decodes one value in Firestore REST v1 JSON: {"integerValue":"12"} ...
func DecodeValue(raw []byte) (Value, error) { return Value{}, errTODO }

// DecodeFields decodes a JSON object of field name → encoded value.
func DecodeFields(raw []byte) (Fields, error) { return nil, errTODO }

// MarshalJSON encodes v in Firestore REST v1 JSON; DecodeValue(MarshalJSON(v)) == v exactly.
func (v Value) MarshalJSON() ([]byte, error) { return nil, errTODO }

// EncodeFields encodes a document's fields as a JSON object of encoded values.
func EncodeFields(f Fields) ([]byte, error) { return nil, errTODO }

// Compare orders a and b by Firestore's total order, mixed types included.
func Compare(a, b Value) int { return 0 }

// Equal reports Firestore's equality (NaN == NaN for ==, -0 == 0).
func Equal(a, b Value) bool { return Compare(a, b) == 0 }

// AppendKey appends an order-preserving encoding of v:
// bytes.Compare(AppendKey(nil, a), AppendKey(nil, b)) == Compare(a, b).
func AppendKey(dst []byte, v Value) []byte { return dst }

// Depth returns v's nesting levels (a scalar is 1; a map holding a scalar is 2).
func Depth(v Value) int { return 1 }

// PlainJSON decodes fields to plain JSON for the account export.
func PlainJSON(f Fields) any { return nil }
