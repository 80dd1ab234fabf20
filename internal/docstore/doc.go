// Package docstore is Handy Tools' document store: documents at slash paths
// (users/{uid}/history/{id}) holding values in Firestore's REST v1 encoding.
//
// This package is the pure core: values and their exact JSON round trip,
// Firestore's cross-type order and an order-preserving key encoding for SQL
// indexes, paths and field paths, validation, and queries with an in-memory
// reference evaluator. Storage, commit, listen and the HTTP API build on it
// elsewhere, so nothing here does I/O.
package docstore
