package value

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"

	"handy/internal/docstore/status"
)

// DecodeObject decodes raw as a JSON object of the REST API whose keys must be among allowed,
// naming part in its messages. Unlike encoding/json it refuses a key given twice, which would
// make the request ambiguous.
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

// objectFields splits a JSON object into its fields, and names a field that appears twice.
func objectFields(raw json.RawMessage) (m map[string]json.RawMessage, dup string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, "", false
	}
	m = make(map[string]json.RawMessage)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, "", false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, "", false
		}
		if _, seen := m[k]; seen && dup == "" {
			dup = k
		}
		m[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, "", false // something after the object
	}
	return m, dup, true
}
