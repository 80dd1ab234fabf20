package value

import (
	"bytes"
	"cmp"
	"math"
	"strings"
)

// Compare orders a and b by Firestore's total order, mixed types included,
// returning -1, 0 or +1: null < booleans < numbers < timestamps < strings <
// bytes < (references) < geo points < arrays < maps. Integers and doubles
// are one type compared by exact numeric value (1 == 1.0, and 2^53+1 > 2^53
// as a double), with NaN below every other number and -0 == 0. Strings
// compare by UTF-8 bytes, geo points by latitude then longitude, arrays
// element by element then by length, maps entry by entry in key order (key,
// then value) then by size. A Value of an unknown Kind sorts after maps.
//
// Compare is written independently of AppendKey, so that each checks the other.
func Compare(a, b Value) int {
	if ra, rb := rank(a.Kind), rank(b.Kind); ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch a.Kind {
	case Boolean:
		return cmpBool(a.Bool, b.Bool)
	case Integer, Double:
		return compareNumbers(a, b)
	case Timestamp:
		return a.Time.Compare(b.Time)
	case String:
		return strings.Compare(a.Str, b.Str)
	case Bytes:
		return bytes.Compare(a.Bytes, b.Bytes)
	case GeoPoint:
		if c := compareDoubles(a.Lat, b.Lat); c != 0 {
			return c
		}
		return compareDoubles(a.Lng, b.Lng)
	case Array:
		for i := range min(len(a.Array), len(b.Array)) {
			if c := Compare(a.Array[i], b.Array[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(a.Array), len(b.Array))
	case Map:
		ka, kb := sortedKeys(a.Map), sortedKeys(b.Map)
		for i := range min(len(ka), len(kb)) {
			if c := strings.Compare(ka[i], kb[i]); c != 0 {
				return c
			}
			if c := Compare(a.Map[ka[i]], b.Map[kb[i]]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(ka), len(kb))
	}
	return 0 // Null, or two values of the same unknown kind
}

// Equal reports Firestore's equality, which is Compare's: NaN equals NaN,
// -0 equals 0, and an integer equals the double of the same value.
func Equal(a, b Value) bool { return Compare(a, b) == 0 }

// rank places a kind in the cross-type order; 7 is Firestore's references.
func rank(k Kind) int {
	switch k {
	case Null, Boolean:
		return int(k)
	case Integer, Double:
		return 2
	case Timestamp, String, Bytes:
		return int(k) // 4, 5, 6
	case GeoPoint, Array, Map:
		return int(k) + 1 // 8, 9, 10
	}
	return 16 + int(k)
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

func compareNumbers(a, b Value) int {
	switch {
	case a.Kind == Integer && b.Kind == Integer:
		return cmp.Compare(a.Int, b.Int)
	case a.Kind == Double && b.Kind == Double:
		return compareDoubles(a.Double, b.Double)
	case a.Kind == Integer:
		return compareIntDouble(a.Int, b.Double)
	}
	return -compareIntDouble(b.Int, a.Double)
}

// compareDoubles is Firestore's double order: NaN first (and equal to
// itself), then numerically, -0 equal to 0.
func compareDoubles(a, b float64) int {
	switch an, bn := math.IsNaN(a), math.IsNaN(b); {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return 1
	}
	return cmp.Compare(a, b)
}

// compareIntDouble compares exactly, where converting either side would
// round: int64s beyond 2^53 are not all doubles, and doubles beyond 2^63 are
// not int64s.
func compareIntDouble(i int64, f float64) int {
	switch {
	case math.IsNaN(f):
		return 1
	case f < -(1 << 63): // also -Inf
		return 1
	case f >= 1<<63: // also +Inf
		return -1
	}
	// Here f's integer part fits an int64 and f - trunc(f) is exact.
	t := math.Trunc(f)
	if c := cmp.Compare(i, int64(t)); c != 0 {
		return c
	}
	return cmp.Compare(0, f-t)
}
