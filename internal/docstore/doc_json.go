package docstore

import (
	"encoding/json"
	"strconv"
)

// docJSON is a document as the HTTP API sends it: Firestore REST v1's Document with a relative
// name, plus the store-wide version (a decimal string, as int64s are in that encoding).
type docJSON struct {
	Name       string          `json:"name"`
	Fields     json.RawMessage `json:"fields,omitempty"`
	CreateTime string          `json:"createTime,omitempty"`
	UpdateTime string          `json:"updateTime"`
	Version    string          `json:"version"`
	Deleted    bool            `json:"deleted,omitempty"`
}

// MarshalJSON encodes a document: {"name","fields","createTime","updateTime","version"}.
func (d Doc) MarshalJSON() ([]byte, error) {
	fields, err := EncodeFields(d.Fields)
	if err != nil {
		return nil, err
	}
	return json.Marshal(docJSON{Name: d.Path.String(), Fields: fields, CreateTime: formatTime(d.CreateTime),
		UpdateTime: formatTime(d.UpdateTime), Version: strconv.FormatInt(d.Version, 10)})
}

// MarshalJSON encodes a change: the document, or for a deletion
// {"name","updateTime","version","deleted":true}, updateTime being the deletion's.
func (c Change) MarshalJSON() ([]byte, error) {
	if !c.Deleted {
		return c.Doc.MarshalJSON()
	}
	return json.Marshal(docJSON{Name: c.Path.String(), UpdateTime: formatTime(c.UpdateTime),
		Version: strconv.FormatInt(c.Version, 10), Deleted: true})
}

// MarshalJSON encodes a listen answer: {"reset","version","changes"}.
func (c Changes) MarshalJSON() ([]byte, error) {
	changes := c.Changes
	if changes == nil {
		changes = []Change{}
	}
	return json.Marshal(struct {
		Reset   bool     `json:"reset"`
		Version string   `json:"version"`
		Changes []Change `json:"changes"`
	}{c.Reset, strconv.FormatInt(c.Version, 10), changes})
}
