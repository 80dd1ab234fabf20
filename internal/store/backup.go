package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Backup refusals, for errors.Is.
var (
	// ErrBackupExists: the destination exists and overwrite was not asked for.
	ErrBackupExists = errors.New("store: the backup's destination exists")
	// ErrBackupEngine: the database is PostgreSQL, whose backups are pg_dump's.
	ErrBackupEngine = errors.New("store: Backup copies an SQLite database; back PostgreSQL up with pg_dump")
)

// BackupInfo says what a backup holds, read from the copy itself once it passed its check.
type BackupInfo struct {
	Path  string // absolute
	Bytes int64
	// Version and CommitTime are those of the newest document commit in the copy (Version 0,
	// CommitTime zero: none yet), as the live server numbered it: an operator compares them
	// with the live server's.
	Version    int64
	CommitTime time.Time
	// ContinueFrom is the version after which the copy, once restored, numbers its commits: the
	// Backup's mark moved it (and the copy's documents) past any the live server hands out
	// after the copy. Version when there was no mark.
	ContinueFrom int64
	Users        int64 // accounts
	Documents    int64 // live documents (tombstones left out)
	Schema       int   // the newest migration applied
	Took         time.Duration
}

// A MarkCopy prepares a backup's copy for its restore, in a transaction on the copy; it
// returns the version after which the restored database numbers its commits
// (docstore.MarkRestored, which owns the tables it changes).
type MarkCopy func(ctx context.Context, tx *Tx) (continueFrom int64, err error)

// Backup writes a consistent copy of the SQLite database to dest while the server keeps
// reading and writing it: VACUUM INTO reads one snapshot (a WAL reader blocks no writer) into
// a temporary file beside dest, which mark (if not nil) prepares for its restore, which is then
// checked (PRAGMA integrity_check), synced and only then given dest's name, so a crash never
// leaves a partial backup under it. dest's directory must exist. An existing dest is an
// ErrBackupExists unless overwrite; a PostgreSQL store is an ErrBackupEngine. Cancelling ctx
// interrupts the copy and removes the temporary file.
func (s *Store) Backup(ctx context.Context, dest string, overwrite bool, mark MarkCopy) (BackupInfo, error) {
	start := time.Now()
	if s.engine != SQLite {
		return BackupInfo{}, ErrBackupEngine
	}
	dest, err := filepath.Abs(dest)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup path: %w", err)
	}
	if s.isDatabaseFile(dest) {
		return BackupInfo{}, fmt.Errorf("store: the backup's destination %s is the live database or one of its files: name a file elsewhere", dest)
	}
	dir := filepath.Dir(dest)
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return BackupInfo{}, fmt.Errorf("store: the backup's directory %s does not exist: create it first (%w)", dir, err)
	} else if err != nil {
		return BackupInfo{}, fmt.Errorf("store: the backup's directory: %w", err)
	} else if !fi.IsDir() {
		return BackupInfo{}, fmt.Errorf("store: the backup's directory %s is not a directory", dir)
	}
	if _, err := os.Lstat(dest); err == nil && !overwrite {
		return BackupInfo{}, fmt.Errorf("%w: %s", ErrBackupExists, dest)
	}
	// An empty file is a valid VACUUM INTO target; creating it here tells an unwritable
	// directory apart from a failing copy.
	tmp, err := os.CreateTemp(dir, ".handy-backup-*.tmp")
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: cannot write in the backup's directory: %w", err)
	}
	tmpPath := tmp.Name()
	published := false
	defer func() {
		if !published {
			os.Remove(tmpPath)
		}
	}()
	if err := tmp.Close(); err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", tmpPath); err != nil {
		return BackupInfo{}, fmt.Errorf("store: copy the database to %s: %w", tmpPath, err)
	}
	info, err := markCopy(ctx, tmpPath, mark)
	if err != nil {
		return BackupInfo{}, err
	}
	if err := checkCopy(ctx, tmpPath); err != nil {
		return BackupInfo{}, err
	}
	// VACUUM INTO does not sync what it wrote.
	if err := syncFile(tmpPath); err != nil {
		return BackupInfo{}, err
	}
	if err := publish(tmpPath, dest, overwrite); err != nil {
		return BackupInfo{}, err
	}
	published = true
	if err := syncFile(dir); err != nil {
		return BackupInfo{}, err
	}
	fi, err := os.Stat(dest)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: backup: %w", err)
	}
	info.Path, info.Bytes, info.Took = dest, fi.Size(), time.Since(start)
	return info, nil
}

