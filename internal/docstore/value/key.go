package value

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Key layout. Each kind starts with a tag byte in the cross-type order;
// integers and doubles share one tag because they compare as numbers.
// Containers end with keyEnd, below every tag and below keyMapEntry, so that
// a shorter array or map sorts first; strings and bytes are escaped and
// terminated so that each key is prefix-free and a prefix sorts first.
const (
	keyEnd       = 0x00
	keyMapEntry  = 0x01
	keyNull      = 0x10
	keyBoolean   = 0x11
	keyNumber    = 0x12
	keyTimestamp = 0x14
	keyString    = 0x15
	keyBytes     = 0x16
	keyGeoPoint  = 0x18 // 0x17 is left for references
	keyArray     = 0x19
	keyMap       = 0x1A
	keyUnknown   = 0xF0 // followed by the kind, after every known kind

	// Number classes, after keyNumber.
	numNaN      = 0x00
	numNegative = 0x01
	numZero     = 0x02
	numPositive = 0x03

	// expBias makes every binary exponent positive: doubles reach down to
	// 2^-1074, and 0xFFFF is kept for infinity.
	expBias = 1100
	expInf  = 0xFFFF
)

// AppendKey appends an order-preserving encoding of v to dst:
// bytes.Compare(AppendKey(nil, a), AppendKey(nil, b)) == Compare(a, b) for
// all values, so a SQL index on the key sorts and ranges as Firestore does.
// Values that are Equal get identical keys (1 and 1.0, 0 and -0, all NaNs).
//
// Numbers are written as a class (NaN, negative, zero, positive), then the
// binary exponent and the 63 bits after the leading one of the exact
// magnitude: every int64 and every double is m·2^e with m < 2^64, so both
// kinds interleave exactly, even beyond 2^53. Negative numbers have those 10
// bytes complemented. Timestamps are Unix seconds (sign flipped) and
// nanoseconds, big-endian.
func AppendKey(dst []byte, v Value) []byte {
	switch v.Kind {
	case Null:
		return append(dst, keyNull)
	case Boolean:
		if v.Bool {
			return append(dst, keyBoolean, 1)
		}
		return append(dst, keyBoolean, 0)
	case Integer:
		return appendInt(append(dst, keyNumber), v.Int)
	case Double:
		return appendDoubleKey(append(dst, keyNumber), v.Double)
	case Timestamp:
		dst = append(dst, keyTimestamp)
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.Time.Unix())^1<<63)
		return binary.BigEndian.AppendUint32(dst, uint32(v.Time.Nanosecond()))
	case String:
		return appendEscaped(append(dst, keyString), v.Str)
	case Bytes:
		return appendEscaped(append(dst, keyBytes), v.Bytes)
	case GeoPoint:
		dst = appendDoubleKey(append(dst, keyGeoPoint), v.Lat)
		return appendDoubleKey(dst, v.Lng)
	case Array:
		dst = append(dst, keyArray)
		for _, e := range v.Array {
			dst = AppendKey(dst, e)
		}
		return append(dst, keyEnd)
	case Map:
		dst = append(dst, keyMap)
		for _, k := range sortedKeys(v.Map) {
			dst = appendEscaped(append(dst, keyMapEntry), k)
			dst = AppendKey(dst, v.Map[k])
		}
		return append(dst, keyEnd)
	}
	return append(dst, keyUnknown, byte(v.Kind))
}

func appendInt(dst []byte, i int64) []byte {
	switch {
	case i == 0:
		return append(dst, numZero)
	case i > 0:
		return appendMagnitude(dst, numPositive, uint64(i), 0)
	}
	return appendMagnitude(dst, numNegative, uint64(-i), 0) // -MinInt64 wraps to 2^63, as wanted
}

func appendDoubleKey(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, numNaN)
	case f == 0:
		return append(dst, numZero)
	case math.IsInf(f, 0):
		class := byte(numPositive)
		if f < 0 {
			class = numNegative
		}
		return appendExpMantissa(dst, class, expInf, 0)
	}
	frac, exp := math.Frexp(math.Abs(f)) // |f| = frac·2^exp, frac in [0.5, 1)
	m := uint64(math.Ldexp(frac, 53))    // exact: frac has at most 53 significant bits
	class := byte(numPositive)
	if f < 0 {
		class = numNegative
	}
	return appendMagnitude(dst, class, m, exp-53)
}

// appendMagnitude writes m·2^e (m > 0) normalized to 1.f·2^E.
func appendMagnitude(dst []byte, class byte, m uint64, e int) []byte {
	n := bits.Len64(m)
	exp := e + n - 1
	mantissa := m << (65 - n) // drop the leading one; a shift of 64 gives 0
	return appendExpMantissa(dst, class, uint16(exp+expBias), mantissa)
}

func appendExpMantissa(dst []byte, class byte, exp uint16, mantissa uint64) []byte {
	if class == numNegative {
		exp, mantissa = ^exp, ^mantissa
	}
	dst = append(dst, class)
	dst = binary.BigEndian.AppendUint16(dst, exp)
	return binary.BigEndian.AppendUint64(dst, mantissa)
}

// appendEscaped writes s with 0x00 as 0x00 0xFF and ends it with 0x00 0x01,
// so a string sorts before its extensions and the byte order is kept.
func appendEscaped[S string | []byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0x00, 0xFF)
		} else {
			dst = append(dst, s[i])
		}
	}
	return append(dst, 0x00, 0x01)
}

// PathKey encodes a document path so that bytes.Compare of two keys is
// Path.Compare of the paths: each segment escaped and terminated as
// AppendKey does strings, so that segments compare by bytes and a path sorts
// before its extensions. __name__ filters and cursors compare such keys.
func PathKey(p Path) []byte {
	var key []byte
	for i := range p.Len() {
		key = appendEscaped(key, p.Segment(i))
	}
	return key
}
