package account

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// pruneEvery is how often Prune runs under PruneLoop.
const pruneEvery = time.Hour

// Prune deletes what the accounts no longer need: expired sessions, limits that have filled up
// again, networks no sign-in has come from for networkRetention, and failed sign-ins older
// than failureRetention. It returns how many rows went.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	now := s.now()
	var total int64
	for _, q := range []struct {
		what, sql string
		before    time.Time
	}{
		{"expired sessions", "DELETE FROM sessions WHERE expires_at <= ?", now},
		{"spent limits", "DELETE FROM signin_throttle WHERE tat <= ?", now},
		{"old networks", "DELETE FROM signin_networks WHERE last_at <= ?", now.Add(-networkRetention)},
		{"old failed sign-ins", "DELETE FROM signin_failures WHERE at < ?", now.Add(-failureRetention)},
	} {
		res, err := s.store.Exec(ctx, q.sql, ms(q.before))
		if err != nil {
			return total, fmt.Errorf("account: prune %s: %w", q.what, err)
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}

// PruneLoop prunes at once and then hourly, until ctx ends. A failure is logged and tried
// again at the next hour.
func (s *Service) PruneLoop(ctx context.Context) {
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		if n, err := s.Prune(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("accounts: prune failed", slog.String("error", err.Error()))
		} else if n > 0 {
			s.logger.Debug("accounts: pruned", slog.Int64("rows", n))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
