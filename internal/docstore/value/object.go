package value

import (
	"encoding/json"
	"slices"

	"handy/internal/docstore/status"
)

// DecodeObject decodes raw as a JSON object of the REST API whose keys must be among allowed,
// naming part in its messages. Unlike encoding/json it refuses a key given twice, which would
// make the request ambiguous. The values it returns are slices of raw, not copies: a request
// is split into its parts without holding it twice.
func DecodeObject(raw json.RawMessage, part string, allowed ...string) (map[string]json.RawMessage, error) {
	m, dup, ok := objectFields(raw)
	if !ok {
		return nil, status.Invalidf("%s must be a JSON object", part)
	}
	if dup != "" {
		return nil, status.Invalidf("%s has the field %q twice", part, dup)
	}
	for k := range m {
		if slices.Contains(allowed, k) {
			continue
		}
		return nil, status.Invalidf("%s has an unknown field %q", part, k)
	}
	return m, nil
}

// DecodeArray splits raw, a JSON array, into its elements, slices of raw; ok is false when raw
// is not one.
func DecodeArray(raw json.RawMessage) (elems []json.RawMessage, ok bool) {
	if !json.Valid(raw) {
		return nil, false
	}
	i := skipSpace(raw, 0)
	if raw[i] != '[' {
		return nil, false
	}
	l := lexer{data: raw, pos: i + 1}
	elems = make([]json.RawMessage, 0, l.count(len(raw)))
	for i = skipSpace(raw, i+1); raw[i] != ']'; {
		end := skipValue(raw, i)
		elems = append(elems, raw[i:end:end])
		if i = skipSpace(raw, end); raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return elems, true
}

// objectFields splits a JSON object into its fields, and names a field that appears twice.
func objectFields(raw json.RawMessage) (m map[string]json.RawMessage, dup string, ok bool) {
	if !json.Valid(raw) {
		return nil, "", false
	}
	i := skipSpace(raw, 0)
	if raw[i] != '{' {
		return nil, "", false
	}
	l := lexer{data: raw, pos: i + 1}
	m = make(map[string]json.RawMessage, l.count(len(raw)))
	for i = skipSpace(raw, i+1); raw[i] != '}'; {
		l := lexer{data: raw, pos: i}
		t, err := l.str()
		if err != nil {
			return nil, "", false // not reached: raw is valid
		}
		k := t.(string)
		i = skipSpace(raw, skipSpace(raw, l.pos)+1) // past the ':'
		end := skipValue(raw, i)
		if _, seen := m[k]; seen && dup == "" {
			dup = k
		}
		m[k] = raw[i:end:end]
		if i = skipSpace(raw, end); raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return m, dup, true
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the value of valid JSON that starts at raw[i].
func skipValue(raw []byte, i int) int {
	depth := 0
	for ; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			for i++; raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return i // the end of a scalar, the last of its container
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}
