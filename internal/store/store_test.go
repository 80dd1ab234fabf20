package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

func TestMigrateOnBothEngines(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		all, err := store.Migrations(st.Engine())
		if err != nil || len(all) == 0 {
			t.Fatalf("Migrations(%s) = %v, %v", st.Engine(), all, err)
		}
		// storetest migrated it: a second run applies nothing.
		applied, err := st.Migrate(ctx)
		if err != nil || len(applied) != 0 {
			t.Fatalf("second Migrate = %v, %v; want nothing applied", applied, err)
		}
		var n int
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM schema_migrations").Scan(&n); err != nil || n != len(all) {
			t.Fatalf("schema_migrations has %d rows (%v), want %d", n, err, len(all))
		}
		// The schema is there, foreign keys cascade and placeholders bind on either engine.
		err = st.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, "INSERT INTO users (id, email, password_hash, created_at, last_sign_in_at) VALUES (?, ?, ?, ?, ?)", "u1", "a@b.example", "h", 1, 1); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "INSERT INTO documents (path, owner, data, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)", "users/u1", "u1", "{}", 1, 1, 1)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Exec(ctx, "DELETE FROM users WHERE id = ?", "u1"); err != nil {
			t.Fatal(err)
		}
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM documents").Scan(&n); err != nil || n != 0 {
			t.Fatalf("documents left after their owner was deleted: %d (%v)", n, err)
		}
	})
}

func TestTransactionsAreAllOrNothing(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		boom := errors.New("boom")
		err := st.InTx(ctx, func(tx *store.Tx) error {
			if _, err := tx.Exec(ctx, "INSERT INTO users (id, email, password_hash, created_at, last_sign_in_at) VALUES (?, ?, ?, ?, ?)", "u1", "a@b.example", "h", 1, 1); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx = %v, want boom", err)
		}
		var n int
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM users").Scan(&n); err != nil || n != 0 {
			t.Fatalf("a failed transaction left %d users (%v)", n, err)
		}
	})
}

func TestConcurrentMigrations(t *testing.T) {
	t.Parallel()
	// Several instances starting at once against one PostgreSQL database all succeed, and each
	// migration is applied exactly once.
	url := storetest.URL(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	applied := make([][]int, 4)
	errs := make([]error, 4)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := store.Open(ctx, url, "")
			if err != nil {
				errs[i] = err
				return
			}
			defer st.Close()
			applied[i], errs[i] = st.Migrate(ctx)
		}()
	}
	wg.Wait()
	total := 0
	for i := range 4 {
		if errs[i] != nil {
			t.Fatalf("instance %d: %v", i, errs[i])
		}
		total += len(applied[i])
	}
	all, err := store.Migrations(store.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if total != len(all) {
		t.Fatalf("migrations applied %d times in all, want %d", total, len(all))
	}
}

func TestSQLiteFileAndSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "nested", "data")
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := os.Stat(filepath.Join(dir, store.SQLiteFile)); err != nil {
		t.Fatalf("the database file was not created: %v", err)
	}
	var mode string
	var sync, fk int
	if err := st.QueryRow(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q (%v), want wal", mode, err)
	}
	if err := st.QueryRow(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || sync != 2 {
		t.Errorf("synchronous = %d (%v), want 2 (FULL)", sync, err)
	}
	if err := st.QueryRow(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d (%v), want 1", fk, err)
	}
}

func TestOpenRejects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if _, err := store.Open(ctx, "mysql://x", ""); err == nil || !strings.Contains(err.Error(), "postgres://") {
		t.Errorf("a mysql URL: %v", err)
	}
	if _, err := store.Open(ctx, "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=2", ""); err == nil {
		t.Error("an unreachable PostgreSQL opened")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := store.Open(ctx, "", filepath.Join(file, "data")); err == nil {
		t.Error("a data directory under a file opened")
	}
}
