package value

import (
	"encoding/json"
	"strconv"
	"time"
)

// Doc is a stored document, as Get, Listen and queries see it.
type Doc struct {
	Path       Path
	Fields     Fields
	CreateTime time.Time
	UpdateTime time.Time
	Version    int64 // store-wide, increasing with every write
}

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
	return json.Marshal(docJSON{Name: d.Path.String(), Fields: fields, CreateTime: FormatTime(d.CreateTime),
		UpdateTime: FormatTime(d.UpdateTime), Version: strconv.FormatInt(d.Version, 10)})
}

// FormatTime writes a commit time as Firestore does, in UTC to the microsecond.
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}

// MarshalTombstone encodes a deletion as a listen reports it:
// {"name","updateTime","version","deleted":true}, updateTime being the deletion's.
func MarshalTombstone(p Path, deleted time.Time, version int64) ([]byte, error) {
	return json.Marshal(docJSON{Name: p.String(), UpdateTime: FormatTime(deleted),
		Version: strconv.FormatInt(version, 10), Deleted: true})
}
