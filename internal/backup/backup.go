// Package backup makes the server's scheduled backups of its SQLite database: a
// store.Backup into a directory every interval, each file named by its UTC start time, the
// newest N kept. `handy backup` makes one by hand through the same store.Backup.
package backup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"handy/internal/docstore"
	"handy/internal/store"
)

// Schedule says where, how often and how many.
type Schedule struct {
	Dir   string
	Every time.Duration
	Keep  int
}

// Scheduler runs a Schedule against a store.
type Scheduler struct {
	st     *store.Store
	s      Schedule
	logger *slog.Logger
	now    func() time.Time
}

// New returns a Scheduler; Run starts it.
func New(st *store.Store, s Schedule, logger *slog.Logger) *Scheduler {
	return &Scheduler{st: st, s: s, logger: logger, now: time.Now}
}

// Run makes a backup whenever one is due, until ctx ends; a backup in progress then is
// interrupted and leaves nothing behind. The first is due an interval after the newest
// backup already in the directory, at once if there is none or it is older: restarts
// neither reset the clock (a server restarted daily would otherwise never reach a 24h
// backup) nor add backups (a crash loop would otherwise push the week's out). Failures are
// logged and retried an interval later; nothing here stops the server.
func (sc *Scheduler) Run(ctx context.Context) {
	names, err := List(sc.s.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		sc.logger.Error("backup: cannot list the backup directory", slog.String("dir", sc.s.Dir), slog.String("error", err.Error()))
	}
	var newest time.Time
	if len(names) > 0 {
		newest, _ = ParseName(names[len(names)-1])
	}
	next := due(newest, sc.s.Every, sc.now())
	sc.logger.Info("scheduled backups", slog.String("dir", sc.s.Dir), slog.Duration("every", sc.s.Every),
		slog.Int("keep", sc.s.Keep), slog.Time("next", next))
	timer := time.NewTimer(next.Sub(sc.now()))
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		began := sc.now()
		sc.once(ctx, began)
		timer.Reset(began.Add(sc.s.Every).Sub(sc.now()))
	}
}

// due is when the first backup is due, given the newest one's time (zero: none): an
// interval after it, but no later than an interval from now (the clock may have stepped
// back), and now if that has passed.
func due(newest time.Time, every time.Duration, now time.Time) time.Time {
	if newest.IsZero() {
		return now
	}
	at := newest.Add(every)
	if at.After(now.Add(every)) {
		return now.Add(every)
	}
	if at.Before(now) {
		return now
	}
	return at
}

// once makes the backup of time began and deletes the ones beyond the newest Keep, logging
// the outcome; it reports whether the backup was written.
func (sc *Scheduler) once(ctx context.Context, began time.Time) bool {
	path := filepath.Join(sc.s.Dir, Name(began))
	info, err := sc.backup(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			sc.logger.Info("backup interrupted by shutdown", slog.String("path", path))
			return false
		}
		sc.logger.Error("backup failed; trying again at the next interval", slog.String("path", path),
			slog.String("error", err.Error()), slog.Duration("every", sc.s.Every))
		return false
	}
	sc.logger.Info("backup written", slog.String("path", info.Path), slog.Int64("bytes", info.Bytes),
		slog.Int64("version", info.Version), slog.Int64("continue_from", info.ContinueFrom), slog.Int64("users", info.Users), slog.Int64("documents", info.Documents),
		slog.Duration("took", info.Took))
	deleted, err := prune(sc.s.Dir, sc.s.Keep)
	if len(deleted) > 0 {
		sc.logger.Info("old backups deleted", slog.String("dir", sc.s.Dir), slog.Any("files", deleted))
	}
	if err != nil {
		sc.logger.Error("old backups not deleted; trying again after the next backup", slog.String("dir", sc.s.Dir), slog.String("error", err.Error()))
	}
	return true
}

func (sc *Scheduler) backup(ctx context.Context, path string) (store.BackupInfo, error) {
	// Each time: the directory may have been removed, or mounted late.
	if err := os.MkdirAll(sc.s.Dir, 0o700); err != nil {
		return store.BackupInfo{}, fmt.Errorf("backup: create the directory: %w", err)
	}
	return sc.st.Backup(ctx, path, false, docstore.MarkRestored)
}

// The file names: handy-20261128T090347Z.db. Fixed width, so they sort by time.
const (
	namePrefix = "handy-"
	nameTime   = "20060102T150405Z"
	nameSuffix = ".db"
)

// Name is the file name of the backup begun at t.
func Name(t time.Time) string { return namePrefix + t.UTC().Format(nameTime) + nameSuffix }

// ParseName returns the time in a backup's file name, and whether name is one.
func ParseName(name string) (time.Time, bool) {
	stamp, ok := strings.CutPrefix(name, namePrefix)
	if !ok {
		return time.Time{}, false
	}
	if stamp, ok = strings.CutSuffix(stamp, nameSuffix); !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(nameTime, stamp)
	if err != nil || t.Format(nameTime) != stamp {
		return time.Time{}, false
	}
	return t, true
}

// List returns the names of the scheduled backups in dir, oldest first; other files are not
// the schedule's and are left out.
func List(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("backup: list %s: %w", dir, err)
	}
	var names []string
	for _, e := range entries {
		if _, ok := ParseName(e.Name()); ok && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// prune deletes the scheduled backups in dir beyond the newest keep, and returns the names
// deleted.
func prune(dir string, keep int) ([]string, error) {
	names, err := List(dir)
	if err != nil || len(names) <= keep {
		return nil, err
	}
	var deleted []string
	for _, name := range names[:len(names)-keep] {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			return deleted, fmt.Errorf("backup: delete %s: %w", name, err)
		}
		deleted = append(deleted, name)
	}
	return deleted, nil
}
