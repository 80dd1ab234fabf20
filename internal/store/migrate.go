package store

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
)

// migrations are plain SQL files named NNNN_what.sql, applied in order, each once, each in its
// own transaction. A released file is never edited: its checksum is recorded, and a database
// whose recorded checksum differs refuses to start. Changes go in a new file.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migration is one embedded migration.
type Migration struct {
	Version  int
	Name     string
	SQL      string
	Checksum string
}

// Migrations returns the embedded migrations in order.
func Migrations() ([]Migration, error) {
	return readMigrations(migrations, "migrations")
}

func readMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	var out []Migration
	for _, e := range entries {
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		version, err := strconv.Atoi(num)
		if !ok || err != nil || len(num) != 4 || !strings.HasSuffix(name, ".sql") {
			return nil, fmt.Errorf("store: migration %q is not named NNNN_what.sql", name)
		}
		body, err := fs.ReadFile(fsys, dir+"/"+name)
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", name, err)
		}
		sum := sha256.Sum256(body)
		out = append(out, Migration{Version: version, Name: name, SQL: string(body), Checksum: hex.EncodeToString(sum[:])})
	}
	slices.SortFunc(out, func(a, b Migration) int { return a.Version - b.Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("store: migration %s: versions must run 1, 2, 3... without gaps", m.Name)
		}
	}
	return out, nil
}

// Migrate applies the embedded migrations the database lacks and returns their versions. It is
// safe to run from several instances at once: PostgreSQL serialises them with an advisory lock,
// SQLite with its write lock.
func (s *Store) Migrate(ctx context.Context) ([]int, error) {
	all, err := Migrations()
	if err != nil {
		return nil, err
	}
	return s.migrate(ctx, all)
}

// migrationLock is the PostgreSQL advisory lock key that serialises migrations ("handy").
const migrationLock = 0x68616e6479

func (s *Store) migrate(ctx context.Context, all []Migration) ([]int, error) {
	var applied []int
	for _, m := range all {
		done := false
		err := s.InTx(ctx, func(tx *Tx) error {
			if s.engine == Postgres {
				if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(?)", int64(migrationLock)); err != nil {
					return fmt.Errorf("store: lock for migrations: %w", err)
				}
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version BIGINT PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
				return fmt.Errorf("store: create schema_migrations: %w", err)
			}
			recorded, err := recordedMigrations(ctx, tx)
			if err != nil {
				return err
			}
			if newest := len(recorded); newest > len(all) {
				return fmt.Errorf("store: the database is at migration %d, newer than this binary knows (%d): run a newer handy", newest, len(all))
			}
			if sum, ok := recorded[m.Version]; ok {
				if sum != m.Checksum {
					return fmt.Errorf("store: migration %s was edited after it was applied; add a new migration instead", m.Name)
				}
				return nil
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("store: apply migration %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
				m.Version, m.Name, m.Checksum, time.Now().UnixMilli()); err != nil {
				return fmt.Errorf("store: record migration %s: %w", m.Name, err)
			}
			done = true
			return nil
		})
		if err != nil {
			return applied, err
		}
		if done {
			applied = append(applied, m.Version)
		}
	}
	return applied, nil
}

func recordedMigrations(ctx context.Context, tx *Tx) (map[int]string, error) {
	rows, err := tx.Query(ctx, "SELECT version, checksum FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("store: read schema_migrations: %w", err)
	}
	defer rows.Close()
	out := make(map[int]string)
	for rows.Next() {
		var v int
		var sum string
		if err := rows.Scan(&v, &sum); err != nil {
			return nil, fmt.Errorf("store: read schema_migrations: %w", err)
		}
		out[v] = sum
	}
	return out, rows.Err()
}