// isDatabaseFile reports whether path is the live database file or one of SQLite's files
// beside it, by name or (through a link) by identity: overwriting them would destroy it.
func (s *Store) isDatabaseFile(path string) bool {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if path == s.file+suffix {
			return true
		}
	}
	live, err := os.Stat(s.file)
	if err != nil {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(live, fi)
}

// publish gives the checked copy its name. Without overwrite a hard link does it, which fails
// if dest appeared meanwhile, where a rename would replace it; on a file system without hard
// links, a check and a rename.
func publish(tmpPath, dest string, overwrite bool) error {
	if !overwrite {
		err := os.Link(tmpPath, dest)
		switch {
		case err == nil:
			if err := os.Remove(tmpPath); err != nil {
				return fmt.Errorf("store: remove the temporary copy: %w", err)
			}
			return nil
		case errors.Is(err, fs.ErrExist):
			return fmt.Errorf("%w: %s", ErrBackupExists, dest)
		}
		if _, err := os.Lstat(dest); err == nil {
			return fmt.Errorf("%w: %s", ErrBackupExists, dest)
		}
	}
	if err := os.Rename(tmpPath, dest); err != nil {
		return fmt.Errorf("store: name the backup: %w", err)
	}
	return nil
}

// copyDSN names the copy at path for database/sql: a URI, escaped, as the directory is the
// operator's and may hold '?' or '#'. query is the URI's parameters.
func copyDSN(path, query string) string {
	return "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?" + query
}

// markCopy reads the copy's figures, then runs mark on it in one transaction. The copy is
// scratch until it passes its check, so it is written without a rollback journal (which would
// hold every page the mark changes) and without syncs (Backup syncs it once, whole): a failure
// leaves a file that is removed, never one that is published.
func markCopy(ctx context.Context, path string, mark MarkCopy) (BackupInfo, error) {
	db, err := sql.Open("sqlite", copyDSN(path, "_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)"))
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: open the copy: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	info, err := readFigures(ctx, db)
	if err != nil {
		return BackupInfo{}, err
	}
	info.ContinueFrom = info.Version
	if mark == nil {
		return info, nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: mark the copy: %w", err)
	}
	if info.ContinueFrom, err = mark(ctx, &Tx{tx: tx, engine: SQLite}); err != nil {
		tx.Rollback()
		return BackupInfo{}, fmt.Errorf("store: mark the copy: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return BackupInfo{}, fmt.Errorf("store: mark the copy: %w", err)
	}
	if err := db.Close(); err != nil {
		return BackupInfo{}, fmt.Errorf("store: close the copy: %w", err)
	}
	return info, nil
}

// readFigures reads what the copy holds, before the mark changes its versions.
func readFigures(ctx context.Context, db *sql.DB) (BackupInfo, error) {
	var info BackupInfo
	var micros int64
	for _, q := range []struct {
		what string
		sql  string
		into []any
	}{
		{"the newest commit", "SELECT version, update_time FROM doc_clock WHERE id = 1", []any{&info.Version, &micros}},
		{"the accounts", "SELECT COUNT(*) FROM users", []any{&info.Users}},
		{"the documents", "SELECT COUNT(*) FROM docs WHERE fields IS NOT NULL", []any{&info.Documents}},
		{"the schema", "SELECT COALESCE(MAX(version), 0) FROM schema_migrations", []any{&info.Schema}},
	} {
		if err := db.QueryRowContext(ctx, q.sql).Scan(q.into...); err != nil {
			return BackupInfo{}, fmt.Errorf("store: read %s from the copy: %w", q.what, err)
		}
	}
	if info.Version > 0 {
		info.CommitTime = time.UnixMicro(micros).UTC()
	}
	return info, nil
}

// checkCopy opens the (marked) copy read-only and checks its integrity. VACUUM INTO writes a
// rollback-journal database, so read-only needs no -wal or -shm beside it.
func checkCopy(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", copyDSN(path, "mode=ro"))
	if err != nil {
		return fmt.Errorf("store: open the copy: %w", err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check(10)")
	if err != nil {
		return fmt.Errorf("store: check the copy: %w", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return fmt.Errorf("store: check the copy: %w", err)
		}
		problems = append(problems, line)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: check the copy: %w", err)
	}
	if len(problems) != 1 || problems[0] != "ok" {
		return fmt.Errorf("store: the copy fails PRAGMA integrity_check: %s", strings.Join(problems, "; "))
	}
	return nil
}

// syncFile flushes a file, or a directory's entries, to stable storage.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("store: sync %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("store: sync %s: %w", path, err)
	}
	return nil
}
