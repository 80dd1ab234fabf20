package docstore

import (
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The commit parse's memory: the bytes it allocates per byte of body, for the bodies that cost
// it most. The server holds a body and its parse within the body budget, which counts body
// bytes: docs/operations.md gives the memory a deployment needs from maxParseAllocPerByte.

// maxParseAllocPerByte bounds the bytes a commit's parse allocates per byte of its body (plus
// parseAllocSlack), with headroom over the worst kind measured (docs/decisions.md).
const (
	maxParseAllocPerByte = 24
	parseAllocSlack      = 64 << 10
)

// parseAllocBodies are the worst cases, each about size bytes: one big document (a string, and
// bytes), many small writes, a long array of the smallest values, a map of many small fields,
// and values nested as deep as allowed.
func parseAllocBodies(size int) map[string][]byte {
	doc := func(fields string) string {
		return `{"update":{"name":"users/u1/history/h1","fields":{` + fields + `}}}`
	}
	commit := func(ws ...string) []byte {
		return []byte(`{"writes":[` + strings.Join(ws, ",") + `],"clientId":"c","batchId":"1"}`)
	}
	repeat := func(item string, n int) string { return strings.TrimSuffix(strings.Repeat(item+",", n), ",") }

	small := doc(`"tool":{"stringValue":"area"},"at":{"timestampValue":"2026-11-23T12:00:00Z"},"title":{"stringValue":"12 m²"}`)
	var ws []string
	for n := 0; n < size; n += len(small) + 1 {
		ws = append(ws, small)
	}
	deep := `{"nullValue":null}`
	for range 9 { // a map and an array each: 19 levels of MaxDepth's 20
		deep = `{"mapValue":{"fields":{"a":{"arrayValue":{"values":[` + deep + `]}}}}}`
	}
	deepDoc := doc(`"d":` + deep)
	chain := `{"nullValue":null}`
	for range 19 {
		chain = `{"mapValue":{"fields":{"a":` + chain + `}}}`
	}
	var chains []string
	for n := 0; n < size; n += len(chain) + 8 {
		chains = append(chains, fmt.Sprintf(`"c%d":%s`, len(chains), chain))
	}
	return map[string][]byte{
		"one big string":    commit(doc(`"s":{"stringValue":"` + strings.Repeat("x", size) + `"}`)),
		"one big bytes":     commit(doc(`"b":{"bytesValue":"` + base64.StdEncoding.EncodeToString(make([]byte, size/4*3)) + `"}`)),
		"many small writes": commit(ws...),
		"long array":        commit(doc(`"a":{"arrayValue":{"values":[` + repeat(`{"nullValue":null}`, size/19) + `]}}`)),
		"many fields":       commit(doc(repeatFields(size / 28))),
		"deep values":       commit(repeatN(deepDoc, size/len(deepDoc))...),
		"one-field maps":    commit(doc(strings.Join(chains, ","))),
	}
}

func repeatFields(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%d":{"nullValue":null}`, i)
	}
	return b.String()
}

func repeatN(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// parseAlloc returns the bytes parsing body allocates (successful or not).
func parseAlloc(body []byte, maxWrites int) (uint64, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := parseCommitRequest(body, maxWrites)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// TestParseCommitAllocations: for a 4 MiB body of each costly kind, the parse allocates at
// most maxParseAllocPerByte bytes per byte of body (the figures are logged: go test -v).
func TestParseCommitAllocations(t *testing.T) { // not parallel: it reads the process's allocations
	for name, body := range parseAllocBodies(4 << 20) {
		got, err := parseAlloc(body, 1<<30)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		perByte := float64(got) / float64(len(body))
		t.Logf("%-18s %8d bytes of body: %10d bytes allocated, %5.2f per byte", name, len(body), got, perByte)
		if got > maxParseAllocPerByte*uint64(len(body))+parseAllocSlack {
			t.Errorf("%s: %d bytes allocated for %d of body (%.1f per byte), more than %d per byte", name, got, len(body), perByte, maxParseAllocPerByte)
		}
	}
}
