package docstore

import (
	"context"
	"fmt"
	"slices"
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
	s := openStore(b, st, WithWriteRate(0, testMaxWrites), WithStorageQuota(0))
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

// BenchmarkFairCommitter measures, on SQLite, another user's one-write commit while a heavy
// user (the write rate off: as many accounts would) keeps two commits of a 20,000-entry
// document queued at all times, each about 1,250 units. It reports the light commit's p50,
// p95 and worst latency; the fair committer bounds it by the group in progress.
// Run it with `go test ./internal/docstore/ -run '^$' -bench FairCommitter -benchtime 100x`.
func BenchmarkFairCommitter(b *testing.B) {
	st := storetest.Engines()[0].Open(b)
	s := openStore(b, st, WithWriteRate(0, 0), WithStorageQuota(0))
	ctx := context.Background()
	stop := make(chan struct{})
	done := make(chan struct{}, 2)
	for w := range 2 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				p := valuetest.MustPath(b, fmt.Sprintf("users/heavy/c/w%d-%d", w, i%4))
				if _, err := s.Commit(ctx, "heavy", CommitRequest{Writes: []Write{{Path: p, Fields: entriesDoc(20000)}}}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	var took []time.Duration
	i := 0
	for b.Loop() {
		i++
		start := time.Now()
		if _, err := s.Commit(ctx, "light", CommitRequest{Writes: []Write{put(fmt.Sprintf("users/light/d/%d", i), nil)}}); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	close(stop)
	<-done
	<-done
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1e3, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1e3, "p95-ms")
	b.ReportMetric(float64(took[len(took)-1].Microseconds())/1e3, "max-ms")
}
