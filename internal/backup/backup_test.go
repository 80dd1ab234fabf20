package backup

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestNames(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 28, 9, 3, 47, 999, time.FixedZone("CET", 3600))
	name := Name(at)
	if name != "handy-20261128T080347Z.db" {
		t.Fatalf("Name = %s, want the UTC second", name)
	}
	if got, ok := ParseName(name); !ok || !got.Equal(at.Truncate(time.Second)) {
		t.Errorf("ParseName(%s) = %v, %v", name, got, ok)
	}
	for _, other := range []string{"handy.db", "handy.db-wal", "handy-20261128T080347Z.db.tmp", ".handy-backup-1.tmp",
		"handy-2026-11-28.db", "handy-20261128T080347.db", "handy-20261328T080347Z.db", "x-handy-20261128T080347Z.db"} {
		if _, ok := ParseName(other); ok {
			t.Errorf("ParseName(%s) took it for a scheduled backup", other)
		}
	}
}

func TestDue(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, c := range []struct {
		name   string
		newest time.Time
		want   time.Time
	}{
		{"none yet: now", time.Time{}, now},
		{"older than the interval: now", now.Add(-25 * time.Hour), now},
		{"recent: an interval after it", now.Add(-2 * time.Hour), now.Add(22 * time.Hour)},
		{"in the future (clock stepped back): an interval from now", now.Add(48 * time.Hour), now.Add(day)},
	} {
		if got := due(c.newest, day, now); !got.Equal(c.want) {
			t.Errorf("%s: due = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestOnceKeepsTheNewest makes backups at given times into a directory that also holds files
// not the schedule's: the newest Keep remain, each a checked copy, and the others are untouched.
func TestOnceKeepsTheNewest(t *testing.T) {
	t.Parallel()
	var st *store.Store
	for _, e := range storetest.Engines() {
		if e.Name == store.SQLite {
			st = e.Open(t)
		}
	}
	dir := filepath.Join(t.TempDir(), "backups") // created by the first backup
	var log bytes.Buffer
	sc := New(st, Schedule{Dir: dir, Every: time.Hour, Keep: 2}, slog.New(slog.NewTextHandler(&log, nil)))
	start := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	if !sc.once(ctx, start) {
		t.Fatalf("first backup failed:\n%s", &log)
	}
	others := []string{"handy.db", "notes.txt", "handy-manual.db"}
	for _, name := range others {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("mine"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i < 5; i++ {
		if !sc.once(ctx, start.Add(time.Duration(i)*time.Hour)) {
			t.Fatalf("backup %d failed:\n%s", i, &log)
		}
	}
	// The same time again: the name is taken, so it fails, is logged, and deletes nothing.
	if sc.once(ctx, start.Add(4*time.Hour)) {
		t.Error("a backup over an existing one succeeded")
	}
	names, err := List(dir)
	want := []string{Name(start.Add(3 * time.Hour)), Name(start.Add(4 * time.Hour))}
	if err != nil || !slices.Equal(names, want) {
		t.Errorf("List = %v, %v; want %v", names, err, want)
	}
	for _, name := range others {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != "mine" {
			t.Errorf("%s, not the schedule's, was touched: %q, %v", name, data, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(want)+len(others) {
		t.Errorf("%s holds %d files, want %d: a temporary file left behind?", dir, len(entries), len(want)+len(others))
	}
	for _, want := range []string{"backup written", "old backups deleted", "backup failed; trying again at the next interval", "destination exists"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, &log)
		}
	}
}
