package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"handy/internal/docstore"
	"handy/internal/store"
)

// runRestored is `handy restored [flags]`, for the operator to run once a database was put
// back from a copy that handy backup did not prepare (pg_restore of a pg_dump; copied SQLite
// files): it moves the database's versions past any the old server handed out after the copy
// (docstore.MarkRestored), so that every browser that synced with the old server is reset on
// its next listen instead of keeping documents the restore lost and missing new changes. A copy
// written by handy backup needs nothing: it is marked already. Harmless if run twice: it only
// jumps again, and browsers reload their documents once more. It applies the migrations the
// database lacks first, as the server would.
func runRestored(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, code, ok := loadConfig("handy restored", args, getenv, stdout, stderr)
	if !ok {
		return code
	}
	if cfg.DatabaseURL == "" {
		// A mistyped -data-dir must not create an empty database and call it restored.
		if _, err := existingSQLite(cfg); err != nil {
			fmt.Fprintln(stderr, "handy restored:", err)
			return 1
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := openStore(ctx, cfg, cfg.Logger(stderr))
	if err != nil {
		fmt.Fprintln(stderr, "handy restored:", err)
		return 1
	}
	defer st.Close()
	var next int64
	err = st.InTx(ctx, func(tx *store.Tx) (err error) {
		next, err = docstore.MarkRestored(ctx, tx)
		return err
	})
	if err != nil {
		fmt.Fprintln(stderr, "handy restored:", err)
		return 1
	}
	fmt.Fprintf(stdout, "versions continue from %d: every browser that synced before reloads its documents from this database on its next listen\n", next)
	return 0
}
