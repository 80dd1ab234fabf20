package docstore

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// The values a query holds (filter operands, cursor positions) and the
// document names that stand in for references, decoded from the request.

// parseValueList reads the list operand of IN, NOT_IN or ARRAY_CONTAINS_ANY.
func parseValueList(raw json.RawMessage, part string, names bool, coll Path) (Value, error) {
	m, err := object(raw, part, "arrayValue")
	if err != nil || len(m) != 1 {
		return Value{}, invalidf("%s needs a non-empty array value", part)
	}
	av, err := object(m["arrayValue"], part+".arrayValue", "values")
	if err != nil {
		return Value{}, err
	}
	var elems []json.RawMessage
	if r, ok := av["values"]; ok && json.Unmarshal(r, &elems) != nil {
		return Value{}, invalidf("%s.arrayValue.values must be an array", part)
	}
	list := Value{Kind: Array, Array: []Value{}}
	for i, e := range elems {
		ep := part + ".arrayValue.values[" + strconv.Itoa(i) + "]"
		var v Value
		if names {
			v, err = parseNameValue(e, ep, coll)
		} else {
			v, err = decodeQueryValue(e, ep)
		}
		if err != nil {
			return Value{}, err
		}
		list.Array = append(list.Array, v)
	}
	return list, nil
}

// parseNameValue reads a value standing for a document name.
func parseNameValue(raw json.RawMessage, part string, coll Path) (Value, error) {
	m, err := object(raw, part, "referenceValue", "stringValue")
	if err != nil || len(m) != 1 {
		return Value{}, invalidf("%s: __name__ is compared with a referenceValue (a document path) or a stringValue (a document id)", part)
	}
	var s string
	if r, ok := m["referenceValue"]; ok {
		if json.Unmarshal(r, &s) != nil {
			return Value{}, invalidf("%s.referenceValue must be a string", part)
		}
		if _, err := ParseDocumentPath(s); err != nil {
			return Value{}, invalidf("%s: %v", part, err)
		}
		return Value{Kind: String, Str: s}, nil
	}
	if json.Unmarshal(m["stringValue"], &s) != nil {
		return Value{}, invalidf("%s.stringValue must be a string", part)
	}
	if s == "" {
		return Value{}, invalidf("%s: an empty document id is invalid", part)
	}
	if strings.Contains(s, "/") {
		return Value{}, invalidf("%s: document id %q contains \"/\"; give a path as a referenceValue", part, s)
	}
	p, err := coll.Child(s)
	if err != nil {
		return Value{}, invalidf("%s: %v", part, err)
	}
	return Value{Kind: String, Str: p.String()}, nil
}

// decodeQueryValue decodes a filter or cursor value, naming the part on failure.
func decodeQueryValue(raw json.RawMessage, part string) (Value, error) {
	v, err := DecodeValue(raw)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return Value{}, &Error{Code: e.Code, Message: part + ": " + e.Message}
		}
		return Value{}, invalidf("%s: %v", part, err)
	}
	return v, nil
}

// parseCursor reads a startAt or endAt; norm says which positions are __name__.
func parseCursor(raw json.RawMessage, part string, norm []Order, coll Path) (*Cursor, error) {
	m, err := object(raw, part, "values", "before")
	if err != nil {
		return nil, err
	}
	var c Cursor
	if r, ok := m["before"]; ok && json.Unmarshal(r, &c.Before) != nil {
		return nil, invalidf("%s.before must be true or false", part)
	}
	var vals []json.RawMessage
	if json.Unmarshal(m["values"], &vals) != nil || len(vals) == 0 {
		return nil, invalidf("%s.values must be a non-empty array", part)
	}
	if len(vals) > len(norm) {
		return nil, invalidf("%s has %d values, more than the %d orderings of the query (%s)",
			part, len(vals), len(norm), describeOrders(norm))
	}
	for i, r := range vals {
		vp := part + ".values[" + strconv.Itoa(i) + "]"
		var v Value
		if norm[i].Field.isName() {
			v, err = parseNameValue(r, vp, coll)
		} else {
			v, err = decodeQueryValue(r, vp)
		}
		if err != nil {
			return nil, err
		}
		c.Values = append(c.Values, v)
	}
	return &c, nil
}
