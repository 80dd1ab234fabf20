package analytics

import (
	"bytes"
	"cmp"
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"handy/internal/store"
)

// reportEvery is how often the writer logs views refused or counted without their visitor,
// and repeats that writing fails: never once per view.
const reportEvery = time.Minute

// writeLoop is the writer: every flushEvery, or as soon as flushAt views wait, it writes what
// waits in one transaction, until Close; then it writes everything left and stops. A flush that
// fails keeps its views, and the next tick tries again.
func (in *Ingester) writeLoop() {
	defer close(in.written)
	t := time.NewTicker(in.flushEvery)
	defer t.Stop()
	var w writerState
	for {
		select {
		case <-t.C:
			w.report(in)
		case <-in.kick:
			if w.failing {
				continue // the next tick retries: a failing database is not hammered
			}
		case <-in.closing:
			in.drain(&w)
			w.report(in)
			return
		}
		for {
			empty, err := in.flushOnce(&w)
			if err != nil || empty || in.buf.waiting() < in.flushAt {
				break
			}
		}
	}
}

// writerState is what the writer remembers between flushes, for its logs.
type writerState struct {
	failing    bool
	lastFailed time.Time // when a failure was last logged
	lastReport time.Time
}

// drain writes everything buffered, retrying with a growing pause while the database fails,
// until Close's deadline cancels the writes.
func (in *Ingester) drain(w *writerState) {
	pause := 50 * time.Millisecond
	for {
		empty, err := in.flushOnce(w)
		if err == nil {
			if empty {
				return
			}
			continue
		}
		select {
		case <-in.writeCtx.Done():
			n := in.buf.pending()
			in.lost.Store(int64(n))
			in.logger.Error("analytics: page views lost at shutdown: the database did not take them in time",
				slog.Int("lost", n))
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Second)
	}
}

// flushOnce writes up to maxFlush waiting views and every bot count in one transaction. It
// reports whether there was nothing to write.
func (in *Ingester) flushOnce(w *writerState) (empty bool, err error) {
	b := in.buf.take(maxFlush)
	if b.empty() {
		in.buf.done(b, true)
		return true, nil
	}
	ctx, cancel := context.WithTimeout(in.writeCtx, flushTimeout)
	defer cancel()
	start := time.Now()
	err = in.st.InTx(ctx, func(tx *store.Tx) error { return in.write(ctx, tx, b) })
	in.metrics.flushed(start, err)
	in.buf.done(b, err == nil)
	now := time.Now()
	switch {
	case err != nil && !w.failing:
		w.failing, w.lastFailed = true, now
		in.logger.Warn("analytics: writing page views failed; they are kept and written again every second",
			slog.String("error", err.Error()), slog.Int("waiting", in.buf.pending()))
	case err != nil && now.Sub(w.lastFailed) >= reportEvery:
		w.lastFailed = now
		in.logger.Warn("analytics: writing page views still fails",
			slog.String("error", err.Error()), slog.Int("waiting", in.buf.pending()))
	case err == nil && w.failing:
		w.failing = false
		in.logger.Info("analytics: writing page views again")
	}
	if err != nil {
		return false, fmt.Errorf("analytics: flush: %w", err)
	}
	return false, nil
}

// report logs, at most every reportEvery, the views refused because the buffer was full and
// those counted without their visitor because the day's salt could not be read.
func (w *writerState) report(in *Ingester) {
	now := time.Now()
	if now.Sub(w.lastReport) < reportEvery {
		return
	}
	w.lastReport = now
	if n := in.buf.takeRefused(); n > 0 {
		in.logger.Warn("analytics: page views refused: the buffer was full", slog.Int64("refused", n),
			slog.Int("buffer", in.buf.capacity))
	}
	if n := in.budget.takeRefused(); n > 0 {
		in.logger.Warn("analytics: page views refused: over the per-visitor budget", slog.Int64("refused", n),
			slog.Int("views_per_minute", in.budget.perMinute), slog.Int("visitors", in.budget.capacity))
	}
	if n := in.unhashed.Swap(0); n > 0 {
		in.logger.Warn("analytics: page views counted without their visitor: the day's salt could not be read",
			slog.Int64("views", n))
	}
}

