package docstore

import (
	"errors"
	"testing"

	"handy/internal/docstore/status"
)

// FuzzParseCommit: the commit parser never panics, fails only with invalid-argument, and
// allocates at most maxParseAllocPerByte bytes per byte of its input, plus parseAllocSlack,
// whatever the input. Its seeds (below and in testdata/fuzz/FuzzParseCommit) run in every
// go test; go test -fuzz=FuzzParseCommit ./internal/docstore searches further.
func FuzzParseCommit(f *testing.F) {
	for _, seed := range []string{
		`{"writes":[{"update":{"name":"users/u1/history/h1","fields":{"tool":{"stringValue":"area"}}},"currentDocument":{"exists":false}}],"clientId":"c","batchId":"12"}`,
		`{"writes":[{"update":{"name":"users/u1"},"updateMask":{"fieldPaths":["ui.theme","` + "`odd name`" + `"]}}]}`,
		`{"writes":[{"delete":"users/u1/history/h0","currentDocument":{"updateTime":"2026-11-23T12:00:00.000001Z"}}],"batchId":7}`,
		`{"writes":[{"update":{"name":"users/u1/d/a","fields":{"a":{"arrayValue":{"values":[{"mapValue":{"fields":{"b":{"bytesValue":"AP8="}}}},{"geoPointValue":{"latitude":1,"longitude":2}}]}}}}}]}`,
		`{"writes":[{"update":{"name":"users/u1/d/a","fields":{"s":{"stringValue":"\ud83d\ude00\n\"x\""}}}}]}`,
		`{"writes":[],"writes":[]}`,
		`{"writes":[{"update":{"name":"users/u1/d/a","fields":{"a":{"nullValue":null},}}}]}`,
		`{"writes":[1,2,3]}`,
		`[{"writes":[]}]`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := parseAlloc(raw, testMaxWrites)
		if err != nil && !errors.Is(err, status.ErrInvalidArgument) {
			t.Fatalf("error without invalid-argument: %v", err)
		}
		if bound := maxParseAllocPerByte*uint64(len(raw)) + parseAllocSlack; got > bound {
			t.Fatalf("%d bytes of input allocated %d bytes, more than %d", len(raw), got, bound)
		}
	})
}
