// Package valuetest builds values and paths for the tables of the document store's tests, so
// that the query and engine tests share one set of builders instead of copies.
package valuetest

import (
	"testing"

	"handy/internal/docstore/value"
)

// Int is an integerValue.
func Int(i int64) value.Value { return value.Value{Kind: value.Integer, Int: i} }

// Map is a mapValue.
func Map(m value.Fields) value.Value { return value.Value{Kind: value.Map, Map: m} }

// Str is a stringValue.
func Str(s string) value.Value { return value.Value{Kind: value.String, Str: s} }

// Dbl is a doubleValue.
func Dbl(d float64) value.Value { return value.Value{Kind: value.Double, Double: d} }

// Arr is an arrayValue of vs.
func Arr(vs ...value.Value) value.Value { return value.Value{Kind: value.Array, Array: vs} }

// Bool is a booleanValue.
func Bool(b bool) value.Value { return value.Value{Kind: value.Boolean, Bool: b} }

// MustPath parses a path of either parity, failing the test if it is invalid.
func MustPath(tb testing.TB, s string) value.Path {
	tb.Helper()
	p, err := value.ParsePath(s)
	if err != nil {
		tb.Fatalf("ParsePath(%q): %v", s, err)
	}
	return p
}
