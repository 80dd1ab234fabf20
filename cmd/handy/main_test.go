package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"handy/internal/store"
)

func TestHelp(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-help"}, func(string) string { return "" }, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("handy -help exited %d: %s", code, stderr.String())
	}
	for _, want := range []string{"-addr", "HANDY_ADDR", `"localhost:8080"`, "HANDY_PUBLIC_URL", "HANDY_LOG_LEVEL", "HANDY_LOG_FORMAT", "HANDY_SHUTDOWN_TIMEOUT", `"15s"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("handy -help lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestBadConfig(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-public-url", "nope"}, func(string) string { return "" }, nil, &stdout, &stderr); code != 2 {
		t.Errorf("bad -public-url exited %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "HANDY_PUBLIC_URL") {
		t.Errorf("stderr = %q", stderr.String())
	}
}

// TestNotBuilt runs handy on the build output of a fresh clone: web/dist with only .gitkeep.
func TestNotBuilt(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	fresh := fstest.MapFS{".gitkeep": {}}
	code := run([]string{"-addr", "127.0.0.1:0", "-data-dir", t.TempDir(), "-log-level", "warn"}, func(string) string { return "" }, fresh, &stdout, &stderr)
	if code != 1 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "front end not built: run make build") {
		t.Errorf("exit %d, stderr %q; want 1 and one line naming make build", code, stderr.String())
	}
}

// TestMigrate applies every migration to a new SQLite database and exits without serving; a
// second run finds nothing to do.
func TestMigrate(t *testing.T) {
	t.Parallel()
	all, err := store.Migrations(store.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	versions := make([]string, len(all))
	for i, m := range all {
		versions[i] = strconv.Itoa(m.Version)
	}
	dir := t.TempDir()
	for i, want := range []string{"migrations_applied=\"[" + strings.Join(versions, " ") + "]\"", "migrations_applied=[]"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"migrate", "-data-dir", dir}, func(string) string { return "" }, nil, &stdout, &stderr)
		if code != 0 || !strings.Contains(stderr.String(), want) {
			t.Errorf("run %d: exit %d, log %q; want 0 and %s", i+1, code, stderr.String(), want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "handy.db")); err != nil {
		t.Errorf("no database file: %v", err)
	}
}
