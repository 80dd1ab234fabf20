package analytics

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"

	"handy/internal/site"
)

// pageRollup reads the range of the pages' rollup once (56 rows a day) and sums it three ways
// here: each day's views, the pages and the locales. Three GROUP BYs cost SQLite three scans
// and three sorts of the same rows.
func (r *Reporter) pageRollup(ctx context.Context, rep *Report, index map[string]int) error {
	rows, err := r.st.Query(ctx, "SELECT day, page, locale, views FROM analytics_pages WHERE day >= ? AND day <= ?", rep.From, rep.To)
	if err != nil {
		return fmt.Errorf("analytics: report pages: %w", err)
	}
	defer rows.Close()
	type pageKey struct{ page, locale string }
	byPage := make(map[pageKey]int64)
	byLocale := make(map[string]int64)
	for rows.Next() {
		var d string
		var k pageKey
		var n int64
		if err := rows.Scan(&d, &k.page, &k.locale, &n); err != nil {
			return fmt.Errorf("analytics: report pages: %w", err)
		}
		rep.Days[index[d]].Views += n
		byPage[k] += n
		byLocale[k.locale] += n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("analytics: report pages: %w", err)
	}
	pages := make(map[string]site.Page)
	for _, p := range r.table.Pages() {
		pages[p.Name] = p
	}
	rep.Pages = []PageCount{}
	for k, n := range byPage {
		if n > 0 { // a pair whose views were all deleted from analytics_views is left at 0
			rep.Pages = append(rep.Pages, PageCount{Path: r.path(pages, k.page, k.locale), Page: k.page, Locale: k.locale, Views: n})
		}
	}
	// Pages and locales are checked against the site table when counted, so there are at most
	// pages × locales of them: every one is listed, up to TopLimit.
	slices.SortFunc(rep.Pages, func(a, b PageCount) int { return cmp.Or(cmp.Compare(b.Views, a.Views), cmp.Compare(a.Path, b.Path)) })
	rep.Pages = rep.Pages[:min(len(rep.Pages), TopLimit)]
	rep.Locales = topOf(byLocale)
	return nil
}

// topOf is a top list of sums: by views, then by name in byte order (as top orders it in SQL),
// without the zeros, at most TopLimit.
func topOf(sums map[string]int64) []Count {
	out := []Count{}
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		if n := sums[name]; n > 0 && name != "" {
			out = append(out, Count{Name: name, Views: n})
		}
	}
	slices.SortStableFunc(out, func(a, b Count) int { return cmp.Compare(b.Views, a.Views) })
	return out[:min(len(out), TopLimit)]
}