// rollup is a batch added up: what one transaction writes.
type rollup struct {
	views    map[viewRow]int64
	visitors []visitorRow // distinct, sorted
	recent   []recentRow  // distinct, sorted
	bots     map[day]int64
}

type viewRow struct {
	day  day
	view view
}

type visitorRow struct {
	day     day
	visitor visitor
}

type recentRow struct {
	minute  int64
	visitor visitor
}

// addUp sums the batch up. Visitors are deduplicated only for the days whose rows are kept (from
// oldest on): an older day's rows are gone with its salt, and counting its late views'
// visitors again would count them twice. Recent rows older than fromMinute are left out.
func addUp(b batch, oldest day, fromMinute int64) rollup {
	r := rollup{views: make(map[viewRow]int64), bots: b.bots}
	visitors := make(map[visitorRow]bool)
	recent := make(map[recentRow]bool)
	for _, e := range b.events {
		r.views[viewRow{e.day, e.view}]++
		if !e.hashed {
			continue
		}
		if e.day >= oldest {
			visitors[visitorRow{e.day, e.visitor}] = true
		}
		if e.minute >= fromMinute {
			recent[recentRow{e.minute, e.visitor}] = true
		}
	}
	// Every instance writes rows in the same order, so that two flushes on one PostgreSQL
	// wait for each other's row locks instead of deadlocking.
	r.visitors = slices.SortedFunc(maps.Keys(visitors), func(a, b visitorRow) int {
		return cmp.Or(cmp.Compare(a.day, b.day), bytes.Compare(a.visitor[:], b.visitor[:]))
	})
	r.recent = slices.SortedFunc(maps.Keys(recent), func(a, b recentRow) int {
		return cmp.Or(cmp.Compare(a.minute, b.minute), bytes.Compare(a.visitor[:], b.visitor[:]))
	})
	return r
}

// rowsPerStatement bounds a multi-row INSERT: 500 rows of 7 values stay far below both
// engines' limits on parameters (32,766 for SQLite, 65,535 for PostgreSQL).
const rowsPerStatement = 500

// write adds b to the rollups in tx: the views per day, page, locale, language, referrer and
// screen (and, by migration 0007's triggers, to the per-dimension rollups the reports read);
// the visitors not seen before today (a new analytics_visitors row) to the day's unique count;
// the bots; the visitors of the last minutes.
func (in *Ingester) write(ctx context.Context, tx *store.Tx, b batch) error {
	now := in.now()
	r := addUp(b, dayOf(now)-1, now.Unix()/60-recentMinutes)
	if err := lockRollups(ctx, tx, in.st.Engine()); err != nil {
		return err
	}
	// After the lock: the rows counted against each day's cap cannot change until this
	// transaction commits, on any instance.
	for _, c := range in.caps {
		var err error
		if r.views, err = c.apply(ctx, tx, r.views); err != nil {
			return err
		}
	}
	if err := writeViews(ctx, tx, r.views); err != nil {
		return err
	}
	newVisitors, err := writeVisitors(ctx, tx, r.visitors)
	if err != nil {
		return err
	}
	if err := writeDays(ctx, tx, newVisitors, r.bots); err != nil {
		return err
	}
	return writeRecent(ctx, tx, r.recent)
}

func writeViews(ctx context.Context, tx *store.Tx, views map[viewRow]int64) error {
	rows := slices.SortedFunc(maps.Keys(views), func(a, b viewRow) int {
		return cmp.Or(cmp.Compare(a.day, b.day), cmp.Compare(a.view.page, b.view.page), cmp.Compare(a.view.locale, b.view.locale),
			cmp.Compare(a.view.lang, b.view.lang), cmp.Compare(a.view.referrer, b.view.referrer), cmp.Compare(a.view.screen, b.view.screen))
	})
	for chunk := range slices.Chunk(rows, rowsPerStatement) {
		args := make([]any, 0, 7*len(chunk))
		for _, row := range chunk {
			v := row.view
			args = append(args, row.day.String(), v.page, v.locale, v.lang, v.referrer, v.screen, views[row])
		}
		if _, err := tx.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES "+
			placeholders(len(chunk), 7)+
			" ON CONFLICT (day, page, locale, lang, referrer, screen) DO UPDATE SET views = analytics_views.views + excluded.views", args...); err != nil {
			return fmt.Errorf("add views: %w", err)
		}
	}
	return nil
}

