package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadMigrationsRules(t *testing.T) {
	t.Parallel()
	sql := &fstest.MapFile{Data: []byte("SELECT 1")}
	for name, files := range map[string]fstest.MapFS{
		"bad name":           {"m/1_a.sql": sql},
		"gap":                {"m/0001_a.sql": sql, "m/0003_c.sql": sql},
		"no first":           {"m/0002_b.sql": sql},
		"not sql":            {"m/0001_a.txt": sql},
		"no stem":            {"m/0001_.sql": sql},
		"unknown dialect":    {"m/0001_a.mysql.sql": sql},
		"sqlite half only":   {"m/0001_a.sqlite.sql": sql},
		"postgres half only": {"m/0001_a.sql": sql, "m/0002_b.postgres.sql": sql},
		"pair and plain":     {"m/0001_a.sql": sql, "m/0001_a.sqlite.sql": sql, "m/0001_a.postgres.sql": sql},
		"two plain":          {"m/0001_a.sql": sql, "m/0001_b.sql": sql},
		"stems differ":       {"m/0001_a.sqlite.sql": sql, "m/0001_b.postgres.sql": sql},
	} {
		// A broken set fails whichever engine reads it, so no engine starts on half a schema.
		for _, engine := range dialects {
			if _, err := readMigrations(files, "m", engine); err == nil {
				t.Errorf("%s: accepted for %s", name, engine)
			}
		}
	}
	if _, err := readMigrations(fstest.MapFS{"m/0001_a.sql": sql}, "m", "mysql"); err == nil {
		t.Error("an unknown engine: accepted")
	}
}

func TestEachEngineAppliesItsOwnFile(t *testing.T) {
	t.Parallel()
	files := fstest.MapFS{
		"m/0001_a.sql":          {Data: []byte("both")},
		"m/0002_b.sqlite.sql":   {Data: []byte("lite")},
		"m/0002_b.postgres.sql": {Data: []byte("pg")},
	}
	want := map[string][]string{SQLite: {"0001_a.sql both", "0002_b.sqlite.sql lite"}, Postgres: {"0001_a.sql both", "0002_b.postgres.sql pg"}}
	for engine, want := range want {
		all, err := readMigrations(files, "m", engine)
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		var got []string
		for i, m := range all {
			sum := sha256.Sum256([]byte(m.SQL))
			if m.Version != i+1 || m.Checksum != hex.EncodeToString(sum[:]) {
				t.Errorf("%s: %s has version %d, checksum %s", engine, m.Name, m.Version, m.Checksum)
			}
			got = append(got, m.Name+" "+m.SQL)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", engine, got, want)
		}
	}
}

// TestReleasedChecksums pins the checksums that databases in use have recorded: a change here
// means a released migration was edited, and every such database would refuse to start.
func TestReleasedChecksums(t *testing.T) {
	t.Parallel()
	released := map[string]string{
		"0001_accounts.sql": "b51f41ef7ec07464f1ba7ee38e7698a6f923775fb07355c8d1c9dab654f37bcd",
	}
	for _, engine := range dialects {
		all, err := Migrations(engine)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range all {
			if sum, ok := released[m.Name]; ok && m.Checksum != sum {
				t.Errorf("%s: %s has checksum %s, released as %s", engine, m.Name, m.Checksum, sum)
			}
		}
		if len(all) < 2 || all[0].Name != "0001_accounts.sql" || all[1].Name != "0002_docstore."+engine+".sql" {
			t.Errorf("%s: migrations %v", engine, all)
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
		all, err := readMigrations(fsys, "m", SQLite)
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
