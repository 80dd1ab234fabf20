package docstore

import (
	"context"
	"slices"
	"testing"

	"handy/internal/docstore/value"
)

// testWriteRate lets tests fill collections without waiting for the
// per-user write rate.
func testWriteRate() Option { return WithWriteRate(1e9, testMaxWrites) }

// replaceDocs commits docs, and deletes the documents of old that docs does
// not have, so that the store holds exactly docs (old is what it held).
func replaceDocs(tb testing.TB, s *Store, old, docs []value.Doc) {
	tb.Helper()
	var writes []Write
	for _, d := range old {
		if !slices.ContainsFunc(docs, func(n value.Doc) bool { return n.Path.Equal(d.Path) }) {
			writes = append(writes, Write{Path: d.Path, Delete: true})
		}
	}
	for _, d := range docs {
		writes = append(writes, Write{Path: d.Path, Fields: d.Fields})
	}
	commitWrites(tb, s, writes)
}

// commitWrites commits writes, grouped by owner (the caller each needs) in
// batches of at most testMaxWrites.
func commitWrites(tb testing.TB, s *Store, writes []Write) {
	tb.Helper()
	byOwner := map[string][]Write{}
	var owners []string
	for _, w := range writes {
		owner, _ := w.Path.Owner()
		if _, ok := byOwner[owner]; !ok {
			owners = append(owners, owner)
		}
		byOwner[owner] = append(byOwner[owner], w)
	}
	for _, owner := range owners {
		for batch := range slices.Chunk(byOwner[owner], testMaxWrites) {
			if _, err := s.Commit(context.Background(), owner, CommitRequest{Writes: batch}); err != nil {
				tb.Fatalf("commit for %s: %v", owner, err)
			}
		}
	}
}
