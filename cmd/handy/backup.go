package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"handy/internal/backup"
	"handy/internal/config"
	"handy/internal/docstore"
	"handy/internal/store"
)

// runBackup is `handy backup [-force] [flags] DEST`: a checked copy of the SQLite database the
// flags name, written while the server may keep serving from it (a second process reading a
// WAL database blocks no writer), through the store.Backup the server's schedule uses. It
// neither creates nor migrates a database: a copy is of what is there.
func runBackup(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	force, dest, rest, err := splitBackupArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, "handy backup:", err)
		return 2
	}
	cfg, err := config.Load(rest, getenv)
	if errors.Is(err, flag.ErrHelp) {
		if err := config.Usage(stdout); err != nil {
			return 1
		}
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "handy backup:", err)
		return 2
	}
	if dest == "" {
		fmt.Fprintln(stderr, "handy backup: name the file to write: handy backup [-force] [flags] DEST")
		return 2
	}
	if cfg.DatabaseURL != "" {
		fmt.Fprintf(stderr, "handy backup: the database is PostgreSQL (-database-url, HANDY_DATABASE_URL): back it up with pg_dump, e.g.\n"+
			"  pg_dump -Fc -f handy-$(date -u +%s).dump \"$HANDY_DATABASE_URL\"\n"+
			"and restore it with pg_restore (docs/operations.md, Backups and restore)\n", "%Y%m%dT%H%M%SZ")
		return 1
	}
	// store.Open would create an empty database: a mistyped -data-dir must not back that up.
	live, err := existingSQLite(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "handy backup:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := store.Open(ctx, "", cfg.DataDir)
	if err != nil {
		fmt.Fprintln(stderr, "handy backup:", err)
		return 1
	}
	defer st.Close()
	info, err := st.Backup(ctx, dest, force, docstore.MarkRestored)
	if errors.Is(err, store.ErrBackupExists) {
		fmt.Fprintf(stderr, "handy backup: %s exists: name another file, or give -force to replace it\n", dest)
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "handy backup:", err)
		return 1
	}
	if err := printBackup(stdout, live, info); err != nil {
		fmt.Fprintln(stderr, "handy backup:", err)
		return 1
	}
	return 0
}

// existingSQLite returns the absolute path of the SQLite database cfg names, or an error
// saying that there is none: store.Open would create it.
func existingSQLite(cfg config.Config) (string, error) {
	live, err := filepath.Abs(filepath.Join(cfg.DataDir, store.SQLiteFile))
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(live); err != nil {
		return "", fmt.Errorf("no database at %s (%w): give the server's -data-dir (HANDY_DATA_DIR)", live, err)
	}
	return live, nil
}

// splitBackupArgs takes -force and the one destination out of args, leaving the server's
// flags to config.Load. Every flag of config takes a value, so a word that follows a flag
// without "=" is that flag's value, and any other word is the destination.
func splitBackupArgs(args []string) (force bool, dest string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			if dest != "" {
				return false, "", nil, fmt.Errorf("one destination only, not %q and %q", dest, a)
			}
			dest = a
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "force" && hasValue:
			if force, err = strconv.ParseBool(value); err != nil {
				return false, "", nil, fmt.Errorf("-force=%s: want true or false", value)
			}
		case name == "force":
			force = true
		case hasValue || name == "h" || name == "help":
			rest = append(rest, a)
		default:
			rest = append(rest, a)
			if i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
		}
	}
	return force, dest, rest, nil
}

// printBackup says what was written: enough for an operator to see that it is whole and recent.
func printBackup(w io.Writer, live string, info store.BackupInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	newest := "none yet"
	if info.Version > 0 {
		newest = fmt.Sprintf("version %d at %s", info.Version, info.CommitTime.Format(time.RFC3339Nano))
	}
	fmt.Fprintf(tw, "backup of\t%s\n", live)
	fmt.Fprintf(tw, "written to\t%s\n", info.Path)
	fmt.Fprintf(tw, "size\t%s (%d bytes)\n", byteSize(info.Bytes), info.Bytes)
	fmt.Fprintf(tw, "integrity_check\tok\n")
	fmt.Fprintf(tw, "newest commit\t%s\n", newest)
	// A restore of the copy moves its versions past the live server's, so that browsers that
	// synced after the copy start again from it (docstore.MarkRestored).
	fmt.Fprintf(tw, "after a restore\tversions continue from %d\n", info.ContinueFrom)
	fmt.Fprintf(tw, "accounts\t%d\n", info.Users)
	fmt.Fprintf(tw, "documents\t%d\n", info.Documents)
	fmt.Fprintf(tw, "schema version\t%d\n", info.Schema)
	fmt.Fprintf(tw, "took\t%s\n", info.Took.Round(time.Millisecond))
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write the summary: %w", err)
	}
	return nil
}

// byteSize is n in the largest binary unit it reaches, to one decimal.
func byteSize(n int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, u := float64(n)/1024, 0
	for v >= 1024 && u < len(units)-1 {
		v, u = v/1024, u+1
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[u]
}

// startBackups runs the configured backup schedule, if any, until ctx ends or the returned
// stop is called; stop waits for it, so that the store is not closed under a backup.
func startBackups(ctx context.Context, cfg config.Config, st *store.Store, logger *slog.Logger) (stop func()) {
	if cfg.BackupDir == "" {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		backup.New(st, backup.Schedule{Dir: cfg.BackupDir, Every: cfg.BackupEvery, Keep: cfg.BackupKeep}, logger).Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}
