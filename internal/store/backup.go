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
	// CommitTime zero: none yet): an operator compares them with the live server's.
	Version    int64
	CommitTime time.Time
	Users      int64 // accounts
	Documents  int64 // live documents (tombstones left out)
	Schema     int   // the newest migration applied
	Took       time.Duration
}

// Backup writes a consistent copy of the SQLite database to dest while the server keeps
// reading and writing it: VACUUM INTO reads one snapshot (a WAL reader blocks no writer) into
// a temporary file beside dest, which is checked (PRAGMA integrity_check), synced and only
// then given dest's name, so a crash never leaves a partial backup under it. dest's directory
// must exist. An existing dest is an ErrBackupExists unless overwrite; a PostgreSQL store is an
// ErrBackupEngine. Cancelling ctx interrupts the copy and removes the temporary file.
func (s *Store) Backup(ctx context.Context, dest string, overwrite bool) (BackupInfo, error) {
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
	info, err := checkCopy(ctx, tmpPath)
	if err != nil {
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

// checkCopy opens the copy read-only, checks its integrity and reads its figures.
func checkCopy(ctx context.Context, path string) (BackupInfo, error) {
	// A URI, escaped: the directory is the operator's and may hold '?' or '#'. VACUUM INTO
	// writes a rollback-journal database, so read-only needs no -wal or -shm beside it.
	dsn := "file:" + (&url.URL{Path: filepath.ToSlash(path)}).EscapedPath() + "?mode=ro"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: open the copy: %w", err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check(10)")
	if err != nil {
		return BackupInfo{}, fmt.Errorf("store: check the copy: %w", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return BackupInfo{}, fmt.Errorf("store: check the copy: %w", err)
		}
		problems = append(problems, line)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return BackupInfo{}, fmt.Errorf("store: check the copy: %w", err)
	}
	if len(problems) != 1 || problems[0] != "ok" {
		return BackupInfo{}, fmt.Errorf("store: the copy fails PRAGMA integrity_check: %s", strings.Join(problems, "; "))
	}
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
