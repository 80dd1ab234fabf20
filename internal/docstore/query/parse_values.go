package query

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// The values a query holds (filter operands, cursor positions) and the
// document names that stand in for references, decoded from the request.

// parseValueList reads the list operand of IN, NOT_IN or ARRAY_CONTAINS_ANY.
func parseValueList(raw json.RawMessage, part string, names bool, coll value.Path) (value.Value, error) {
	m, err := object(raw, part, "arrayValue")
	if err != nil || len(m) != 1 {
		return value.Value{}, status.Invalidf("%s needs a non-empty array value", part)
	}
	av, err := object(m["arrayValue"], part+".arrayValue", "values")
	if err != nil {
		return value.Value{}, err
	}
	var elems []json.RawMessage
	if r, ok := av["values"]; ok && json.Unmarshal(r, &elems) != nil {
		return value.Value{}, status.Invalidf("%s.arrayValue.values must be an array", part)
	}
	list := value.Value{Kind: value.Array, Array: []value.Value{}}
	for i, e := range elems {
		ep := part + ".arrayValue.values[" + strconv.Itoa(i) + "]"
		var v value.Value
		if names {
			v, err = parseNameValue(e, ep, coll)
		} else {
			v, err = decodeQueryValue(e, ep)
		}
		if err != nil {
			return value.Value{}, err
		}
		list.Array = append(list.Array, v)
	}
	return list, nil
}

// parseNameValue reads a value standing for a document name.
func parseNameValue(raw json.RawMessage, part string, coll value.Path) (value.Value, error) {
	m, err := object(raw, part, "referenceValue", "stringValue")
	if err != nil || len(m) != 1 {
		return value.Value{}, status.Invalidf("%s: __name__ is compared with a referenceValue (a document path) or a stringValue (a document id)", part)
	}
	var s string
	if r, ok := m["referenceValue"]; ok {
		if json.Unmarshal(r, &s) != nil {
			return value.Value{}, status.Invalidf("%s.referenceValue must be a string", part)
		}
		if _, err := value.ParseDocumentPath(s); err != nil {
			return value.Value{}, status.Invalidf("%s: %v", part, err)
		}
		return value.Value{Kind: value.String, Str: s}, nil
	}
	if json.Unmarshal(m["stringValue"], &s) != nil {
		return value.Value{}, status.Invalidf("%s.stringValue must be a string", part)
	}
	if s == "" {
		return value.Value{}, status.Invalidf("%s: an empty document id is invalid", part)
	}
	if strings.Contains(s, "/") {
		return value.Value{}, status.Invalidf("%s: document id %q contains \"/\"; give a path as a referenceValue", part, s)
	}
	p, err := coll.Child(s)
	if err != nil {
		return value.Value{}, status.Invalidf("%s: %v", part, err)
	}
	return value.Value{Kind: value.String, Str: p.String()}, nil
}

// decodeQueryValue decodes a filter or cursor value, naming the part on failure.
func decodeQueryValue(raw json.RawMessage, part string) (value.Value, error) {
	v, err := value.Decode(raw)
	if err != nil {
		var e *status.Error
		if errors.As(err, &e) {
			return value.Value{}, &status.Error{Code: e.Code, Message: part + ": " + e.Message}
		}
		return value.Value{}, status.Invalidf("%s: %v", part, err)
	}
	return v, nil
}

// parseCursor reads a startAt or endAt; norm says which positions are __name__.
func parseCursor(raw json.RawMessage, part string, norm []Order, coll value.Path) (*Cursor, error) {
	m, err := object(raw, part, "values", "before")
	if err != nil {
		return nil, err
	}
	var c Cursor
	if r, ok := m["before"]; ok && json.Unmarshal(r, &c.Before) != nil {
		return nil, status.Invalidf("%s.before must be true or false", part)
	}
	var vals []json.RawMessage
	if json.Unmarshal(m["values"], &vals) != nil || len(vals) == 0 {
		return nil, status.Invalidf("%s.values must be a non-empty array", part)
	}
	if len(vals) > len(norm) {
		return nil, status.Invalidf("%s has %d values, more than the %d orderings of the query (%s)",
			part, len(vals), len(norm), DescribeOrders(norm))
	}
	for i, r := range vals {
		vp := part + ".values[" + strconv.Itoa(i) + "]"
		var v value.Value
		if norm[i].Field.IsName() {
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
