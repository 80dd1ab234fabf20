package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupCommand runs `handy backup` in-process: it writes a checked copy and says what it
// holds, and each refusal names what is wrong, what to do, and exits non-zero without writing.
func TestBackupCommand(t *testing.T) {
	t.Parallel()
	noEnv := func(string) string { return "" }
	data := t.TempDir()
	if code := run([]string{"migrate", "-data-dir", data, "-log-level", "error"}, noEnv, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("migrate exited %d", code)
	}
	dir := t.TempDir()
	dest := filepath.Join(dir, "handy.db")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"backup", "-data-dir", data, dest}, noEnv, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("backup exited %d: %s", code, &stderr)
	}
	t.Logf("handy backup -data-dir DATA %s:\n%s", dest, &stdout)
	for _, want := range []string{"written to       " + dest, "integrity_check  ok", "newest commit    none yet\nafter a restore  versions continue from 1099511627776\n", "accounts         0\ndocuments        0\nschema version   "} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, &stdout)
		}
	}
	before, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		code int
		want string
	}{
		{"no destination", []string{"-data-dir", data}, nil, 2, "name the file to write: handy backup [-force] [flags] DEST"},
		{"two destinations", []string{"-data-dir", data, dest, dest + "2"}, nil, 2, "one destination only"},
		{"exists", []string{"-data-dir", data, dest}, nil, 1, "exists: name another file, or give -force to replace it"},
		{"exists, -force=false", []string{"-force=false", "-data-dir", data, dest}, nil, 1, "give -force"},
		{"directory missing", []string{"-data-dir", data, filepath.Join(dir, "no", "x.db")}, nil, 1, "does not exist: create it first"},
		{"no database there", []string{"-data-dir", filepath.Join(dir, "typo"), filepath.Join(dir, "x.db")}, nil, 1, "no database at"},
		{"PostgreSQL", []string{filepath.Join(dir, "x.db")}, map[string]string{"HANDY_DATABASE_URL": "postgres://handy@db.example/handy"}, 1,
			`pg_dump -Fc -f handy-$(date -u +%Y%m%dT%H%M%SZ).dump "$HANDY_DATABASE_URL"`},
		{"a bad flag", []string{"-data-dir", data, "-backup-keep", "0", filepath.Join(dir, "x.db")}, nil, 2, "-backup-keep"},
	} {
		var stdout, stderr bytes.Buffer
		getenv := func(k string) string { return c.env[k] }
		code := run(append([]string{"backup"}, c.args...), getenv, nil, &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) || stdout.Len() != 0 {
			t.Errorf("%s: exit %d, stderr %q, stdout %q; want %d and %q", c.name, code, &stderr, &stdout, c.code, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the refusals left files behind: %v", entries)
	}
	if after, err := os.Stat(dest); err != nil || !os.SameFile(before, after) {
		t.Errorf("a refusal replaced %s", dest)
	}
	stdout.Reset()
	if code := run([]string{"backup", dest, "-force", "-data-dir", data}, noEnv, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("backup -force exited %d: %s", code, &stderr)
	}
	if after, err := os.Stat(dest); err != nil || os.SameFile(before, after) || !strings.Contains(stdout.String(), "integrity_check  ok") {
		t.Errorf("-force did not replace %s (%v):\n%s", dest, err, &stdout)
	}
}

func TestSplitBackupArgs(t *testing.T) {
	t.Parallel()
	force, dest, rest, err := splitBackupArgs([]string{"-data-dir", "/var/lib/handy", "--force", "/b/x.db", "-log-level=warn", "-h"})
	if err != nil || !force || dest != "/b/x.db" || strings.Join(rest, " ") != "-data-dir /var/lib/handy -log-level=warn -h" {
		t.Errorf("= %v, %q, %q, %v", force, dest, rest, err)
	}
	if _, _, _, err := splitBackupArgs([]string{"-force=maybe", "x"}); err == nil {
		t.Error("-force=maybe accepted")
	}
}
