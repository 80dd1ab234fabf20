// Package docstore is Handy Tools' document store engine: documents at slash paths
// (users/{uid}/history/{id}) kept in SQL (internal/store, SQLite or PostgreSQL), committed in
// atomic batches exactly once, queried over single-field index rows, and listened to.
//
// What the store means lives in pure packages below it, which import no database and no
// network: value (values and their Firestore REST v1 JSON, cross-type order, the
// order-preserving key encoding, document and field paths, Doc), query (Parse, Validate, and
// Run, the in-memory reference evaluator that is the executable specification of a query) and
// status (the error codes the server maps to statuses). This package is how it runs.
//
// A commit flows through these files, in this order:
//
//	commit.go        Commit: CommitRequest checked (prepare) and queued; CommitResult and its JSON
//	commit_parse.go  ParseCommitRequest: the HTTP body to a CommitRequest
//	committer.go     the group-commit pipeline: one goroutine takes queued batches into one
//	                 transaction (commitGroup, applyGroup), answers each, then wakes listeners
//	fairqueue.go     the committer's queue: a FIFO per caller, groups taken in turn by caller
//	cost.go          what a write costs (units for the rate, a commit, a group), the index-entry
//	                 limit, and a document's stored size
//	groupreads.go    groupReads: a group's reads fetched at once (prefetch), each batch's result
//	                 kept (write), and the documents written once at the end (flushDocs)
//	apply.go         applyBatch and docState: one batch's writes and preconditions on the
//	                 documents as the batches before left them
//	exactlyonce.go   a numbered batch is applied once; a resend gets the first answer back
//	ratelimit.go     the per-user write-rate token buckets, charged in cost units
//	quota.go         the per-user storage quota: doc_usage, kept by every commit
//	indexrows.go     the single-field index rows of a document, and their INSERT
//	prune.go         capped collections' oldest entries (Config.Capped), old tombstones hourly
//	hub.go           wake-ups of this instance's listens, and pg_notify for the other instances
//
// and the rest: store.go (Store, New, Get, Export and ExportEach, DeleteOwner), restored.go
// (MarkRestored: a restored database's versions moved past the old server's), config.go
// (Config: the application's limits and its schema, Check, which prepare and apply.go ask about
// every document a commit would leave), listen.go (Listen and ListenTo: long polls over docs
// rows by version), sqlquery.go with sqlquery_plan.go and sqlquery_filters.go (QueryEach as one
// SQL statement over doc_index, checked against query.Run by a seeded random test on both
// engines), readslots.go (the reads that hand documents on one at a time, bounded per user and
// in total: each holds a connection), sqlin.go (IN lists read in chunks), and metrics.go (commits,
// refusals, the queue and the listens, counted always and exported through WithMetrics).
package docstore
