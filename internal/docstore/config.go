package docstore

import (
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
