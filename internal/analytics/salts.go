package analytics

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"
)

const (
	// maintainEvery is how often an instance reads the salts it needs and deletes what has
	// aged: a salt lives at most this much past its 48 hours.
	maintainEvery = time.Minute
	// saltAhead is how long before midnight the next day's salt is read, so that the first
	// view after midnight finds it in memory.
	saltAhead = time.Hour
	// retryAfterWake keeps a view that finds no salt from making the database read it again
	// more often than this.
	retryAfterWake = 5 * time.Second
	// recentMinutes is how many minutes of analytics_recent are kept: the five of "visitors in
	// the last five minutes", and a margin for instances whose clocks differ.
	recentMinutes = 15
)

// maintainLoop runs maintain every maintainEvery, and when a view found no salt, until ctx ends.
func (in *Ingester) maintainLoop(ctx context.Context) {
	t := time.NewTicker(maintainEvery)
	defer t.Stop()
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-in.wake:
			if time.Since(last) < retryAfterWake {
				continue
			}
		}
		last = time.Now()
		if err := in.maintain(ctx); err != nil && ctx.Err() == nil {
			in.logger.Warn("analytics: salt housekeeping failed; next try in a minute", slog.String("error", err.Error()))
		}
	}
}

// maintain deletes the salts and the visitors of the days that began 48 hours ago or more, and
// the recent rows past recentMinutes, then reads today's salt, and tomorrow's in the last hour
// of the day, into memory. Every instance does it; the deletions find nothing to do when
// another has just done them.
func (in *Ingester) maintain(ctx context.Context) error {
	now := in.now()
	today := dayOf(now)
	// Forget before deleting: from here on nothing is hashed with an old salt.
	in.salts.forgetBefore(today)
	aged := (today - 1).String() // a day before yesterday began 48 hours ago or more
	if _, err := in.st.Exec(ctx, "DELETE FROM analytics_salts WHERE day < ?", aged); err != nil {
		return fmt.Errorf("analytics: delete old salts: %w", err)
	}
	if _, err := in.st.Exec(ctx, "DELETE FROM analytics_visitors WHERE day < ?", aged); err != nil {
		return fmt.Errorf("analytics: delete old visitors: %w", err)
	}
	if _, err := in.st.Exec(ctx, "DELETE FROM analytics_recent WHERE minute < ?", now.Unix()/60-recentMinutes); err != nil {
		return fmt.Errorf("analytics: delete old recent visitors: %w", err)
	}
	days := []day{today}
	if (today + 1).start().Sub(now) <= saltAhead {
		days = append(days, today+1)
	}
	for _, d := range days {
		if _, ok := in.salts.get(d); ok {
			continue
		}
		salt, err := in.readSalt(ctx, d)
		if err != nil {
			return err
		}
		in.salts.set(d, salt)
	}
	return nil
}

// readSalt returns the salt of d, making it if no instance has: a random one is inserted unless
// the day has one, and the day's is read back, so that every instance hashes with the same.
func (in *Ingester) readSalt(ctx context.Context, d day) ([]byte, error) {
	fresh := make([]byte, saltSize)
	rand.Read(fresh) // never fails (crypto/rand)
	if _, err := in.st.Exec(ctx, "INSERT INTO analytics_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING",
		d.String(), hex.EncodeToString(fresh)); err != nil {
		return nil, fmt.Errorf("analytics: make the salt of %s: %w", d, err)
	}
	var stored string
	if err := in.st.QueryRow(ctx, "SELECT salt FROM analytics_salts WHERE day = ?", d.String()).Scan(&stored); err != nil {
		return nil, fmt.Errorf("analytics: read the salt of %s: %w", d, err)
	}
	salt, err := hex.DecodeString(stored)
	if err != nil || len(salt) != saltSize {
		return nil, fmt.Errorf("analytics: the salt of %s is not %d bytes in hex", d, saltSize)
	}
	return salt, nil
}
