package query

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// Parse parses a query request in Firestore REST v1's runQuery shape,
// with relative names:
//
//	POST /api/v1/db/query
//	{"parent": "users/u1",
//	 "structuredQuery": {
//	   "from":    [{"collectionId": "history"}],
//	   "where":   {"compositeFilter": {"op": "AND", "filters": [
//	                {"fieldFilter": {"field": {"fieldPath": "tool"}, "op": "EQUAL", "value": {"stringValue": "area"}}},
//	                {"unaryFilter": {"op": "IS_NOT_NULL", "field": {"fieldPath": "result"}}}]}},
//	   "orderBy": [{"field": {"fieldPath": "at"}, "direction": "DESCENDING"}],
//	   "limit":   50,
//	   "limitToLast": true,
//	   "startAt": {"values": [{"timestampValue": "2026-01-01T00:00:00Z"}], "before": true},
//	   "endAt":   {"values": [...], "before": false}}}
//
// parent is the document whose collection is queried ("" for a top-level
// collection); from names exactly one collection (no allDescendants).
// limitToLast is our addition: limit counts from the end of the ordering,
// and the results still come in the query's order. where is a fieldFilter, a
// unaryFilter (IS_NULL, IS_NAN, IS_NOT_NULL, IS_NOT_NAN, mapped as Op
// explains) or a compositeFilter with op AND, nested ANDs flattened. A
// fieldFilter EQUAL or NOT_EQUAL on null or NaN means the same as the unary
// filter. __name__ filters and cursor positions take {"referenceValue":
// "users/u1/history/h1"} (a relative document path) or {"stringValue": "h1"}
// (an id in the queried collection, as the SDKs' documentId() filters send).
// Not supported, and refused rather than ignored: select, offset,
// findNearest, OR filters. Every failure is invalid-argument naming the part.
func Parse(parent string, structuredQuery []byte) (Query, error) {
	q, err := parseQuery(parent, structuredQuery)
	if err != nil {
		return Query{}, err
	}
	return q, nil
}

func parseQuery(parent string, structuredQuery []byte) (Query, error) {
	var q Query
	parentPath := value.Path{}
	if parent != "" {
		p, err := value.ParseDocumentPath(parent)
		if err != nil {
			return q, status.Invalidf("parent: %v", err)
		}
		parentPath = p
	}
	top, err := object(structuredQuery, "structuredQuery",
		"from", "where", "orderBy", "limit", "limitToLast", "startAt", "endAt")
	if err != nil {
		return q, err
	}
	if q.Parent, err = parseFrom(top["from"], parentPath); err != nil {
		return q, err
	}
	if raw, ok := top["where"]; ok {
		if q.Where, err = parseFilter(raw, "structuredQuery.where", q.Parent); err != nil {
			return q, err
		}
	}
	if raw, ok := top["orderBy"]; ok {
		if q.OrderBy, err = parseOrderBy(raw); err != nil {
			return q, err
		}
	}
	if raw, ok := top["limit"]; ok {
		var n float64
		if json.Unmarshal(raw, &n) != nil || n != math.Trunc(n) {
			return q, status.Invalidf("structuredQuery.limit must be an integer")
		}
		if n <= 0 || n > MaxLimit {
			return q, status.Invalidf("structuredQuery.limit %v is outside 1..%d", n, MaxLimit)
		}
		q.Limit = int(n)
	}
	if raw, ok := top["limitToLast"]; ok {
		if json.Unmarshal(raw, &q.LimitToLast) != nil {
			return q, status.Invalidf("structuredQuery.limitToLast must be true or false")
		}
	}
	// Cursors come last: which of their values are document names depends
	// on the whole ordering, implicit parts included.
	norm := q.Normalized()
	if raw, ok := top["startAt"]; ok {
		if q.StartAt, err = parseCursor(raw, "structuredQuery.startAt", norm, q.Parent); err != nil {
			return q, err
		}
	}
	if raw, ok := top["endAt"]; ok {
		if q.EndAt, err = parseCursor(raw, "structuredQuery.endAt", norm, q.Parent); err != nil {
			return q, err
		}
	}
	return q, q.Validate()
}

