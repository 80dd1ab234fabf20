package analytics

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"handy/internal/store"
)

// purgeEvery is how often an instance deletes the rollups past the retention; every instance
// does, which costs nothing when another has just done it.
const purgeEvery = time.Hour

// purgeLoop purges at start (an instance restarted more often than hourly still purges) and then
// every purgeEvery, until ctx ends.
func (in *Ingester) purgeLoop(ctx context.Context) {
	t := time.NewTicker(purgeEvery)
	defer t.Stop()
	for {
		n, err := in.purge(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			in.logger.Warn("analytics: deleting old page-view counts failed; next try in an hour", slog.String("error", err.Error()))
		case n > 0:
			in.logger.Info("analytics: deleted old page-view counts", slog.Int64("rows", n), slog.Int("retention_days", in.retention))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// purge deletes the rollups of the days more than the retention before today, from every
// rollup table in one transaction (so that they never disagree on a day), and returns how many
// rows it deleted.
func (in *Ingester) purge(ctx context.Context) (int64, error) {
	before := (dayOf(in.now()) - day(in.retention)).String()
	var total int64
	err := in.st.InTx(ctx, func(tx *store.Tx) error {
		if err := lockRollups(ctx, tx, in.st.Engine()); err != nil {
			return err
		}
		for _, table := range rollupTables() {
			res, err := tx.Exec(ctx, "DELETE FROM "+table+" WHERE day < ?", before)
			if err != nil {
				return fmt.Errorf("purge %s: %w", table, err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("purge %s: %w", table, err)
			}
			total += n
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("analytics: %w", err)
	}
	return total, nil
}

// rollupTables are the tables of daily counts that the retention applies to, in the order the
// purge empties them: the per-dimension rollups before analytics_views, whose delete triggers
// then find nothing left to subtract from.
func rollupTables() []string {
	var tables []string
	for _, d := range dimensions {
		tables = append(tables, d.table)
	}
	return append(tables, "analytics_views", "analytics_days")
}
