package docstore

import (
	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// Config is what a Store is told about the application it serves: limits that belong to the
// application's data, not to the store. cmd/handy fills it from internal/site's table
// (limits.maxWritesPerCommit, history), which the front end reads too.
type Config struct {
	// MaxWrites bounds the writes of one commit (Firestore's limit is 500). A client that was
	// offline sends what it queued in batches of at most this many.
	MaxWrites int
	// Capped lists the collections that keep only their newest documents.
	Capped []Capped
	// Check, when set, is the application's schema: it is asked about every document a
	// commit would leave (a replace's fields; for a merge, the document after the merge, not
	// only the patch), and a non-nil error refuses the whole batch as invalid-argument, its
	// message prefixed with the write's index. The store does not know which documents the
	// application reads (users/{uid}, its history entries): that is the application's to say,
	// as the history's cap is. Deletes are not checked. Check must be pure and quick: for a
	// merge it runs on the committer goroutine. Its message is shown to the client.
	Check func(path value.Path, fields value.Fields) error
}

// Capped is a per-user collection, users/{uid}/{Collection}, that keeps at most Max live
// documents: a commit that takes it past Max turns the oldest (by createTime) into
// tombstones in the same transaction, so that a listen hears of them as deletions.
type Capped struct {
	Collection string // the collection id under users/{uid}, e.g. "history"
	Max        int
}

// capOf returns the cap of the collection at parent, a collection path, and whether it has one.
func (c Config) capOf(parent string) (int, bool) {
	p, err := value.ParseCollectionPath(parent)
	if err != nil || p.Len() != 3 || p.Segment(0) != "users" {
		return 0, false
	}
	for _, cc := range c.Capped {
		if p.Segment(2) == cc.Collection {
			return cc.Max, true
		}
	}
	return 0, false
}

// checkDoc applies Config.Check to the document that write i would leave.
func (c Config) checkDoc(i int, p value.Path, f value.Fields) error {
	if c.Check == nil {
		return nil
	}
	if err := c.Check(p, f); err != nil {
		return status.Invalidf("write %d: %s", i, err.Error())
	}
	return nil
}
