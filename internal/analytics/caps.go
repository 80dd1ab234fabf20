package analytics

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"handy/internal/store"
)

// Other is what a view's referrer or browser language is counted as when the day already has
// as many distinct ones as its cap allows: neither a host name nor a language tag, so no
// beacon can send it, and the reports list it as one more name.
const Other = "(other)"

// langsPerDay caps the distinct browser languages of a day. Validation keeps a language to
// language[-Script][-REGION] of a known language, which is still hundreds of thousands of
// combinations; a site sees a few dozen to a couple of hundred in a day.
const langsPerDay = 500

// valueCap bounds how many distinct values of one column of analytics_views get rows of their
// own in a day: an attacker's host-shaped referrers (or rare language tags) would otherwise
// each add rows to analytics_views and to the column's rollup, and reach the reports' top
// lists. The first limit values of a day keep theirs; a value new that day past the cap is
// counted as Other. Pages, locales and screens need no cap: validation keeps them to the
// site's table and three classes.
type valueCap struct {
	column string // of analytics_views and of its rollup (dimensions.go)
	limit  int
	none   string // the column's value for "none" ("" referrer, "und" language): never capped
	field  func(*view) *string
}

func defaultCaps() []valueCap {
	return []valueCap{
		{column: "referrer", limit: DefaultReferrersPerDay, none: "", field: func(v *view) *string { return &v.referrer }},
		{column: "lang", limit: langsPerDay, none: "und", field: func(v *view) *string { return &v.lang }},
	}
}

// capKey is one value of a capped column on one day.
type capKey struct {
	day   day
	value string
}

// apply returns views with the values past the day's cap counted as Other. It reads which of
// the batch's values the column's rollup has already, and how many distinct ones the day has,
// in tx: the caller holds the rollups' lock (lockRollups on PostgreSQL; SQLite's write lock),
// so no other writer, on this instance or another, adds a value between this reading and the
// commit, and the cap holds across instances.
func (c valueCap) apply(ctx context.Context, tx *store.Tx, views map[viewRow]int64) (map[viewRow]int64, error) {
	batch := make(map[capKey]int64)
	for row, n := range views {
		if v := *c.field(&row.view); v != c.none && v != Other {
			batch[capKey{row.day, v}] += n
		}
	}
	if len(batch) == 0 {
		return views, nil
	}
	byDay := make(map[day][]string)
	for k := range batch {
		byDay[k.day] = append(byDay[k.day], k.value)
	}
	over := make(map[capKey]bool)
	for _, d := range slices.Sorted(maps.Keys(byDay)) {
		fresh, held, err := c.read(ctx, tx, d, byDay[d])
		if err != nil {
			return nil, fmt.Errorf("cap the %ss of %s: %w", c.column, d, err)
		}
		// The batch's most viewed new values take the room left, then by name: every instance
		// decides the same way.
		slices.SortFunc(fresh, func(a, b string) int {
			return cmp.Or(cmp.Compare(batch[capKey{d, b}], batch[capKey{d, a}]), cmp.Compare(a, b))
		})
		for _, v := range fresh[min(max(c.limit-held, 0), len(fresh)):] {
			over[capKey{d, v}] = true
		}
	}
	if len(over) == 0 {
		return views, nil
	}
	out := make(map[viewRow]int64, len(views))
	for row, n := range views {
		if f := c.field(&row.view); over[capKey{row.day, *f}] {
			*f = Other
		}
		out[row] += n
	}
	return out, nil
}

// read returns which of values the day has no row for yet in the column's rollup, and how many
// capped values (neither none nor Other) the day has rows for.
func (c valueCap) read(ctx context.Context, tx *store.Tx, d day, values []string) (fresh []string, held int, err error) {
	table := rollupOf(c.column) // column is one of defaultCaps' constants, never input
	if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM "+table+" WHERE day = ? AND "+c.column+" <> ? AND "+c.column+" <> ?",
		d.String(), c.none, Other).Scan(&held); err != nil {
		return nil, 0, err
	}
	known := make(map[string]bool)
	for chunk := range slices.Chunk(values, rowsPerStatement) {
		args := make([]any, 0, 1+len(chunk))
		args = append(args, d.String())
		for _, v := range chunk {
			args = append(args, v)
		}
		rows, err := tx.Query(ctx, "SELECT "+c.column+" FROM "+table+" WHERE day = ? AND "+c.column+" IN "+placeholders(1, len(chunk)), args...)
		if err != nil {
			return nil, 0, err
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return nil, 0, err
			}
			known[v] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, 0, err
		}
	}
	for _, v := range values {
		if !known[v] {
			fresh = append(fresh, v)
		}
	}
	return fresh, held, nil
}
