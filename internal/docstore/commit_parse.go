package docstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// ParseCommitRequest parses a commit request in Firestore REST v1's commit shape, with
// relative document names and our clientId and batchId:
//
//	POST /api/v1/db/commit
//	{"writes": [
//	   {"update": {"name": "users/u1/history/h1", "fields": {"tool": {"stringValue": "area"}}},
//	    "currentDocument": {"exists": false}},
//	   {"update": {"name": "users/u1", "fields": {"ui": {"mapValue": {"fields": {"theme": {"stringValue": "dark"}}}}}},
//	    "updateMask": {"fieldPaths": ["ui.theme", "`odd name`"]}},
//	   {"delete": "users/u1/history/h0", "currentDocument": {"updateTime": "2026-11-23T12:00:00.000001Z"}}],
//	 "clientId": "6f1c…", "batchId": "12"}
//
// A write is an update (replace, or merge with updateMask) or a delete; batchId is an int64,
// as a decimal string or a JSON integer (proto3 JSON takes both). Not supported, and refused
// rather than ignored: transactions, transforms, and a Document's output fields. Every failure
// is invalid-argument naming the part; what needs the stored documents or the caller (access,
// preconditions, sizes) is Commit's to check.
func (s *Store) ParseCommitRequest(raw []byte) (CommitRequest, error) {
	return parseCommitRequest(raw, s.cfg.MaxWrites)
}

func parseCommitRequest(raw []byte, maxWrites int) (CommitRequest, error) {
	var req CommitRequest
	top, err := value.DecodeObject(raw, "commit request", "writes", "clientId", "batchId")
	if err != nil {
		return req, err
	}
	if v, ok := top["clientId"]; ok && json.Unmarshal(v, &req.ClientID) != nil {
		return req, status.Invalidf("clientId must be a string")
	}
	if v, ok := top["batchId"]; ok {
		if req.BatchID, err = parseInt64(v); err != nil {
			return req, status.Invalidf("batchId %s", err.Error())
		}
	}
	var writes []json.RawMessage
	if v, ok := top["writes"]; ok {
		if writes, ok = value.DecodeArray(v); !ok {
			return req, status.Invalidf("writes must be an array")
		}
	}
	if len(writes) > maxWrites {
		return req, status.Invalidf("a commit has %d writes, more than %d", len(writes), maxWrites)
	}
	req.Writes = make([]Write, len(writes))
	for i, w := range writes {
		if req.Writes[i], err = parseWrite(w, fmt.Sprintf("writes[%d]", i)); err != nil {
			return req, err
		}
	}
	return req, nil
}

func parseWrite(raw json.RawMessage, part string) (Write, error) {
	var w Write
	m, err := value.DecodeObject(raw, part, "update", "delete", "updateMask", "currentDocument")
	if err != nil {
		return w, err
	}
	update, isUpdate := m["update"]
	del, isDelete := m["delete"]
	switch {
	case isUpdate == isDelete:
		return w, status.Invalidf("%s needs exactly one of update and delete", part)
	case isDelete:
		var name string
		if json.Unmarshal(del, &name) != nil {
			return w, status.Invalidf("%s.delete must be a document name", part)
		}
		if w.Path, err = value.ParseDocumentPath(name); err != nil {
			return w, status.Invalidf("%s.delete: %s", part, err.Error())
		}
		w.Delete = true
		if _, ok := m["updateMask"]; ok {
			return w, status.Invalidf("%s: a delete has no updateMask", part)
		}
	default:
		doc, err := value.DecodeObject(update, part+".update", "name", "fields")
		if err != nil {
			return w, err
		}
		var name string
		if json.Unmarshal(doc["name"], &name) != nil {
			return w, status.Invalidf("%s.update.name must be a document name", part)
		}
		if w.Path, err = value.ParseDocumentPath(name); err != nil {
			return w, status.Invalidf("%s.update.name: %s", part, err.Error())
		}
		w.Fields = value.Fields{}
		if f, ok := doc["fields"]; ok {
			if w.Fields, err = value.DecodeFields(f); err != nil {
				return w, status.Invalidf("%s.update.fields: %s", part, err.Error())
			}
		}
	}
	if mask, ok := m["updateMask"]; ok {
		if w.Mask, err = parseMask(mask, part+".updateMask"); err != nil {
			return w, err
		}
		w.Merge = true
	}
	if pre, ok := m["currentDocument"]; ok {
		if w.Precondition, err = parsePrecondition(pre, part+".currentDocument"); err != nil {
			return w, err
		}
	}
	return w, nil
}

func parseMask(raw json.RawMessage, part string) ([]value.FieldPath, error) {
	m, err := value.DecodeObject(raw, part, "fieldPaths")
	if err != nil {
		return nil, err
	}
	var paths []string
	if v, ok := m["fieldPaths"]; ok && json.Unmarshal(v, &paths) != nil {
		return nil, status.Invalidf("%s.fieldPaths must be an array of field paths", part)
	}
	mask := make([]value.FieldPath, len(paths))
	for i, s := range paths {
		if mask[i], err = value.ParseFieldPath(s); err != nil {
			return nil, status.Invalidf("%s.fieldPaths[%d]: %s", part, i, err.Error())
		}
	}
	return mask, nil
}

func parsePrecondition(raw json.RawMessage, part string) (Precondition, error) {
	var pre Precondition
	m, err := value.DecodeObject(raw, part, "exists", "updateTime")
	if err != nil {
		return pre, err
	}
	if len(m) != 1 {
		return pre, status.Invalidf("%s needs exactly one of exists and updateTime", part)
	}
	if v, ok := m["exists"]; ok {
		var exists bool
		if json.Unmarshal(v, &exists) != nil {
			return pre, status.Invalidf("%s.exists must be true or false", part)
		}
		pre.Exists = &exists
	}
	if v, ok := m["updateTime"]; ok {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return pre, status.Invalidf("%s.updateTime must be an RFC 3339 string", part)
		}
		if pre.UpdateTime, err = value.ParseTimestamp(s); err != nil {
			return pre, status.Invalidf("%s.updateTime %q %s", part, s, err.Error())
		}
	}
	return pre, nil
}

// parseInt64 reads an int64 as proto3 JSON writes it: a decimal string or a JSON integer.
func parseInt64(raw json.RawMessage) (int64, error) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, errors.New("must be an integer (int64), as a string or a number")
	}
	return n, nil
}
