package analytics

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"handy/internal/site"
	"handy/internal/store"
)

// Report limits.
const (
	// MaxReportDays bounds a report's range: the default retention keeps no more.
	MaxReportDays = 400
	// DefaultReportDays is the range of a report whose bounds are not given: today and the
	// 29 days before it.
	DefaultReportDays = 30
	// TopLimit bounds each top list of a report.
	TopLimit = 50
	// RealtimeMinutes is the window of a report's realtime visitors.
	RealtimeMinutes = 5
)

// ErrRange: a report's range is empty or longer than MaxReportDays.
var ErrRange = fmt.Errorf("analytics: a report covers 1 to %d days, from ≤ to", MaxReportDays)

// Report is what the rollups say of an inclusive range of UTC days.
type Report struct {
	From     string      `json:"from"` // 2026-11-01
	To       string      `json:"to"`
	Days     []DayCount  `json:"days"` // every day of the range, oldest first, zero days included
	Totals   Totals      `json:"totals"`
	Pages    []PageCount `json:"pages"`
	Locales  []Count     `json:"locales"`
	Langs    []Count     `json:"languages"` // the browser's language; "und" when unknown
	Refs     []Count     `json:"referrers"` // other sites only: a view without referrer is not listed
	Screens  []Count     `json:"screens"`
	Realtime Realtime    `json:"realtime"`
}

// DayCount is one day of a report.
type DayCount struct {
	Day      string `json:"day"`
	Views    int64  `json:"views"`
	Visitors int64  `json:"visitors"`
	Bots     int64  `json:"bots"`
}

// Totals sums a report's days. Visitors is the sum of each day's unique visitors: a visitor of
// two days counts twice (a visitor's key changes every day, by design).
type Totals struct {
	Views    int64 `json:"views"`
	Visitors int64 `json:"visitors"`
	Bots     int64 `json:"bots"`
	// BotShare is bots / (views + bots), 0 when both are 0.
	BotShare float64 `json:"botShare"`
}

// PageCount is a page in one locale, with its path as the site shows it ("/de/faq").
type PageCount struct {
	Path   string `json:"path"`
	Page   string `json:"page"`
	Locale string `json:"locale"`
	Views  int64  `json:"views"`
}

// Count is one entry of a top list.
type Count struct {
	Name  string `json:"name"`
	Views int64  `json:"views"`
}

// Realtime is the distinct visitors of the last minutes, across instances.
type Realtime struct {
	Minutes  int   `json:"minutes"`
	Visitors int64 `json:"visitors"`
}

// Reporter reads reports from the rollups. It needs no Ingester: `handy stats` reads the
// database of a running server directly.
type Reporter struct {
	st    *store.Store
	table *site.Table
	now   func() time.Time
}

// NewReporter returns a Reporter over st, whose page paths come from table; now is the clock
// of the realtime count (time.Now when nil).
func NewReporter(st *store.Store, table *site.Table, now func() time.Time) *Reporter {
	if now == nil {
		now = time.Now
	}
	return &Reporter{st: st, table: table, now: now}
}

// Today returns the current UTC day at midnight.
func (r *Reporter) Today() time.Time { return dayOf(r.now()).start() }

// Report reads the report of the UTC days from to to, both included (their time of day is
// ignored). It returns ErrRange for a range that is empty or longer than MaxReportDays.
func (r *Reporter) Report(ctx context.Context, from, to time.Time) (*Report, error) {
	first, last := dayOf(from), dayOf(to)
	if first > last || last-first >= MaxReportDays {
		return nil, ErrRange
	}
	rep := &Report{From: first.String(), To: last.String()}
	lo, hi := rep.From, rep.To
	index := rep.initDays(first, last)
	if err := r.pageRollup(ctx, rep, index); err != nil {
		return nil, err
	}
	if err := r.days(ctx, rep, index); err != nil {
		return nil, err
	}
	var err error
	for _, l := range []struct {
		column string
		dst    *[]Count
	}{{"lang", &rep.Langs}, {"referrer", &rep.Refs}, {"screen", &rep.Screens}} {
		if *l.dst, err = r.top(ctx, l.column, lo, hi); err != nil {
			return nil, err
		}
	}
	n, err := recentVisitors(ctx, r.st, r.now(), RealtimeMinutes)
	if err != nil {
		return nil, err
	}
	rep.Realtime = Realtime{Minutes: RealtimeMinutes, Visitors: n}
	return rep, nil
}

// initDays fills the daily series with every day of the range, at zero, and returns each day's
// index in it.
func (rep *Report) initDays(first, last day) map[string]int {
	rep.Days = make([]DayCount, 0, last-first+1)
	index := make(map[string]int, last-first+1)
	for d := first; d <= last; d++ {
		index[d.String()] = len(rep.Days)
		rep.Days = append(rep.Days, DayCount{Day: d.String()})
	}
	return index
}

