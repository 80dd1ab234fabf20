package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"handy/internal/backup"
)

// TestBackupSchedule runs the server with -backup-every 1s -backup-keep 2 and watches the
// directory (polling: no timing is asserted) until backups made after a sign-up have replaced
// the first ones. After a graceful stop the directory holds the newest two, each whole, the
// files that are not the schedule's untouched, and no temporary file.
func TestBackupSchedule(t *testing.T) {
	bin := buildHandy(t)
	dir := filepath.Join(t.TempDir(), "backups")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	others := []string{"handy-manual.db", "notes.txt"}
	for _, name := range others {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("mine"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := startHandy(t, bin, []string{"-data-dir", t.TempDir(), "-backup-dir", dir, "-backup-every", "1s", "-backup-keep", "2"})
	if _, err := newAPIClient(p.URL).signup("scheduled@example.com"); err != nil {
		t.Fatal(err)
	}
	// A backup named after this second began after the sign-up was answered.
	signedUp := time.Now().UTC().Truncate(time.Second)
	seen := map[string]bool{}
	deadline := time.Now().Add(2 * time.Minute) // fails a hung schedule, never a slow one
	for {
		names, err := backup.List(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			seen[name] = true
		}
		if len(seen) >= 4 && len(names) > 0 {
			if newest, _ := backup.ParseName(names[len(names)-1]); newest.After(signedUp) {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 2 minutes, backups %v:\n%s", seen, p.Log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := p.Stop(); err != nil {
		t.Fatalf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}
	final, err := backup.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	all := slices.Sorted(func(yield func(string) bool) {
		for name := range seen {
			if !yield(name) {
				return
			}
		}
	})
	if len(final) != 2 || final[1] < all[len(all)-1] {
		t.Errorf("after the stop %v remain; want the newest 2 (the newest seen: %s)", final, all[len(all)-1])
	}
	entries, _ := os.ReadDir(dir)
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	if want := append(slices.Clone(others), final...); !slices.Equal(slices.Sorted(slices.Values(files)), slices.Sorted(slices.Values(want))) {
		t.Errorf("%s holds %v, want %v: a temporary file left, or a file not the schedule's deleted", dir, files, want)
	}
	for _, name := range others {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != "mine" {
			t.Errorf("%s, not the schedule's, changed: %q %v", name, data, err)
		}
	}
	for i, name := range final {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, name)+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		var check string
		var users int
		if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Errorf("%s: integrity_check %q %v", name, check, err)
		}
		if err := db.QueryRow("SELECT COUNT(*) FROM users").Scan(&users); err != nil || (i == 1 && users != 1) {
			t.Errorf("%s holds %d users (%v); the newest must hold the one signed up", name, users, err)
		}
		db.Close()
	}
	for _, want := range []string{"scheduled backups", "backup written", "old backups deleted", "stopped"} {
		if !strings.Contains(p.Log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, p.Log)
		}
	}
	t.Logf("%d backups made, %v kept; a log line: %s", len(seen), final, firstLine(p.Log.String(), "backup written"))
}

// firstLine is the first line of log holding s.
func firstLine(log, s string) string {
	for line := range strings.SplitSeq(log, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}
