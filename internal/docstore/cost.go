package docstore

import (
	"handy/internal/docstore/status"
)

// What a write costs. The write rate, the bound on one commit and the committer's groups count
// cost units, not writes: a write's unit covers a small document (a history entry: about 400
// bytes and a dozen index entries), and a large one pays for its size. BenchmarkCommitCost on
// SQLite (two busy cores) measured a history entry at 160 µs of the committer's time, an index
// entry at 10.5 µs and a KiB of document at 25–33 µs, so that 16 index entries or 4 KiB cost
// about what a small write does; docs/decisions.md has the figures.
const (
	// MaxIndexEntries bounds one document's index entries (indexRows), Firestore's limit: a
	// write whose document would have more is refused as invalid-argument.
	MaxIndexEntries = 40_000
	// costEntriesPerUnit and costBytesPerUnit are what one further unit pays for, beyond the
	// write's own: a document costs 1 + entries/16 + bytes/4 KiB units (rounded down each).
	costEntriesPerUnit = 16
	costBytesPerUnit   = 4 << 10
	// MaxCommitCost bounds one commit's cost, so that the costliest commit holds the committer
	// for about half a second on SQLite (3,000 × 160 µs): it lets a commit write the largest
	// document (1 MiB and 40,000 index entries: 2,757 units), or 500 small writes several times.
	MaxCommitCost = 3_000
)

// docCost is the cost of a write that leaves a document of bytes of fields and entries index
// entries (0, 0 for a delete).
func docCost(bytes, entries int) int {
	return 1 + entries/costEntriesPerUnit + bytes/costBytesPerUnit
}

// estimateCost is what a batch will cost as far as prepare can tell: a replace's exact cost, a
// merge's by its patch (the merged document is known only to the committer, which charges what
// it costs), a delete 1. The committer's groups are bounded with it.
func estimateCost(writes []prepared) int {
	n := 0
	for _, w := range writes {
		switch {
		case w.Delete:
			n++
		case w.Merge:
			n += docCost(w.patchBytes, 0)
		default:
			n += docCost(len(w.json), len(w.rows))
		}
	}
	return max(1, n)
}

// checkEntries refuses a document of more than MaxIndexEntries index entries; prepare and
// apply prefix the write's index.
func checkEntries(path string, entries int) error {
	if entries > MaxIndexEntries {
		return status.Invalidf("document %q would have %d index entries, more than %d (one per field, map field and distinct array element): make it smaller or split it",
			path, entries, MaxIndexEntries)
	}
	return nil
}

// checkCommitCost refuses a batch that costs more than MaxCommitCost units.
func checkCommitCost(units int) error {
	if units > MaxCommitCost {
		return status.Invalidf("the commit costs %d units, more than %d (1 per write, 1 per %d index entries and 1 per %d KiB of each document it leaves): split it into several commits",
			units, MaxCommitCost, costEntriesPerUnit, costBytesPerUnit>>10)
	}
	return nil
}

// storedSize is what a live document takes in the database, as the storage quota counts it:
// its path and fields' JSON in docs, and each of its index rows (parent, field, key, path) in
// doc_index. Migration 0008 computes the same for the documents stored before it.
func storedSize(path string, raw []byte, rows []IndexRow) int64 {
	n := int64(len(path) + len(raw))
	for _, r := range rows {
		n += int64(len(r.Parent) + len(r.Field) + len(r.Key) + len(r.Path))
	}
	return n
}
