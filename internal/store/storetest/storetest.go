// Package storetest runs a test against both engines: a fresh SQLite database in a temporary
// directory, and a fresh database in a throwaway PostgreSQL cluster.
//
// The cluster is HANDY_TEST_DATABASE_URL's (an admin URL, e.g. postgres://postgres@127.0.0.1:5432/postgres)
// when it is set: `make test` runs the Go tests under scripts/tools/with-postgres.sh, which starts one
// cluster for every test binary. Otherwise each test binary starts its own with Debian's
// PostgreSQL binaries (initdb, pg_ctl from /usr/lib/postgresql/*/bin, as the postgres user when
// run as root) on a free port and stops it when the tests end. Missing binaries fail the tests,
// never skip them: `make test` installs them (scripts/tools/ensure-tools.sh).
//
// A test's database is a copy of a template migrated once per cluster (CREATE DATABASE …
// TEMPLATE), which costs a fraction of migrating every database.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"handy/internal/handytest"
	"handy/internal/store"
)

// Engine is one database engine to run a test against.
type Engine struct {
	Name string
	// Open returns a migrated, empty store that is closed (and dropped) when the test ends.
	Open func(t testing.TB) *store.Store
}

// Engines returns SQLite and PostgreSQL.
func Engines() []Engine {
	return []Engine{{Name: store.SQLite, Open: openSQLite}, {Name: store.Postgres, Open: openPostgres}}
}

// Run runs fn as a subtest once per engine.
func Run(t *testing.T, fn func(t *testing.T, st *store.Store)) {
	for _, e := range Engines() {
		t.Run(e.Name, func(t *testing.T) { fn(t, e.Open(t)) })
	}
}

func openSQLite(t testing.TB) *store.Store {
	t.Helper()
	return migrated(t, "", t.TempDir())
}

func migrated(t testing.TB, url, dir string) *store.Store {
	t.Helper()
	st := open(t, url, dir)
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

func open(t testing.TB, url, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var dbSeq atomic.Int64

// openPostgres creates a migrated database of its own in the cluster, so that tests run in
// parallel.
func openPostgres(t testing.TB) *store.Store {
	t.Helper()
	admin := Cluster(t)
	tmpl, err := migratedTemplate(admin)
	if err != nil {
		t.Fatalf("PostgreSQL for the tests: %v", err)
	}
	return open(t, newDatabase(t, admin, tmpl), "")
}

// URL returns the URL of a fresh, empty (not migrated) PostgreSQL database, dropped when the
// test ends.
func URL(t testing.TB) string {
	t.Helper()
	return newDatabase(t, Cluster(t), "")
}

// newDatabase creates a database in the cluster of admin, a copy of template when it is not
// empty, and returns its URL; it is dropped when the test ends.
func newDatabase(t testing.TB, admin, template string) string {
	t.Helper()
	name := fmt.Sprintf("handy_test_%d_%d", os.Getpid(), dbSeq.Add(1))
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	if _, err := db.Exec(create); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	// Registered before the store's own Close (cleanups run last first), so it runs after it.
	t.Cleanup(func() {
		if db, err := sql.Open("pgx", admin); err == nil {
			db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
			db.Close()
		}
	})
	return withDatabase(admin, name)
}

func withDatabase(admin, name string) string {
	i := strings.LastIndex(admin, "/")
	rest := ""
	if q := strings.Index(admin[i:], "?"); q >= 0 {
		rest = admin[i+q:]
	}
	return admin[:i+1] + name + rest
}

var (
	clusterOnce sync.Once
	clusterURL  string
	clusterErr  error
	clusterStop func()
)

// Cluster returns the admin URL of the test cluster, starting it on first use.
func Cluster(t testing.TB) string {
	t.Helper()
	clusterOnce.Do(func() {
		if url := os.Getenv("HANDY_TEST_DATABASE_URL"); url != "" {
			clusterURL = url
			return
		}
		clusterURL, clusterStop, clusterErr = startCluster()
	})
	if clusterErr != nil {
		t.Fatalf("PostgreSQL for the tests: %v", clusterErr)
	}
	return clusterURL
}

// Main runs the package's tests and stops the cluster it may have started. Use it in TestMain.
func Main(m *testing.M) int {
	code := m.Run()
	if clusterStop != nil {
		clusterStop()
	}
	return code
}

// startCluster initialises a cluster in a temporary directory and starts it on a free port.
func startCluster() (string, func(), error) {
	bin, err := postgresBin()
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "handy-pg-")
	if err != nil {
		return "", nil, err
	}
	// initdb and postgres refuse to run as root: run them as the postgres user.
	var asUser []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return "", nil, fmt.Errorf("running as root needs the postgres user (Debian's postgresql package creates it): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return "", nil, err
		}
		asUser = []string{"runuser", "-u", "postgres", "--"}
	}
	run := func(args ...string) error {
		full := append(append([]string{}, asUser...), args...)
		out, err := exec.Command(full[0], full[1:]...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	data := filepath.Join(dir, "data")
	if err := run(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	port, err := handytest.FreePort()
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s -c fsync=off -c max_connections=200", port, dir)
	if err := run(filepath.Join(bin, "pg_ctl"), "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start"); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	stop := func() {
		run(filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
		os.RemoveAll(dir)
	}
	url := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	// The server accepts connections a moment after pg_ctl returns on slow machines.
	for i := 0; i < 100; i++ {
		db, err := sql.Open("pgx", url)
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		if err == nil {
			return url, stop, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	stop()
	return "", nil, fmt.Errorf("the test cluster on port %d does not answer", port)
}

// postgresBin finds Debian's PostgreSQL binaries, the newest version first.
func postgresBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin: install Debian's postgresql (scripts/tools/ensure-tools.sh does), or set HANDY_TEST_DATABASE_URL")
}

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}
