package main

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for creating the benchmark's database

	"handy/internal/handytest"
)

// handyProc is a handy started for the benchmark, with its admin token.
type handyProc struct {
	*handytest.Handy
	base  string
	token string
}

// startHandy starts bin on a free loopback port over the data directory dir (SQLite) or the
// database dbURL, with a fresh admin token, and waits until it is ready. HANDY_* variables of
// the environment are not passed on: the benchmark's flags alone configure it.
func startHandy(bin, dir, dbURL string) (*handyProc, error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	token := hex.EncodeToString(secret)
	tokenFile := filepath.Join(dir, "admin-token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("write the admin token: %w", err)
	}
	args := []string{"-admin-token-file", tokenFile, "-log-level", "warn"}
	if dbURL != "" {
		args = append(args, "-database-url", dbURL)
	}
	h, err := handytest.Start(handytest.Options{Bin: bin, DataDir: dir, Args: args})
	if err != nil {
		return nil, err
	}
	return &handyProc{Handy: h, base: h.URL, token: token}, nil
}

// stop ends handy with SIGTERM (SIGKILL after 30 s) and returns its exit error; once stopped,
// it returns the same again.
func (p *handyProc) stop() error { return p.Stop() }

// createDatabase makes an empty database in the cluster of the admin URL and returns its URL
// and a function that drops it.
func createDatabase(admin string) (string, func(), error) {
	name := fmt.Sprintf("handy_benchstats_%d", os.Getpid())
	db, err := sql.Open("pgx", admin)
	if err != nil {
		return "", nil, fmt.Errorf("connect to %s: %w", redact(admin), err)
	}
	defer db.Close()
	if _, err := db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
		return "", nil, fmt.Errorf("drop an old %s: %w", name, err)
	}
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		return "", nil, fmt.Errorf("create %s: %w", name, err)
	}
	drop := func() {
		if db, err := sql.Open("pgx", admin); err == nil {
			if _, err := db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
				fmt.Fprintf(os.Stderr, "benchstats: drop %s: %v\n", name, err)
			}
			db.Close()
		}
	}
	i := strings.LastIndex(admin, "/")
	rest := ""
	if q := strings.Index(admin[i:], "?"); q >= 0 {
		rest = admin[i+q:]
	}
	return admin[:i+1] + name + rest, drop, nil
}

// redact hides a URL's password, for messages.
func redact(u string) string {
	if at := strings.Index(u, "@"); at >= 0 {
		if c := strings.Index(u, "://"); c >= 0 && c < at {
			return u[:c+3] + "…" + u[at:]
		}
	}
	return u
}
