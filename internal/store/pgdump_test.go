package store_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestPgDumpRestore runs docs/operations.md's PostgreSQL backup and restore once: data written
// through the store, pg_dump -Fc of the live database, pg_restore into a new database, and the
// server's view of the restored one (its migrations recorded, its rows and clock). The tools
// come with Debian's postgresql-client; missing, the test fails rather than skips.
func TestPgDumpRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tools := map[string]string{}
	for _, name := range []string{"pg_dump", "pg_restore"} {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("%s not found (%v): install Debian's postgresql-client (scripts/tools/ensure-tools.sh installs postgresql, which brings it)", name, err)
		}
		tools[name] = path
	}
	srcURL, dstURL := storetest.URL(t), storetest.URL(t)
	src, _ := openMigrated(t, srcURL)
	if _, err := src.Exec(ctx, "INSERT INTO users (id, email, password_hash, created_at, last_sign_in_at) VALUES ('u1', 'a@b.example', 'h', 1, 1)"); err != nil {
		t.Fatal(err)
	}
	const docs = 50
	for n := int64(1); n <= docs; n++ {
		if err := commitDoc(ctx, src, n); err != nil {
			t.Fatal(err)
		}
	}
	dump := filepath.Join(t.TempDir(), "handy.dump")
	runTool(t, tools["pg_dump"], "-Fc", "-f", dump, srcURL)
	fi, err := os.Stat(dump)
	if err != nil {
		t.Fatal(err)
	}
	runTool(t, tools["pg_restore"], "--no-owner", "--exit-on-error", "-d", dstURL, dump)
	t.Logf("pg_dump -Fc wrote %d bytes; pg_restore filled a new database", fi.Size())

	dst, applied := openMigrated(t, dstURL)
	if len(applied) != 0 {
		t.Errorf("the restored database needed migrations %v: schema_migrations did not come along", applied)
	}
	var version, n, users int64
	if err := dst.QueryRow(ctx, "SELECT version FROM doc_clock WHERE id = 1").Scan(&version); err != nil || version != docs {
		t.Errorf("restored clock at version %d (%v), want %d", version, err, docs)
	}
	if err := dst.QueryRow(ctx, "SELECT COUNT(*) FROM docs WHERE owner = 'u1'").Scan(&n); err != nil || n != docs {
		t.Errorf("restored %d documents (%v), want %d", n, err, docs)
	}
	if err := dst.QueryRow(ctx, "SELECT COUNT(*) FROM users WHERE email = 'a@b.example'").Scan(&users); err != nil || users != 1 {
		t.Errorf("restored %d users (%v), want 1", users, err)
	}
	// The restored database takes new commits where the old one stopped.
	if err := commitDoc(ctx, dst, docs+1); err != nil {
		t.Errorf("commit to the restored database: %v", err)
	}
}

// openMigrated opens the PostgreSQL database at url and applies the migrations it lacks,
// returning those.
func openMigrated(t *testing.T, url string) (*store.Store, []int) {
	t.Helper()
	st, err := store.Open(context.Background(), url, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	applied, err := st.Migrate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st, applied
}

func runTool(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, out)
	}
}
