package value

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"handy/internal/docstore/status"
)

// Decode decodes one value in Firestore REST v1 JSON ({"integerValue":"12"}).
//
// It is strict where Firestore is ambiguous, so that every accepted input
// has one canonical re-encoding: exactly one value key per object and no
// unknown keys; integerValue a decimal string or a JSON integer literal (as
// proto3 JSON, and so Firestore, allows) in int64 range; doubleValue a JSON
// number or "NaN", "Infinity", "-Infinity"; timestampValue RFC 3339 with up
// to 9 fractional digits, truncated toward the past to microseconds as
// Firestore stores it; bytesValue standard base64 with padding; geoPointValue
// within -90..90 and -180..180 (a missing coordinate is 0, as in proto3);
// strings valid UTF-8 (no lone surrogate escapes); no array directly inside
// an array (a Firestore backend restriction); at most MaxDepth levels; every
// map key a valid field name. Errors are invalid-argument and name the
// offending part ("field \"a.b[2]\": latitude 91 is outside -90..90").
//
// Decoding streams tokens and never descends past MaxDepth+1 levels, so time
// and memory stay proportional to the input whatever it holds.
func Decode(raw []byte) (Value, error) {
	d, err := newDecoder(raw)
	if err != nil {
		return Value{}, err
	}
	v, err := d.value(1, false)
	if err != nil {
		return Value{}, err
	}
	return v, d.end()
}

// DecodeFields decodes a JSON object of field name → encoded value (a
// document's "fields"), with Decode's rules for each value and the field
// name rule for each name.
func DecodeFields(raw []byte) (Fields, error) {
	d, err := newDecoder(raw)
	if err != nil {
		return nil, err
	}
	f, err := d.fields(1)
	if err != nil {
		return nil, err
	}
	return f, d.end()
}

type decoder struct {
	lex *lexer
	// limit ends the input's valid prefix (its length when it is valid JSON): the lexer's
	// counts of elements read no further, so that a capacity never exceeds what is there.
	limit int
	raw   []byte
	path  []pathElem
}

func newDecoder(raw []byte) (*decoder, error) {
	// encoding/json silently turns invalid UTF-8 and lone surrogate escapes
	// into U+FFFD; Firestore rejects them, and so must we for exact round trips.
	if !utf8.Valid(raw) {
		return nil, status.Invalidf("invalid JSON: not valid UTF-8")
	}
	if err := checkSurrogates(raw); err != nil {
		return nil, err
	}
	limit := len(raw)
	if !json.Valid(raw) {
		limit = 0
		var syn *json.SyntaxError
		if errors.As(json.Unmarshal(raw, new(json.RawMessage)), &syn) {
			limit = int(min(max(syn.Offset-1, 0), int64(len(raw))))
		}
	}
	return &decoder{lex: &lexer{data: raw}, limit: limit, raw: raw}, nil
}

// syntaxError describes the input's first syntax error as encoding/json does.
func (d *decoder) syntaxError() error {
	var syn *json.SyntaxError
	if !errors.As(json.Unmarshal(d.raw, new(json.RawMessage)), &syn) || syn.Error() == "unexpected end of JSON input" {
		return status.Invalidf("invalid JSON: unexpected end of input")
	}
	// The offset of the offending byte; encoding/json's is the byte after it.
	return status.Invalidf("invalid JSON at byte %d: %s", syn.Offset-1, syn.Error())
}

// checkSurrogates rejects \uD800-\uDFFF escapes that do not form a pair.
// Backslashes only occur inside strings in valid JSON, so no string tracking
// is needed; invalid JSON fails in the decoder anyway.
func checkSurrogates(raw []byte) error {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		i++
		if raw[i] != 'u' {
			continue
		}
		r, ok := hex4(raw[i+1:])
		if !ok {
			continue // a syntax error the decoder reports
		}
		i += 4
		switch {
		case 0xDC00 <= r && r <= 0xDFFF:
			return status.Invalidf("invalid JSON: lone surrogate \\u%04X in a string", r)
		case 0xD800 <= r && r <= 0xDBFF:
			lo, ok := rune(0), false
			if i+6 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
				lo, ok = hex4(raw[i+3:])
			}
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return status.Invalidf("invalid JSON: lone surrogate \\u%04X in a string", r)
			}
			i += 6
		}
	}
	return nil
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func (d *decoder) fail(format string, args ...any) error {
	return pathError(d.path, format, args...)
}

func (d *decoder) push(e pathElem) { d.path = append(d.path, e) }
func (d *decoder) pop()            { d.path = d.path[:len(d.path)-1] }

// token reads the next token, turning syntax errors into invalid-argument.
func (d *decoder) token() (json.Token, error) {
	t, err := d.lex.token()
	if err != nil {
		return nil, d.syntaxError()
	}
	return t, nil
}

// end checks that nothing follows the top-level value.
func (d *decoder) end() error {
	if !d.lex.atEnd() {
		return status.Invalidf("invalid JSON: unexpected data after the value")
	}
	return nil
}

// openObject reads the '{' that starts what must be an object.
func (d *decoder) openObject(what string) error {
	t, err := d.token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		return d.fail("%s must be an object, not %s", what, describe(t))
	}
	return nil
}

// keys calls each for every key of the object just opened, then reads the
// closing '}'. each must consume the key's value.
func (d *decoder) keys(each func(key string) error) error {
	for d.lex.more() {
		t, err := d.token()
		if err != nil {
			return err
		}
		if err := each(t.(string)); err != nil { // More() guarantees a key
			return err
		}
	}
	_, err := d.token() // '}'
	return err
}

