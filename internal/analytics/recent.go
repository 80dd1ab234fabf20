package analytics

import (
	"context"
	"fmt"
	"time"

	"handy/internal/store"
)

// RecentVisitors returns how many distinct visitors the views written by every instance in the
// last minutes (1 to 15) came from: "visitors in the last five minutes" is RecentVisitors(ctx,
// 5), counting the current minute and the four before it. Views still in a buffer (at most a
// second old) are not counted yet, and a visitor whose minutes straddle midnight counts twice:
// each day hashes with its own salt.
func (in *Ingester) RecentVisitors(ctx context.Context, minutes int) (int64, error) {
	return recentVisitors(ctx, in.st, in.now(), minutes)
}

// recentVisitors counts the distinct visitors of the minutes (1 to 15) up to now.
func recentVisitors(ctx context.Context, st *store.Store, now time.Time, minutes int) (int64, error) {
	minutes = min(max(minutes, 1), recentMinutes)
	from := now.Unix()/60 - int64(minutes-1)
	var n int64
	if err := st.QueryRow(ctx, "SELECT COUNT(DISTINCT visitor) FROM analytics_recent WHERE minute >= ?", from).Scan(&n); err != nil {
		return 0, fmt.Errorf("analytics: count recent visitors: %w", err)
	}
	return n, nil
}
