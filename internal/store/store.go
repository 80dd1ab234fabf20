// Package store is the database: embedded SQLite (modernc.org/sqlite, no cgo) by default, in the
// data directory, or PostgreSQL (pgx) when a postgres:// URL is configured. Both run the same
// SQL: queries are written with ? placeholders, which rebind turns into $1, $2... for
// PostgreSQL, and the schema uses only types both engines share (TEXT, BIGINT).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

// Engine names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// SQLiteFile is the database file's name in the data directory.
const SQLiteFile = "handy.db"

// Store is an open database of either engine.
type Store struct {
	db     *sql.DB
	engine string
	file   string // SQLite's database file, absolute; "" for PostgreSQL
}

// Open connects to PostgreSQL when databaseURL is a postgres:// (or postgresql://) URL, and
// otherwise opens (creating it and dataDir if needed) the SQLite file dataDir/handy.db, in WAL
// mode with synchronous=FULL so that an acknowledged write survives a power cut. It does not
// migrate: call Migrate.
func Open(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	if databaseURL != "" {
		u, err := url.Parse(databaseURL)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return nil, errors.New("store: the database URL must be a postgres:// URL")
		}
		db, err := sql.Open("pgx", databaseURL)
		if err != nil {
			return nil, fmt.Errorf("store: open postgres: %w", err)
		}
		return ready(ctx, &Store{db: db, engine: Postgres})
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("store: create the data directory: %w", err)
	}
	path := filepath.Join(dataDir, SQLiteFile)
	// _txlock=immediate: a transaction takes the write lock when it begins, so two writers wait
	// for each other (busy_timeout) instead of failing when one upgrades from reading.
	dsn := "file:" + filepath.ToSlash(path) + "?_txlock=immediate" +
		"&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)&_pragma=busy_timeout(10000)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return ready(ctx, &Store{db: db, engine: SQLite, file: abs})
}

// Connection pools are bounded: a thousand long polls woken by one commit must queue for a
// few connections, not open a thousand (each SQLite connection has its own page cache of about
// 2 MB; PostgreSQL refuses clients past max_connections, 100 by default). A transaction must
// therefore never wait for a second connection of the pool while holding one.
const (
	sqliteConns   = 8  // WAL: readers in parallel, one writer at a time
	postgresConns = 16 // per instance, the LISTEN connection included
)

func ready(ctx context.Context, s *Store) (*Store, error) {
	n := sqliteConns
	if s.engine == Postgres {
		n = postgresConns
	}
	s.db.SetMaxOpenConns(n)
	s.db.SetMaxIdleConns(n)
	if err := s.db.PingContext(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("store: connect to %s: %w", s.engine, err)
	}
	return s, nil
}

// Engine returns SQLite or Postgres.
func (s *Store) Engine() string { return s.engine }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Ping checks that the database answers (for /readyz).
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Tx is a transaction with the store's placeholder style.
type Tx struct {
	tx     *sql.Tx
	engine string
}

// InTx runs fn in a transaction, committed if fn returns nil and rolled back otherwise: a
// request either writes everything or nothing.
func (s *Store) InTx(ctx context.Context, fn func(*Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	if err := fn(&Tx{tx: tx, engine: s.engine}); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// Exec runs a statement written with ? placeholders.
func (t *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, rebind(t.engine, query), args...)
}

// Query runs a query written with ? placeholders.
func (t *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, rebind(t.engine, query), args...)
}

// QueryRow runs a query written with ? placeholders that returns at most one row.
func (t *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, rebind(t.engine, query), args...)
}

// QueryRow runs a one-row query outside a transaction.
func (s *Store) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.db.QueryRowContext(ctx, rebind(s.engine, query), args...)
}

// Query runs a query outside a transaction: one statement reads one consistent snapshot on
// both engines, without taking SQLite's write lock as InTx does (_txlock=immediate).
func (s *Store) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return s.db.QueryContext(ctx, rebind(s.engine, query), args...)
}

// Exec runs a statement outside a transaction.
func (s *Store) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return s.db.ExecContext(ctx, rebind(s.engine, query), args...)
}

// rebind turns the ? placeholders of a query into PostgreSQL's $1, $2... Our queries have no
// ? inside string literals, which keeps this a plain scan.
func rebind(engine, query string) string {
	if engine != Postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
