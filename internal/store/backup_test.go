package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"handy/internal/docstore"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// commitDoc writes one document and bumps the clock in one transaction, as a document commit
// does: in any consistent copy the clock's version equals the number of documents.
func commitDoc(ctx context.Context, st *store.Store, n int64) error {
	return st.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE doc_clock SET version = ?, update_time = ? WHERE id = 1", n, 1_000_000*n); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "INSERT INTO docs (path, parent, owner, fields, create_time, update_time, version) VALUES (?, ?, ?, ?, ?, ?, ?)",
			fmt.Sprintf("users/u1/history/h%d", n), "users/u1/history", "u1", "{}", n, n, n)
		return err
	})
}

// TestBackupWhileWriting copies an SQLite database while a writer keeps committing: the copy
// passes its check, holds every commit made before the backup began, and is one snapshot (its
// clock matches its documents), marked for its restore: its clock, its documents' versions and
// its owners' horizons moved past any version the live database hands out after the copy.
func TestBackupWhileWriting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := sqliteStore(t)
	if _, err := st.Exec(ctx, "INSERT INTO users (id, email, password_hash, created_at, last_sign_in_at) VALUES ('u1', 'a@b.example', 'h', 1, 1)"); err != nil {
		t.Fatal(err)
	}
	var committed atomic.Int64
	for range 200 {
		if err := commitDoc(ctx, st, committed.Load()+1); err != nil {
			t.Fatal(err)
		}
		committed.Add(1)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := commitDoc(ctx, st, committed.Load()+1); err != nil {
				t.Error(err)
				return
			}
			committed.Add(1)
		}
	})
	before := committed.Load()
	dest := filepath.Join(t.TempDir(), "copy.db")
	info, err := st.Backup(ctx, dest, false, docstore.MarkRestored)
	after := committed.Load()
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d commits before the backup, %d during it; copy: %+v", before, after-before, info)
	if info.Version < before || info.Version > after+1 || info.Documents != info.Version || info.Users != 1 {
		t.Errorf("copy holds version %d and %d documents, %d users; want %d to %d, as many documents, 1 user", info.Version, info.Documents, info.Users, before, after+1)
	}
	if info.Path != dest || info.Bytes == 0 || info.CommitTime.UnixMicro() != 1_000_000*info.Version {
		t.Errorf("info = %+v", info)
	}
	db, err := sql.Open("sqlite", "file:"+dest+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow("SELECT COUNT(*) FROM docs").Scan(&n); err != nil || n != info.Documents {
		t.Errorf("the copy has %d documents (%v), its info says %d", n, err, info.Documents)
	}
	next := info.Version + docstore.RestoreJump
	var clock, low, high, horizon int64
	err = db.QueryRow(`SELECT (SELECT version FROM doc_clock), (SELECT MIN(version) FROM docs), (SELECT MAX(version) FROM docs),
		(SELECT version FROM doc_pruned WHERE owner = 'u1')`).Scan(&clock, &low, &high, &horizon)
	if err != nil || info.ContinueFrom != next || clock != next || low != 1+docstore.RestoreJump || high != next || horizon != next {
		t.Errorf("the copy continues from %d: clock %d, versions %d to %d, u1's horizon %d (%v); want %d, versions from %d",
			info.ContinueFrom, clock, low, high, horizon, err, next, 1+docstore.RestoreJump)
	}
	onlyFiles(t, filepath.Dir(dest), "copy.db")
}

// TestBackupRefusals: each refusal names what is wrong and leaves nothing behind.
func TestBackupRefusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := sqliteStore(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.db")
	if err := os.WriteFile(existing, []byte("an older backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	aFile := filepath.Join(dir, "a-file")
	if err := os.WriteFile(aFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	live := liveFile(t, st)
	for _, c := range []struct {
		name, dest, want string
		overwrite        bool
		is               error
	}{
		{"exists", existing, "destination exists", false, store.ErrBackupExists},
		{"directory missing", filepath.Join(dir, "missing", "x.db"), "does not exist: create it first", false, nil},
		{"directory is a file", filepath.Join(aFile, "x.db"), "not a directory", false, nil},
		// /proc takes no new files, even from root (which chmod would not stop).
		{"directory unwritable", "/proc/handy-backup-test.db", "cannot write in the backup's directory", false, nil},
		{"the live database", live, "is the live database", true, nil},
		{"its WAL", live + "-wal", "is the live database", true, nil},
	} {
		_, err := st.Backup(ctx, c.dest, c.overwrite, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%s: Backup(%s) = %v; want an error saying %q", c.name, c.dest, err, c.want)
		}
	}
	if data, err := os.ReadFile(existing); err != nil || string(data) != "an older backup" {
		t.Errorf("the refused backup changed %s: %q, %v", existing, data, err)
	}
	onlyFiles(t, dir, "a-file", "old.db")
	if _, err := st.Backup(ctx, existing, true, nil); err != nil {
		t.Fatalf("overwrite: %v", err)
	}
	if data, err := os.ReadFile(existing); err != nil || !strings.HasPrefix(string(data), "SQLite format 3\x00") {
		t.Errorf("overwritten %s is no SQLite database (%v)", existing, err)
	}
	onlyFiles(t, dir, "a-file", "old.db")
}

// TestBackupPostgresRefused: PostgreSQL is pg_dump's (TestPgDumpRestore).
func TestBackupPostgresRefused(t *testing.T) {
	t.Parallel()
	st := engine(t, store.Postgres)
	dir := t.TempDir()
	if _, err := st.Backup(context.Background(), filepath.Join(dir, "x.db"), false, nil); !errors.Is(err, store.ErrBackupEngine) {
		t.Errorf("Backup on PostgreSQL = %v, want ErrBackupEngine", err)
	}
	onlyFiles(t, dir)
}

func sqliteStore(t *testing.T) *store.Store { return engine(t, store.SQLite) }

func engine(t *testing.T, name string) *store.Store {
	t.Helper()
	for _, e := range storetest.Engines() {
		if e.Name == name {
			return e.Open(t)
		}
	}
	t.Fatalf("no engine %s", name)
	return nil
}

// liveFile is the SQLite store's database file, by its journal list.
func liveFile(t *testing.T, st *store.Store) string {
	t.Helper()
	var seq int
	var name, file string
	if err := st.QueryRow(context.Background(), "PRAGMA database_list").Scan(&seq, &name, &file); err != nil {
		t.Fatal(err)
	}
	return file
}

// onlyFiles checks that dir holds exactly the files named: no temporary file left behind.
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}
