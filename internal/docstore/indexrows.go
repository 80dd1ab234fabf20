package docstore

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"handy/internal/docstore/value"
	"handy/internal/store"
)

// IndexRow is one row of the doc_index table: a single-field index entry of a
// live document, as Firestore keeps one automatically for every field.
type IndexRow struct {
	Parent string // the document's collection: users/u1/history
	Field  string // FieldPath.String(), the same plus elementsSuffix, or "__name__"
	Key    []byte // AppendKey of the value, or PathKey of the path
	Path   string // the document: users/u1/history/h1
}

// elementsSuffix marks the rows of an array's elements ("tags[]"), which
// ARRAY_CONTAINS and ARRAY_CONTAINS_ANY look up. Field names cannot hold
// '[' or ']', so no field path's String() ends this way.
const elementsSuffix = "[]"

// MaxIndexEntryBytes bounds one index row's field path and key together.
// A value whose entry would be longer is not indexed under that field path:
// filters and orderings on that exact path do not see the document, as a
// Firestore field exempted from indexing. Its leaves (a long map's fields, a
// long array's elements) are indexed each on its own merits. The bound keeps
// every doc_index row (with a path of at most MaxStoredPathBytes, twice, for
// parent and path) within PostgreSQL's B-tree entry limit of about 2.7 KB,
// and keeps the index of a large document proportionate.
const MaxIndexEntryBytes = 1024

// indexRows returns the doc_index rows of the document at p with fields f,
// sorted by field then key. They are:
//
//   - one "__name__" row whose key is value.PathKey(p), so that ORDER BY key is
//     Firestore's name order;
//   - one row for every field path reachable through maps, with the value
//     there: a map is indexed as a whole (equality, ordering and ranges on
//     the map, which Run compares with Compare) and each of its fields is
//     indexed too, recursively (a.b, a.b.c), since Run reaches fields through
//     maps only, never into arrays;
//   - for an array value, one row per distinct element (by key, so 1 and 1.0
//     are one row) under the field path plus elementsSuffix; an element that
//     is a map gets its row as a whole, not rows for its fields.
//
// Rows longer than MaxIndexEntryBytes are left out (see there).
func indexRows(p value.Path, f value.Fields) []IndexRow {
	parent, path := p.Parent().String(), p.String()
	rows := []IndexRow{{Parent: parent, Field: value.NameField, Key: value.PathKey(p), Path: path}}
	add := func(field string, key []byte) {
		if len(field)+len(key) <= MaxIndexEntryBytes {
			rows = append(rows, IndexRow{Parent: parent, Field: field, Key: key, Path: path})
		}
	}
	var walk func(fp value.FieldPath, v value.Value)
	walk = func(fp value.FieldPath, v value.Value) {
		field := fp.String()
		add(field, value.AppendKey(nil, v))
		switch v.Kind {
		case value.Array:
			keys := make([][]byte, len(v.Array))
			for i, e := range v.Array {
				keys[i] = value.AppendKey(nil, e)
			}
			slices.SortFunc(keys, bytes.Compare)
			for _, k := range slices.CompactFunc(keys, bytes.Equal) {
				add(field+elementsSuffix, k)
			}
		case value.Map:
			for _, name := range slices.Sorted(maps.Keys(v.Map)) {
				// A fresh slice per child: fp's backing array is shared by siblings.
				walk(append(fp[:len(fp):len(fp)], name), v.Map[name])
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(f)) {
		walk(value.FieldPath{name}, f[name])
	}
	slices.SortFunc(rows, func(a, b IndexRow) int {
		return cmp.Or(cmp.Compare(a.Field, b.Field), bytes.Compare(a.Key, b.Key))
	})
	return rows
}

// indexInsertRows bounds one INSERT's rows (4 parameters each), well under both engines'
// limits on parameters.
const indexInsertRows = 250

func insertIndexRows(ctx context.Context, tx *store.Tx, rows []IndexRow) error {
	for len(rows) > 0 {
		part := rows[:min(len(rows), indexInsertRows)]
		rows = rows[len(part):]
		q := "INSERT INTO doc_index (parent, field, key, path) VALUES " + strings.Repeat("(?, ?, ?, ?), ", len(part)-1) + "(?, ?, ?, ?)"
		args := make([]any, 0, 4*len(part))
		for _, r := range part {
			args = append(args, r.Parent, r.Field, r.Key, r.Path)
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("index documents: %w", err)
		}
	}
	return nil
}
