package main

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for creating the benchmark's database

	"handy/scripts/proclog"
)

// handyProc is a handy started for the benchmark.
type handyProc struct {
	cmd    *exec.Cmd
	base   string
	token  string
	exited chan error
	log    *proclog.Buffer

	stopOnce sync.Once
	stopErr  error
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
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	args := []string{"-addr", addr, "-public-url", "http://" + addr, "-data-dir", dir, "-admin-token-file", tokenFile, "-log-level", "warn"}
	if dbURL != "" {
		args = append(args, "-database-url", dbURL)
	}
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HANDY_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	p := &handyProc{cmd: cmd, base: "http://" + addr, token: token, exited: make(chan error, 1), log: &proclog.Buffer{}}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() { p.exited <- cmd.Wait() }()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-p.exited:
			return nil, fmt.Errorf("handy exited at start-up: %v\n%s", err, p.log)
		default:
		}
		if res, err := http.Get(p.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p, nil
			}
		}
	}
	p.stop()
	return nil, fmt.Errorf("handy did not become ready within 60 s:\n%s", p.log)
}

// stop ends handy with SIGTERM (SIGKILL after 30 s) and returns its exit error; once stopped,
// it returns the same again.
func (p *handyProc) stop() error {
	p.stopOnce.Do(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case p.stopErr = <-p.exited:
		case <-time.After(30 * time.Second):
			p.cmd.Process.Kill()
			<-p.exited
			p.stopErr = errors.New("handy did not exit within 30 s of SIGTERM")
		}
	})
	return p.stopErr
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

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
