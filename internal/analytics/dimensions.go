package analytics

import "slices"

// dimension is one per-dimension daily rollup of migration 0007: analytics_views summed over
// every column but the day and key, kept so by the database's triggers. The reports read these,
// a few dozen to a few hundred rows a day, instead of the thousands of analytics_views
// (docs/decisions.md).
type dimension struct {
	table string
	key   []string // the columns after day
}

var dimensions = []dimension{
	{"analytics_pages", []string{"page", "locale"}},
	{"analytics_langs", []string{"lang"}},
	{"analytics_referrers", []string{"referrer"}},
	{"analytics_screens", []string{"screen"}},
}

// rollupOf returns the table of the per-dimension rollup whose key has column: where a
// report's top list of column is read.
func rollupOf(column string) string {
	for _, d := range dimensions {
		if slices.Contains(d.key, column) {
			return d.table
		}
	}
	panic("analytics: no rollup has the column " + column)
}
