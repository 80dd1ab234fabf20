package store

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadMigrationsRules(t *testing.T) {
	t.Parallel()
	for name, files := range map[string]fstest.MapFS{
		"bad name": {"m/1_a.sql": {Data: []byte("SELECT 1")}},
		"gap":      {"m/0001_a.sql": {Data: []byte("SELECT 1")}, "m/0003_c.sql": {Data: []byte("SELECT 1")}},
		"not sql":  {"m/0001_a.txt": {Data: []byte("SELECT 1")}},
	} {
		if _, err := readMigrations(files, "m"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestEditedOrNewerMigrationsAreRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	v1 := fstest.MapFS{"m/0001_a.sql": {Data: []byte("CREATE TABLE a (x BIGINT)")}}
	v2 := fstest.MapFS{"m/0001_a.sql": {Data: []byte("CREATE TABLE a (x BIGINT)")}, "m/0002_b.sql": {Data: []byte("CREATE TABLE b (x BIGINT)")}}
	edited := fstest.MapFS{"m/0001_a.sql": {Data: []byte("CREATE TABLE a (x TEXT)")}, "m/0002_b.sql": {Data: []byte("CREATE TABLE b (x BIGINT)")}}
	apply := func(fsys fstest.MapFS) ([]int, error) {
		all, err := readMigrations(fsys, "m")
		if err != nil {
			t.Fatal(err)
		}
		return st.migrate(ctx, all)
	}
	if got, err := apply(v2); err != nil || len(got) != 2 {
		t.Fatalf("first run: %v, %v", got, err)
	}
	if _, err := apply(edited); err == nil || !strings.Contains(err.Error(), "edited") {
		t.Errorf("an edited migration: %v", err)
	}
	if _, err := apply(v1); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("an older binary: %v", err)
	}
}

func TestRebind(t *testing.T) {
	t.Parallel()
	q := "SELECT a FROM t WHERE b = ? AND c IN (?, ?)"
	if got := rebind(Postgres, q); got != "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)" {
		t.Errorf("postgres: %s", got)
	}
	if got := rebind(SQLite, q); got != q {
		t.Errorf("sqlite: %s", got)
	}
}
