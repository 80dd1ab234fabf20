package docstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"handy/internal/docstore/query"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/store/storetest"
)

// BenchmarkQueryHistory measures the history screen's query over one
// user's 10,000 entries: tool == X, orderBy createdAt desc, limit 50, for a
// tool used in 39 % of the entries (first page, and the next one: startAfter
// the first page's last entry, a cursor on createdAt and __name__) and for
// one used in 1 % (which the filter drives, see Store.chooseDriver). It
// reports the p50 and p95 latency of one query; the goal is p95 ≤ 5 ms on
// SQLite.
func BenchmarkQueryHistory(b *testing.B) {
	for _, e := range storetest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			st := e.Open(b)
			s := openStore(b, st, testWriteRate())
			replaceDocs(b, s, nil, historyEntries(10000))
			ctx := context.Background()
			first := historyQuery(b)
			page, err := s.Query(ctx, "u1", first)
			if err != nil || len(page) != 50 {
				b.Fatalf("first page: %d documents, %v", len(page), err)
			}
			last := page[len(page)-1]
			next := first
			next.StartAt = &query.Cursor{Values: []value.Value{last.Fields["createdAt"], valuetest.Str(last.Path.String())}}
			rare := historyQuery(b)
			rare.Where[0].Value = valuetest.Str("flip")
			for _, c := range []struct {
				name string
				q    query.Query
			}{{"first-page", first}, {"next-page", next}, {"rare-tool", rare}} {
				b.Run(c.name, func(b *testing.B) { benchmarkQuery(b, s, c.q) })
			}
		})
	}
}

// benchmarkQuery runs q repeatedly and reports its latency percentiles.
func benchmarkQuery(b *testing.B, s *Store, q query.Query) {
	ctx := context.Background()
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		docs, err := s.Query(ctx, "u1", q)
		took = append(took, time.Since(start))
		if err != nil || len(docs) == 0 {
			b.Fatalf("got %d documents, %v", len(docs), err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(percentile(took, 50), "p50-ms")
	b.ReportMetric(percentile(took, 95), "p95-ms")
}

func percentile(sorted []time.Duration, p int) float64 {
	i := min(len(sorted)-1, len(sorted)*p/100)
	return float64(sorted[i]) / float64(time.Millisecond)
}

// historyEntries returns n history entries of user u1 as the history
// feature writes them: the tool (area 60 %, speed 39 %, flip 1 %), when,
// the inputs and the result; ids are random like Firestore's auto-ids.
func historyEntries(n int) []value.Doc {
	r := rand.New(rand.NewPCG(1, 2))
	tool := func() string {
		switch n := r.IntN(100); {
		case n < 60:
			return "area"
		case n < 99:
			return "speed"
		}
		return "flip"
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := make([]value.Doc, n)
	for i := range docs {
		id := make([]byte, 20)
		for j := range id {
			id[j] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[r.IntN(62)]
		}
		p, err := value.ParseDocumentPath("users/u1/history/" + string(id))
		if err != nil {
			panic(err)
		}
		at := start.Add(time.Duration(i)*time.Hour + time.Duration(r.IntN(3600e6))*time.Microsecond)
		docs[i] = value.Doc{Path: p, Fields: value.Fields{
			"tool":      valuetest.Str(tool()),
			"createdAt": {Kind: value.Timestamp, Time: at},
			"input": valuetest.Map(value.Fields{
				"width":  valuetest.Dbl(r.Float64() * 100),
				"height": valuetest.Dbl(r.Float64() * 100),
				"unit":   valuetest.Str("cm"),
			}),
			"result": valuetest.Dbl(r.Float64() * 10000),
			"label":  valuetest.Str(fmt.Sprintf("entry %d", i)),
		}}
	}
	return docs
}

func mustParse(tb testing.TB, parse func(string) (value.Path, error), s string) value.Path {
	tb.Helper()
	p, err := parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