// days adds the visitors and bots to the daily series, one range of the days table on its
// primary key, and sums the totals.
func (r *Reporter) days(ctx context.Context, rep *Report, index map[string]int) error {
	rows, err := r.st.Query(ctx, "SELECT day, visitors, bots FROM analytics_days WHERE day >= ? AND day <= ?", rep.From, rep.To)
	if err != nil {
		return fmt.Errorf("analytics: report visitors by day: %w", err)
	}
	if err := scanDays(rows, func(d string, n []int64) { rep.Days[index[d]].Visitors, rep.Days[index[d]].Bots = n[0], n[1] }, 2); err != nil {
		return fmt.Errorf("analytics: report visitors by day: %w", err)
	}
	t := &rep.Totals
	for _, d := range rep.Days {
		t.Views += d.Views
		t.Visitors += d.Visitors
		t.Bots += d.Bots
	}
	if t.Views+t.Bots > 0 {
		t.BotShare = float64(t.Bots) / float64(t.Views+t.Bots)
	}
	return nil
}

// scanDays reads rows of a day and n counts into set.
func scanDays(rows *sql.Rows, set func(day string, counts []int64), n int) error {
	defer rows.Close()
	counts := make([]int64, n)
	dest := []any{new(string)}
	for i := range counts {
		dest = append(dest, &counts[i])
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		set(*dest[0].(*string), counts)
	}
	return rows.Err()
}

// path is the page's path in locale as the site shows it; a page or locale that the site no
// longer has (counted by an older release) shows as "{page}___{locale}", its route name.
func (r *Reporter) path(pages map[string]site.Page, page, locale string) string {
	p, okPage := pages[page]
	loc, okLoc := r.table.Locale(locale)
	if !okPage || !okLoc {
		return page + "___" + locale
	}
	return r.table.Path(p, loc)
}

// top is column's top list, read from the rollup that has it (dimensions.go), by views then by
// name in byte order on both engines (PostgreSQL's database collation may differ from SQLite's,
// so the order is named); a name left at 0 is not listed.
func (r *Reporter) top(ctx context.Context, column, lo, hi string) ([]Count, error) {
	collate := ""
	if r.st.Engine() == store.Postgres {
		collate = ` COLLATE "C"`
	}
	// column is one of the caller's constants, never input.
	query := "SELECT " + column + ", SUM(views) AS n FROM " + rollupOf(column) + " WHERE day >= ? AND day <= ? AND " + column + " <> ''" +
		" GROUP BY " + column + " HAVING SUM(views) > 0 ORDER BY n DESC, " + column + collate + " LIMIT ?"
	rows, err := r.st.Query(ctx, query, lo, hi, TopLimit)
	if err != nil {
		return nil, fmt.Errorf("analytics: report %s: %w", column, err)
	}
	defer rows.Close()
	out := []Count{}
	for rows.Next() {
		var c Count
		if err := rows.Scan(&c.Name, &c.Views); err != nil {
			return nil, fmt.Errorf("analytics: report %s: %w", column, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("analytics: report %s: %w", column, err)
	}
	return out, nil
}

// RangeError is a report range refused: Param names the parameter at fault ("from", "to"), and
// Message, which is public, says what it must be.
type RangeError struct {
	Param   string
	Message string
}

func (e *RangeError) Error() string { return "analytics: " + e.Message }

// ParseRange reads a report's range from its two dates written YYYY-MM-DD, either of which may
// be empty: to defaults to today, from to the DefaultReportDays ending at to. from must not be
// after to, and the range spans at most MaxReportDays days.
func ParseRange(fromParam, toParam string, today time.Time) (from, to time.Time, err error) {
	to = dayOf(today).start()
	if toParam != "" {
		if to, err = time.Parse(time.DateOnly, toParam); err != nil {
			return from, to, &RangeError{"to", `"to" must be a date written YYYY-MM-DD.`}
		}
	}
	from = to.AddDate(0, 0, -(DefaultReportDays - 1))
	if fromParam != "" {
		if from, err = time.Parse(time.DateOnly, fromParam); err != nil {
			return from, to, &RangeError{"from", `"from" must be a date written YYYY-MM-DD.`}
		}
	}
	switch {
	case from.After(to):
		return from, to, &RangeError{"from", `"from" must not be after "to".`}
	case dayOf(to)-dayOf(from) >= MaxReportDays:
		return from, to, &RangeError{"from", fmt.Sprintf(`The range from "from" to "to" must span at most %d days.`, MaxReportDays)}
	}
	return from, to, nil
}
