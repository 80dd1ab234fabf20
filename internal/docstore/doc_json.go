package docstore

import (
	"encoding/json"
	"strconv"

	"handy/internal/docstore/value"
)

// MarshalJSON encodes a change: the document, or for a deletion
// {"name","updateTime","version","deleted":true}, updateTime being the deletion's.
func (c Change) MarshalJSON() ([]byte, error) {
	if !c.Deleted {
		return c.Doc.MarshalJSON()
	}
	return value.MarshalTombstone(c.Path, c.UpdateTime, c.Version)
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
