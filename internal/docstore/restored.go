package docstore

import (
	"context"
	"fmt"

	"handy/internal/store"
)

// RestoreJump is how far MarkRestored moves the versions forward: far more commits than a
// server makes between a backup and its restore, so that no version the old server handed out
// after the backup is handed out again. Browsers read versions as JavaScript Numbers, exact up
// to 2^53: 8192 restores' worth of jumps.
const RestoreJump = 1 << 40

// MarkRestored moves the timeline of a restored database (the one tx writes to) past
// everything the server it was copied from may have handed out after the copy: the clock and
// every document's version (tombstones included) go up by RestoreJump, and every owner's
// horizon (doc_pruned: each user, each owner of documents) becomes the new clock. A browser
// that listened to the old server then listens from below its horizon and gets a reset (the
// live documents, each newer than any version it holds, so that it takes them all and drops
// the rest: the documents the restore lost), while versions handed out afterwards are new to
// it. Nothing of the API changes: it is the reset that pruned tombstones already cause.
// Running it twice only jumps again. It returns the version the next commit follows.
func MarkRestored(ctx context.Context, tx *store.Tx) (int64, error) {
	var clock int64
	// First, as a commit would: the clock's row lock holds commits off until tx ends.
	if err := tx.QueryRow(ctx, "UPDATE doc_clock SET version = version + ? WHERE id = 1 RETURNING version", RestoreJump).Scan(&clock); err != nil {
		return 0, fmt.Errorf("docstore: mark restored: move the clock: %w", err)
	}
	for _, q := range []struct {
		what, sql string
		arg       int64
	}{
		{"move the documents' versions", "UPDATE docs SET version = version + ?", RestoreJump},
		{"raise the horizons", "UPDATE doc_pruned SET version = ?", clock},
		{"set the users' horizons", `INSERT INTO doc_pruned (owner, version) SELECT id, CAST(? AS BIGINT) FROM users
			WHERE NOT EXISTS (SELECT 1 FROM doc_pruned p WHERE p.owner = users.id)`, clock},
		{"set the owners' horizons", `INSERT INTO doc_pruned (owner, version) SELECT DISTINCT owner, CAST(? AS BIGINT) FROM docs
			WHERE NOT EXISTS (SELECT 1 FROM doc_pruned p WHERE p.owner = docs.owner)`, clock},
	} {
		if _, err := tx.Exec(ctx, q.sql, q.arg); err != nil {
			return 0, fmt.Errorf("docstore: mark restored: %s: %w", q.what, err)
		}
	}
	return clock, nil
}