// value decodes the value at depth; inArray says it is an array element, which
// may not itself be an array (checked before its content is read).
func (d *decoder) value(depth int, inArray bool) (Value, error) {
	if depth > MaxDepth {
		return Value{}, d.fail("more than %d levels of nesting", MaxDepth)
	}
	if err := d.openObject("a value"); err != nil {
		return Value{}, err
	}
	var v Value
	first := ""
	err := d.keys(func(key string) error {
		if first != "" {
			return d.fail("two value keys in one value (%q and %q)", first, key)
		}
		first = key
		if inArray && key == "arrayValue" {
			return d.fail("an array cannot directly contain another array (Firestore does not support it)")
		}
		var err error
		v, err = d.payload(key, depth)
		return err
	})
	if err == nil && first == "" {
		err = d.fail("a value needs one key such as \"stringValue\", found none")
	}
	return v, err
}

// payload decodes what follows the value key.
func (d *decoder) payload(key string, depth int) (Value, error) {
	switch key {
	case "arrayValue", "mapValue", "geoPointValue":
		return d.compound(key, depth)
	case "nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue", "stringValue", "bytesValue":
	default:
		return Value{}, d.fail("unknown value key %q", key)
	}
	t, err := d.token()
	if err != nil {
		return Value{}, err
	}
	switch key {
	case "nullValue":
		if t == nil || t == "NULL_VALUE" {
			return Value{Kind: Null}, nil
		}
		return Value{}, d.fail("nullValue must be null, not %s", describe(t))
	case "booleanValue":
		if b, ok := t.(bool); ok {
			return Value{Kind: Boolean, Bool: b}, nil
		}
		return Value{}, d.fail("booleanValue must be true or false, not %s", describe(t))
	case "integerValue":
		return d.integer(t)
	case "doubleValue":
		f, err := d.double(key, t)
		return Value{Kind: Double, Double: f}, err
	case "timestampValue":
		s, ok := t.(string)
		if !ok {
			return Value{}, d.fail("timestampValue must be an RFC 3339 string, not %s", describe(t))
		}
		tm, err := ParseTimestamp(s)
		if err != nil {
			return Value{}, d.fail("timestampValue %q: %s", s, err.Error())
		}
		return Value{Kind: Timestamp, Time: tm}, nil
	case "stringValue":
		if s, ok := t.(string); ok {
			return Value{Kind: String, Str: s}, nil
		}
		return Value{}, d.fail("stringValue must be a string, not %s", describe(t))
	case "bytesValue":
		s, ok := t.(string)
		if !ok {
			return Value{}, d.fail("bytesValue must be a base64 string, not %s", describe(t))
		}
		b, err := base64.StdEncoding.Strict().DecodeString(s)
		if err != nil || strings.ContainsAny(s, "\r\n") {
			return Value{}, d.fail("bytesValue is not valid standard base64 with padding")
		}
		return Value{Kind: Bytes, Bytes: b}, nil
	}
	panic("unreachable: payload lists every value key")
}

func (d *decoder) integer(t json.Token) (Value, error) {
	var s string
	switch t := t.(type) {
	case string:
		s = t
	case json.Number:
		s = string(t)
	default:
		return Value{}, d.fail("integerValue must be a decimal string, not %s", describe(t))
	}
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return Value{}, d.fail("integerValue %q is not a decimal integer", s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return Value{}, d.fail("integerValue %s is outside the 64-bit range", s)
	}
	return Value{Kind: Integer, Int: n}, nil
}

// double decodes a doubleValue, or a geo coordinate when what says so
// (coordinates must be numbers: their ranges exclude NaN and infinities).
func (d *decoder) double(what string, t json.Token) (float64, error) {
	switch t := t.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return 0, d.fail("%s %s is outside the range of a double", what, t)
		}
		return f, nil
	case string:
		if what == "doubleValue" {
			switch t {
			case "NaN":
				return math.NaN(), nil
			case "Infinity":
				return math.Inf(1), nil
			case "-Infinity":
				return math.Inf(-1), nil
			}
			return 0, d.fail("doubleValue %q is not a number, \"NaN\", \"Infinity\" or \"-Infinity\"", t)
		}
	}
	return 0, d.fail("%s must be a number, not %s", what, describe(t))
}

// ParseTimestamp reads RFC 3339 with at most 9 fractional digits and keeps
// microseconds, rounding down as Firestore does.
func ParseTimestamp(s string) (time.Time, error) {
	if dot := strings.IndexByte(s, '.'); dot >= 0 {
		n := len(s[dot+1:]) - len(strings.TrimLeft(s[dot+1:], "0123456789"))
		if n == 0 || n > 9 {
			return time.Time{}, errors.New("wants 1 to 9 fractional digits")
		}
	}
	// time.Parse also takes a decimal comma and offsets such as +24:00, which
	// RFC 3339 does not.
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || strings.Contains(s, ",") || !strings.HasSuffix(s, "Z") && !validOffset(s[len(s)-6:]) {
		return time.Time{}, errors.New("is not RFC 3339 (2006-01-02T15:04:05.000000Z)")
	}
	t = t.UTC()
	if y := t.Year(); y < 1 || y > 9999 {
		return time.Time{}, errors.New("is outside 0001-01-01 to 9999-12-31 UTC")
	}
	return t.Add(-time.Duration(t.Nanosecond() % 1000)), nil
}

// validOffset checks the hours and minutes of a "+hh:mm" that time.Parse accepted.
func validOffset(off string) bool {
	return off[1:3] <= "23" && off[4:6] <= "59"
}

// describe names a token's JSON type for messages.
func describe(t json.Token) string {
	switch t := t.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return "an object"
	}
	return "an unexpected token"
}
