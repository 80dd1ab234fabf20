package storetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"handy/internal/store"
)

// templateLock is the advisory lock key under which one test binary at a time looks for, or
// makes, the template ("handytpl").
const templateLock = 0x68616e6479746d70

// template is this process's template database, made or found once.
var template = struct {
	once sync.Once
	name string
	err  error
}{}

// migratedTemplate returns the name of a database in the cluster of admin that holds the
// migrated, empty schema and that CREATE DATABASE … TEMPLATE can copy. Its name carries a hash
// of the migrations, so a cluster that outlives a change of them (a developer's own
// HANDY_TEST_DATABASE_URL) gets a new one. Several test binaries share the cluster: an advisory
// lock makes one of them create it while the others wait, then find it.
func migratedTemplate(admin string) (string, error) {
	template.once.Do(func() {
		template.name, template.err = findOrMakeTemplate(context.Background(), admin)
	})
	return template.name, template.err
}

func findOrMakeTemplate(ctx context.Context, admin string) (string, error) {
	all, err := store.Migrations(store.Postgres)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, m := range all {
		fmt.Fprintf(h, "%d %s\n", m.Version, m.Checksum)
	}
	name := "handy_template_" + hex.EncodeToString(h.Sum(nil))[:16]

	db, err := sql.Open("pgx", admin)
	if err != nil {
		return "", fmt.Errorf("template: %w", err)
	}
	defer db.Close()
	// A session-level advisory lock needs the one connection that took it.
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("template: connect: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", int64(templateLock)); err != nil {
		return "", fmt.Errorf("template: lock: %w", err)
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", int64(templateLock))

	// Only a finished template is marked IS_TEMPLATE; one left half-made by a crashed run is
	// dropped and made again.
	var ready bool
	err = conn.QueryRowContext(ctx, "SELECT datistemplate FROM pg_database WHERE datname = $1", name).Scan(&ready)
	switch {
	case err == nil && ready:
		return name, nil
	case err == nil:
		if _, err := conn.ExecContext(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			return "", fmt.Errorf("template: drop a half-made %s: %w", name, err)
		}
	case !errors.Is(err, sql.ErrNoRows):
		return "", fmt.Errorf("template: look up %s: %w", name, err)
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("template: create %s: %w", name, err)
	}
	if err := migrate(ctx, withDatabase(admin, name)); err != nil {
		return "", fmt.Errorf("template: %w", err)
	}
	// No connections: CREATE DATABASE … TEMPLATE refuses a source that has any.
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+name+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return "", fmt.Errorf("template: mark %s: %w", name, err)
	}
	return name, nil
}

func migrate(ctx context.Context, url string) error {
	st, err := store.Open(ctx, url, "")
	if err != nil {
		return err
	}
	defer st.Close()
	_, err = st.Migrate(ctx)
	return err
}
