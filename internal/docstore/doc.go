// Package docstore is Handy Tools' document store: documents at slash paths
// (users/{uid}/history/{id}) holding values in Firestore's REST v1 encoding.
//
// The pure core is values and their exact JSON round trip, Firestore's
// cross-type order and an order-preserving key encoding for SQL indexes,
// paths and field paths, validation, and queries with an in-memory reference
// evaluator (Run). Store keeps documents in SQL (internal/store, SQLite or
// PostgreSQL): Get, Commit (atomic batches, exactly once, group commit), the
// limits, and single-field index rows (indexRows) over which Query runs.
package docstore