// unsupported names the Firestore structuredQuery parts we refuse, so that
// the message says they are known but not offered.
func unsupported(key string) (string, bool) {
	switch key {
	case "select":
		return "structuredQuery.select (projections) is not supported", true
	case "offset":
		return "structuredQuery.offset is not supported: page with a cursor", true
	case "findNearest":
		return "structuredQuery.findNearest (vector search) is not supported", true
	}
	return "", false
}

// object decodes raw as a JSON object whose keys must be among allowed; at the top level, the
// Firestore parts this store does not offer get a message of their own.
func object(raw json.RawMessage, part string, allowed ...string) (map[string]json.RawMessage, error) {
	if part != "structuredQuery" {
		return value.DecodeObject(raw, part, allowed...)
	}
	m, err := value.DecodeObject(raw, part, append(slices.Clone(allowed), "select", "offset", "findNearest")...)
	if err != nil {
		return nil, err
	}
	for k := range m {
		if msg, ok := unsupported(k); ok {
			return nil, status.Invalidf("%s", msg)
		}
	}
	return m, nil
}

func parseFrom(raw json.RawMessage, parent value.Path) (value.Path, error) {
	var from []json.RawMessage
	if raw == nil || json.Unmarshal(raw, &from) != nil || len(from) != 1 {
		return value.Path{}, status.Invalidf("structuredQuery.from must name exactly one collection")
	}
	sel, err := object(from[0], "structuredQuery.from[0]", "collectionId", "allDescendants")
	if err != nil {
		return value.Path{}, err
	}
	var all bool
	if r, ok := sel["allDescendants"]; ok && (json.Unmarshal(r, &all) != nil || all) {
		return value.Path{}, status.Invalidf("structuredQuery.from[0].allDescendants: collection group queries are not supported")
	}
	var id string
	if json.Unmarshal(sel["collectionId"], &id) != nil {
		return value.Path{}, status.Invalidf("structuredQuery.from[0].collectionId must be a string")
	}
	p, err := parent.Child(id)
	if err != nil {
		return value.Path{}, status.Invalidf("structuredQuery.from[0].collectionId: %v", err)
	}
	return p, nil
}

// parseFilter parses a Filter message into a flat AND list.
func parseFilter(raw json.RawMessage, part string, coll value.Path) ([]Filter, error) {
	m, err := object(raw, part, "fieldFilter", "compositeFilter", "unaryFilter")
	if err != nil {
		return nil, err
	}
	if len(m) != 1 {
		return nil, status.Invalidf("%s needs exactly one of fieldFilter, compositeFilter and unaryFilter", part)
	}
	if r, ok := m["compositeFilter"]; ok {
		return parseComposite(r, part+".compositeFilter", coll)
	}
	if r, ok := m["unaryFilter"]; ok {
		f, err := parseUnary(r, part+".unaryFilter")
		return []Filter{f}, err
	}
	f, err := parseFieldFilter(m["fieldFilter"], part+".fieldFilter", coll)
	return []Filter{f}, err
}

