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

// migrations are plain SQL files, applied in order, each once, each in its own transaction.
// A version is either one file for both engines, NNNN_what.sql, or, where SQLite and PostgreSQL
// differ (BLOB against BYTEA), a pair NNNN_what.sqlite.sql + NNNN_what.postgres.sql of which
// each engine applies its own. A released file is never edited: the checksum of the file applied
// is recorded, and a database whose recorded checksum differs refuses to start. Changes go in a
// new version.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migration is one embedded migration in the form one engine applies.
type Migration struct {
	Version  int
	Name     string // the file applied: 0001_accounts.sql, 0002_docstore.postgres.sql
	SQL      string
	Checksum string // SHA-256 of the file, hex
}

// Migrations returns the embedded migrations in order, in the form engine (SQLite or
// Postgres) applies.
func Migrations(engine string) ([]Migration, error) {
	return readMigrations(migrations, "migrations", engine)
}

// dialects are the file name suffixes of a version that differs between the engines.
var dialects = [...]string{SQLite, Postgres}

// migrationFile is one file of the migrations directory, its name taken apart.
type migrationFile struct {
	name    string
	version int
	stem    string // "accounts" in 0001_accounts.sql and 0001_accounts.sqlite.sql
	dialect string // "" for both engines, else SQLite or Postgres
}

func parseMigrationName(name string) (migrationFile, error) {
	bad := fmt.Errorf("store: migration %q is not named NNNN_what.sql, NNNN_what.sqlite.sql or NNNN_what.postgres.sql", name)
	num, rest, ok := strings.Cut(name, "_")
	version, err := strconv.Atoi(num)
	if !ok || err != nil || len(num) != 4 || version < 1 {
		return migrationFile{}, bad
	}
	rest, ok = strings.CutSuffix(rest, ".sql")
	if !ok {
		return migrationFile{}, bad
	}
	f := migrationFile{name: name, version: version, stem: rest}
	for _, d := range dialects {
		if stem, ok := strings.CutSuffix(rest, "."+d); ok {
			f.stem, f.dialect = stem, d
		}
	}
	// No other dots: a misspelt dialect (0002_x.postgresql.sql) must not pass for a file that
	// both engines apply.
	if f.stem == "" || strings.Contains(f.stem, ".") {
		return migrationFile{}, bad
	}
	return f, nil
}

func readMigrations(fsys fs.FS, dir, engine string) ([]Migration, error) {
	if !slices.Contains(dialects[:], engine) {
		return nil, fmt.Errorf("store: migrations for an unknown engine %q", engine)
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	byVersion := make(map[int][]migrationFile)
	for _, e := range entries {
		f, err := parseMigrationName(e.Name())
		if err != nil {
			return nil, err
		}
		byVersion[f.version] = append(byVersion[f.version], f)
	}
	out := make([]Migration, 0, len(byVersion))
	for version := 1; version <= len(byVersion); version++ {
		files, ok := byVersion[version]
		if !ok {
			return nil, fmt.Errorf("store: migration %04d is missing: versions must run 1, 2, 3... without gaps", version)
		}
		f, err := pick(files, engine)
		if err != nil {
			return nil, err
		}
		body, err := fs.ReadFile(fsys, dir+"/"+f.name)
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", f.name, err)
		}
		sum := sha256.Sum256(body)
		out = append(out, Migration{Version: version, Name: f.name, SQL: string(body), Checksum: hex.EncodeToString(sum[:])})
	}
	return out, nil
}

// pick checks that one version's files are a single file or a complete pair with one stem,
// whichever engine asks (a missing half must fail on both), and returns engine's.
func pick(files []migrationFile, engine string) (migrationFile, error) {
	if len(files) == 1 && files[0].dialect == "" {
		return files[0], nil
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.name
	}
	if len(files) != 2 || files[0].dialect == "" || files[1].dialect == "" ||
		files[0].dialect == files[1].dialect || files[0].stem != files[1].stem {
		return migrationFile{}, fmt.Errorf("store: migration %04d has files %s: want one NNNN_what.sql, or NNNN_what.sqlite.sql and NNNN_what.postgres.sql",
			files[0].version, strings.Join(names, ", "))
	}
	if files[0].dialect == engine {
		return files[0], nil
	}
	return files[1], nil
}

// Migrate applies the embedded migrations the database lacks and returns their versions. It is
// safe to run from several instances at once: PostgreSQL serialises them with an advisory lock,
// SQLite with its write lock.
func (s *Store) Migrate(ctx context.Context) ([]int, error) {
	all, err := Migrations(s.engine)
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