// writeVisitors inserts the visitors not yet seen on their day and returns how many were new
// per day. The primary key decides, across instances too: of two flushes inserting the same
// visitor, one inserts and the other finds it there.
func writeVisitors(ctx context.Context, tx *store.Tx, visitors []visitorRow) (map[string]int64, error) {
	newPerDay := make(map[string]int64)
	for chunk := range slices.Chunk(visitors, rowsPerStatement) {
		args := make([]any, 0, 2*len(chunk))
		for _, v := range chunk {
			args = append(args, v.day.String(), hex.EncodeToString(v.visitor[:]))
		}
		rows, err := tx.Query(ctx, "INSERT INTO analytics_visitors (day, visitor) VALUES "+placeholders(len(chunk), 2)+
			" ON CONFLICT (day, visitor) DO NOTHING RETURNING day", args...)
		if err != nil {
			return nil, fmt.Errorf("add visitors: %w", err)
		}
		for rows.Next() {
			var d string
			if err := rows.Scan(&d); err != nil {
				rows.Close()
				return nil, fmt.Errorf("add visitors: %w", err)
			}
			newPerDay[d]++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("add visitors: %w", err)
		}
	}
	return newPerDay, nil
}

// writeDays adds the new visitors and the bots to their days' counters.
func writeDays(ctx context.Context, tx *store.Tx, visitors map[string]int64, bots map[day]int64) error {
	type counts struct{ visitors, bots int64 }
	byDay := make(map[string]counts)
	for d, n := range visitors {
		c := byDay[d]
		c.visitors += n
		byDay[d] = c
	}
	for d, n := range bots {
		c := byDay[d.String()]
		c.bots += n
		byDay[d.String()] = c
	}
	for _, d := range slices.Sorted(maps.Keys(byDay)) {
		c := byDay[d]
		if _, err := tx.Exec(ctx, `INSERT INTO analytics_days (day, visitors, bots) VALUES (?, ?, ?)
			ON CONFLICT (day) DO UPDATE SET visitors = analytics_days.visitors + excluded.visitors, bots = analytics_days.bots + excluded.bots`,
			d, c.visitors, c.bots); err != nil {
			return fmt.Errorf("add to the day %s: %w", d, err)
		}
	}
	return nil
}

func writeRecent(ctx context.Context, tx *store.Tx, recent []recentRow) error {
	for chunk := range slices.Chunk(recent, rowsPerStatement) {
		args := make([]any, 0, 2*len(chunk))
		for _, r := range chunk {
			args = append(args, r.minute, hex.EncodeToString(r.visitor[:]))
		}
		if _, err := tx.Exec(ctx, "INSERT INTO analytics_recent (minute, visitor) VALUES "+placeholders(len(chunk), 2)+
			" ON CONFLICT (minute, visitor) DO NOTHING", args...); err != nil {
			return fmt.Errorf("add recent visitors: %w", err)
		}
	}
	return nil
}

// rollupLock is the PostgreSQL advisory lock ("hview") that the transactions writing the
// rollups hold, one instance at a time.
const rollupLock = 0x6876696577

// lockRollups makes tx, on PostgreSQL, wait for the other instances' transactions that write
// the rollups. The writer's own rows go in sorted order, but the triggers of migration 0007 add
// each multi-row statement's rows to the per-dimension rollups as that statement ends, so two
// flushes of several statements could take those rows' locks in opposite orders and deadlock.
// A flush takes milliseconds: instances taking turns cost nothing. SQLite has one writer anyway.
func lockRollups(ctx context.Context, tx *store.Tx, engine string) error {
	if engine != store.Postgres {
		return nil
	}
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(?)", int64(rollupLock)); err != nil {
		return fmt.Errorf("lock the rollups: %w", err)
	}
	return nil
}

// placeholders returns "(?, ?), (?, ?)" for rows rows of cols values.
func placeholders(rows, cols int) string {
	one := "(" + strings.Repeat("?, ", cols-1) + "?)"
	return strings.Repeat(one+", ", rows-1) + one
}