func parseComposite(raw json.RawMessage, part string, coll value.Path) ([]Filter, error) {
	m, err := object(raw, part, "op", "filters")
	if err != nil {
		return nil, err
	}
	var op string
	if json.Unmarshal(m["op"], &op) != nil {
		return nil, status.Invalidf("%s.op must be a string", part)
	}
	switch op {
	case "AND":
	case "OR":
		return nil, status.Invalidf("%s: OR filters are not supported", part)
	default:
		return nil, status.Invalidf("%s: unknown operator %q", part, op)
	}
	var subs []json.RawMessage
	if json.Unmarshal(m["filters"], &subs) != nil || len(subs) == 0 {
		return nil, status.Invalidf("%s.filters must be a non-empty array", part)
	}
	var out []Filter
	for i, sub := range subs {
		fs, err := parseFilter(sub, part+".filters["+strconv.Itoa(i)+"]", coll)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

func parseUnary(raw json.RawMessage, part string) (Filter, error) {
	m, err := object(raw, part, "op", "field")
	if err != nil {
		return Filter{}, err
	}
	var op string
	if json.Unmarshal(m["op"], &op) != nil {
		return Filter{}, status.Invalidf("%s.op must be a string", part)
	}
	field, err := parseFieldReference(m["field"], part+".field")
	if err != nil {
		return Filter{}, err
	}
	if field.IsName() {
		return Filter{}, status.Invalidf("%s: %s does not apply to __name__", part, op)
	}
	nan := value.Value{Kind: value.Double, Double: math.NaN()}
	switch op {
	case "IS_NULL":
		return Filter{Field: field, Op: OpEqual, Value: value.Value{Kind: value.Null}}, nil
	case "IS_NAN":
		return Filter{Field: field, Op: OpEqual, Value: nan}, nil
	case "IS_NOT_NULL":
		return Filter{Field: field, Op: OpNotEqual, Value: value.Value{Kind: value.Null}}, nil
	case "IS_NOT_NAN":
		return Filter{Field: field, Op: OpNotEqual, Value: nan}, nil
	}
	return Filter{}, status.Invalidf("%s: unknown operator %q", part, op)
}

func parseFieldFilter(raw json.RawMessage, part string, coll value.Path) (Filter, error) {
	m, err := object(raw, part, "field", "op", "value")
	if err != nil {
		return Filter{}, err
	}
	var f Filter
	if f.Field, err = parseFieldReference(m["field"], part+".field"); err != nil {
		return f, err
	}
	if json.Unmarshal(m["op"], &f.Op) != nil {
		return f, status.Invalidf("%s.op must be a string", part)
	}
	if !f.Op.valid() {
		return f, status.Invalidf("%s: unknown operator %q", part, string(f.Op))
	}
	raw, ok := m["value"]
	if !ok {
		return f, status.Invalidf("%s.value is missing", part)
	}
	switch {
	case f.Op.TakesArray():
		// The list is decoded element by element: it may hold arrays, which
		// stored values may not (Firestore's own IN accepts [1, [1, 2]]).
		f.Value, err = parseValueList(raw, part+".value", f.Field.IsName(), coll)
	case f.Field.IsName():
		f.Value, err = parseNameValue(raw, part+".value", coll)
	default:
		f.Value, err = decodeQueryValue(raw, part+".value")
	}
	return f, err
}

// parseFieldReference reads {"fieldPath": "a.b"}; __name__ is allowed.
func parseFieldReference(raw json.RawMessage, part string) (value.FieldPath, error) {
	m, err := object(raw, part, "fieldPath")
	if err != nil {
		return nil, err
	}
	var s string
	if json.Unmarshal(m["fieldPath"], &s) != nil {
		return nil, status.Invalidf("%s.fieldPath must be a string", part)
	}
	f, err := value.SplitFieldPath(s)
	if err == nil {
		err = validQueryField(f)
	}
	if err != nil {
		return nil, status.Invalidf("%s: %v", part, err)
	}
	return f, nil
}

func parseOrderBy(raw json.RawMessage) ([]Order, error) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil, status.Invalidf("structuredQuery.orderBy must be an array")
	}
	var out []Order
	for i, r := range list {
		part := "structuredQuery.orderBy[" + strconv.Itoa(i) + "]"
		m, err := object(r, part, "field", "direction")
		if err != nil {
			return nil, err
		}
		var o Order
		if o.Field, err = parseFieldReference(m["field"], part+".field"); err != nil {
			return nil, err
		}
		var dir string
		if d, ok := m["direction"]; ok && json.Unmarshal(d, &dir) != nil {
			return nil, status.Invalidf("%s.direction must be a string", part)
		}
		switch dir {
		case "", "DIRECTION_UNSPECIFIED", "ASCENDING":
		case "DESCENDING":
			o.Descending = true
		default:
			return nil, status.Invalidf("%s: unknown direction %q", part, dir)
		}
		out = append(out, o)
	}
	return out, nil
}
