package docstore

import (
	"errors"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

func TestParseCommitRequest(t *testing.T) {
	t.Parallel()
	req, err := parseCommitRequest([]byte(`{"writes": [
		{"update": {"name": "users/u1/history/h1", "fields": {"tool": {"stringValue": "area"}}}, "currentDocument": {"exists": false}},
		{"update": {"name": "users/u1"}, "updateMask": {"fieldPaths": ["ui.theme", "`+"`odd name`"+`"]}},
		{"delete": "users/u1/history/h0", "currentDocument": {"updateTime": "2026-11-23T12:00:00.0000019Z"}}],
		"clientId": "tab", "batchId": "12"}`), testMaxWrites)
	if err != nil {
		t.Fatal(err)
	}
	w := req.Writes
	if req.ClientID != "tab" || req.BatchID != 12 || len(w) != 3 {
		t.Fatalf("%+v", req)
	}
	if w[0].Path.String() != "users/u1/history/h1" || w[0].Merge || !value.Equal(w[0].Fields["tool"], strV("area")) ||
		w[0].Precondition.Exists == nil || *w[0].Precondition.Exists {
		t.Errorf("write 0: %+v", w[0])
	}
	if !w[1].Merge || len(w[1].Mask) != 2 || w[1].Mask[1][0] != "odd name" || w[1].Fields == nil || len(w[1].Fields) != 0 {
		t.Errorf("write 1: %+v", w[1])
	}
	if !w[2].Delete || !w[2].Precondition.UpdateTime.Equal(time.Date(2026, 11, 23, 12, 0, 0, 1000, time.UTC)) {
		t.Errorf("write 2: %+v", w[2])
	}
	if req, err := parseCommitRequest([]byte(`{"batchId": 7, "clientId": "c"}`), testMaxWrites); err != nil || req.BatchID != 7 || len(req.Writes) != 0 {
		t.Errorf("a numeric batchId: %+v, %v", req, err)
	}
}

func TestParseCommitRequestErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, part string }{
		{`[]`, "must be a JSON object"},
		{`{"transaction": "x"}`, `unknown field "transaction"`},
		{`{"writes": [{"delete": "users/u1/d/a"}], "writes": []}`, `commit request has the field "writes" twice`},
		{`{"writes": [{"update": {"name": "users/u1/d/a", "fields": {}, "fields": {}}}]}`, `has the field "fields" twice`},
		{`{"writes": []} {}`, "must be a JSON object"},
		{`{"writes": {}}`, "writes must be an array"},
		{`{"batchId": "1.5"}`, "batchId"},
		{`{"clientId": 3}`, "clientId"},
		{`{"writes": [{}]}`, "writes[0] needs exactly one of update and delete"},
		{`{"writes": [{"delete": "users/u1", "update": {"name": "users/u1"}}]}`, "exactly one"},
		{`{"writes": [{"delete": "users"}]}`, "writes[0].delete"},
		{`{"writes": [{"delete": "users/u1", "updateMask": {"fieldPaths": []}}]}`, "no updateMask"},
		{`{"writes": [{"update": {"name": "users/u1", "createTime": "x"}}]}`, `writes[0].update has an unknown field "createTime"`},
		{`{"writes": [{"update": {"name": "users//x"}}]}`, "writes[0].update.name"},
		{`{"writes": [{"update": {"name": "users/u1", "fields": {"a": {"integerValue": "x"}}}}]}`, "writes[0].update.fields"},
		{`{"writes": [{"update": {"name": "users/u1"}, "updateMask": {"fieldPaths": ["a..b"]}}]}`, "writes[0].updateMask.fieldPaths[0]"},
		{`{"writes": [{"update": {"name": "users/u1"}, "transform": {}}]}`, `unknown field "transform"`},
		{`{"writes": [{"update": {"name": "users/u1"}, "currentDocument": {}}]}`, "exactly one of exists and updateTime"},
		{`{"writes": [{"update": {"name": "users/u1"}, "currentDocument": {"updateTime": "yesterday"}}]}`, "RFC 3339"},
		{`{"writes": [{"update": {"name": "users/u1"}, "currentDocument": {"exists": "yes"}}]}`, "exists must be"},
	} {
		_, err := parseCommitRequest([]byte(tt.in), testMaxWrites)
		if !errors.Is(err, status.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.part) {
			t.Errorf("%s: %v, want invalid-argument naming %q", tt.in, err, tt.part)
		}
	}
}
