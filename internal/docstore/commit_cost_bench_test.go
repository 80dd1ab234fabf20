package docstore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/store/storetest"
)

// BenchmarkCommitCost measures what a commit costs the committer on SQLite, the figures the
// cost units (cost.go) and the commit's bound (MaxCommitIndexEntries) are chosen from: a batch
// of small history entries (per write), one document of N index entries (an array of N
// distinct numbers), and documents of B bytes of an unindexed string. It reports ms per commit,
// and µs per write, per index entry or per KiB. Run it with
// `go test ./internal/docstore/ -run '^$' -bench CommitCost -benchtime 5x`.
func BenchmarkCommitCost(b *testing.B) {
	e := storetest.Engines()[0]
	st := e.Open(b)
	s := openStore(b, st, WithWriteRate(0, testMaxWrites))
	ctx := context.Background()
	n := 0
	path := func() value.Path {
		n++
		return valuetest.MustPath(b, fmt.Sprintf("users/u1/c/d%07d", n))
	}
	run := func(b *testing.B, unit string, per float64, writes func() []Write) {
		var total time.Duration
		k := 0
		for b.Loop() {
			w := writes()
			start := time.Now()
			if _, err := s.Commit(ctx, "u1", CommitRequest{Writes: w}); err != nil {
				b.Fatal(err)
			}
			total += time.Since(start)
			k++
		}
		ms := float64(total.Microseconds()) / float64(k) / 1e3
		b.ReportMetric(ms, "ms/commit")
		b.ReportMetric(ms*1e3/per, "µs/"+unit)
	}
	b.Run("small-writes-500", func(b *testing.B) {
		run(b, "write", 500, func() []Write {
			var w []Write
			for _, d := range historyEntries(500) {
				w = append(w, Write{Path: path(), Fields: d.Fields})
			}
			return w
		})
	})
	for _, entries := range []int{1000, 10000, 40000} {
		b.Run(fmt.Sprintf("index-entries-%d", entries), func(b *testing.B) {
			run(b, "entry", float64(entries), func() []Write {
				arr := make([]value.Value, entries-2) // + the array's own row (too long: left out) + __name__
				for i := range arr {
					arr[i] = valuetest.Int(int64(i))
				}
				return []Write{{Path: path(), Fields: value.Fields{"a": {Kind: value.Array, Array: arr}, "x": valuetest.Int(1)}}}
			})
		})
	}
	for _, kib := range []int{64, 1000} {
		b.Run(fmt.Sprintf("bytes-%dKiB", kib), func(b *testing.B) {
			run(b, "KiB", float64(kib), func() []Write {
				return []Write{{Path: path(), Fields: value.Fields{"s": valuetest.Str(strings.Repeat("x", kib<<10-100))}}}
			})
		})
	}
}
