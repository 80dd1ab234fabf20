// Package handytest starts the handy binary for a test or a benchmark: on a free loopback port,
// over a temporary data directory, with the flags and environment it is given, waits until
// /readyz answers 200, and stops it (SIGTERM, then waits) and cleans up afterwards. It is the
// one way the Go tests (cmd/handy) and the benchmarks (scripts/bench/) start a handy; only they
// import it, never a command's main. With Options.Container it runs an unpacked container
// image's entry point the way a container runtime would (deploy/'s image test).
package handytest

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Options say how to start handy. Only Bin is required.
type Options struct {
	// Bin is the binary to run.
	Bin string
	// Args are flags besides -addr, -public-url and -data-dir, which Start sets.
	Args []string
	// Env is added to the environment. HANDY_* variables of the caller's environment are never
	// passed on: the flags alone configure the server under test.
	Env []string
	// Addr is the address to listen on: "" for 127.0.0.1 and a free port.
	Addr string
	// Scheme is that of its URL, "http" (the default) or "https" (Args then name the
	// certificate).
	Scheme string
	// PublicURL is its -public-url: "" for Scheme://Addr.
	PublicURL string
	// DataDir is its -data-dir: "" for a fresh temporary directory, removed by Close.
	DataDir string
	// Client asks /readyz (set it to trust a test certificate): nil for one with a 2 s timeout.
	Client *http.Client
	// ReadyWithin bounds the wait for /readyz: 0 for 60 s.
	ReadyWithin time.Duration
	// Output, when set, also gets everything handy writes to stdout and stderr.
	Output io.Writer
	// Container, when set, runs Bin as a container runtime runs an image's entry point.
	Container *Container
}

// Container says how to run an unpacked image's entry point: Bin is a path inside Root, run
// chrooted there as UID:GID, in Dir, with Env (the image's environment) as its whole
// environment. The address and public URL are then given as HANDY_ADDR and HANDY_PUBLIC_URL
// after Env, as `podman run -e` would, rather than as flags, so that the image's health-check
// command run with Handy.Env finds the port; no -data-dir is given (the image's environment
// names it), and Options.DataDir is unused. It needs root.
type Container struct {
	Root     string
	UID, GID uint32
	Dir      string
	Env      []string
}

// Handy is a running handy process.
type Handy struct {
	// URL is its origin, Scheme://Addr (no trailing slash).
	URL string
	// Addr is the host:port it listens on.
	Addr string
	// DataDir is its data directory.
	DataDir string
	// Cmd is the process (Cmd.Process.Pid for its /proc figures).
	Cmd *exec.Cmd
	// Log is everything it wrote to stdout and stderr so far.
	Log *Log
	// Env is the environment of a container's entry point (with Options.Container).
	Env []string

	ownDir   bool
	exited   chan struct{}
	err      error // Wait's, once exited is closed
	stopOnce sync.Once
	stopErr  error
}

// Start starts handy as o says and waits until /readyz answers 200. On any failure the process
// is stopped and its temporary data directory removed; the error carries handy's log.
func Start(o Options) (*Handy, error) {
	if o.Scheme == "" {
		o.Scheme = "http"
	}
	h := &Handy{Addr: o.Addr, DataDir: o.DataDir, Log: &Log{}, exited: make(chan struct{})}
	if h.Addr == "" {
		addr, err := FreeAddr()
		if err != nil {
			return nil, err
		}
		h.Addr = addr
	}
	h.URL = o.Scheme + "://" + h.Addr
	public := o.PublicURL
	if public == "" {
		public = h.URL
	}
	if o.Container != nil {
		h.Cmd = containerCmd(o, h, public)
	} else if err := h.command(o, public); err != nil {
		return nil, err
	}
	var out io.Writer = h.Log
	if o.Output != nil {
		out = io.MultiWriter(h.Log, o.Output)
	}
	h.Cmd.Stdout, h.Cmd.Stderr = out, out
	if err := h.Cmd.Start(); err != nil {
		h.removeDir()
		return nil, fmt.Errorf("handytest: start %s: %w", o.Bin, err)
	}
	go func() { h.err = h.Cmd.Wait(); close(h.exited) }()
	if err := h.waitReady(o); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// command is the binary run with flags, over DataDir or a fresh temporary directory.
func (h *Handy) command(o Options, public string) error {
	if h.DataDir == "" {
		dir, err := os.MkdirTemp("", "handy-test-")
		if err != nil {
			return fmt.Errorf("handytest: data directory: %w", err)
		}
		h.DataDir, h.ownDir = dir, true
	}
	args := append([]string{"-addr", h.Addr, "-public-url", public, "-data-dir", h.DataDir}, o.Args...)
	h.Cmd = exec.Command(o.Bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HANDY_") {
			h.Cmd.Env = append(h.Cmd.Env, kv)
		}
	}
	h.Cmd.Env = append(h.Cmd.Env, o.Env...)
	return nil
}

// containerCmd is o.Container's entry point, o.Bin with o.Args, chrooted and as its user.
func containerCmd(o Options, h *Handy, public string) *exec.Cmd {
	c := o.Container
	h.DataDir = ""
	h.Env = append(append(append([]string(nil), c.Env...), o.Env...), "HANDY_ADDR="+h.Addr, "HANDY_PUBLIC_URL="+public)
	// Path is not looked up on the host: the kernel resolves it after the chroot.
	cmd := &exec.Cmd{Path: o.Bin, Args: append([]string{o.Bin}, o.Args...), Env: h.Env, Dir: c.Dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: c.Root, Credential: &syscall.Credential{Uid: c.UID, Gid: c.GID}}
	return cmd
}

// waitReady polls /readyz until it answers 200, handy exits or o.ReadyWithin passes.
func (h *Handy) waitReady(o Options) error {
	client, within := o.Client, o.ReadyWithin
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Second}
	}
	if within == 0 {
		within = 60 * time.Second
	}
	deadline := time.After(within)
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	for {
		res, err := client.Get(h.URL + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("status %d", res.StatusCode)
		}
		select {
		case <-h.exited:
			return fmt.Errorf("handytest: handy exited at start-up: %v\n%s", h.err, h.Log)
		case <-deadline:
			return fmt.Errorf("handytest: %s/readyz not 200 within %s (%v):\n%s", h.URL, within, err, h.Log)
		case <-poll.C:
		}
	}
}

// Exited is closed once the process has exited; Err is then its exit error.
func (h *Handy) Exited() <-chan struct{} { return h.exited }

// Err is the process's exit error, once Exited is closed.
func (h *Handy) Err() error { <-h.exited; return h.err }

// Signal sends sig and waits for the process to exit (SIGKILL after 30 s), returning its exit
// error (an *exec.ExitError for a signal or a non-zero status). Once it has exited, every call
// returns the same.
func (h *Handy) Signal(sig os.Signal) error {
	h.stopOnce.Do(func() {
		select {
		case <-h.exited:
		default:
			h.Cmd.Process.Signal(sig)
		}
		select {
		case <-h.exited:
			h.stopErr = h.err
		case <-time.After(30 * time.Second):
			h.Cmd.Process.Kill()
			<-h.exited
			h.stopErr = fmt.Errorf("handytest: handy did not exit within 30 s of %v:\n%s", sig, h.Log)
		}
	})
	return h.stopErr
}

// Stop ends handy with SIGTERM, as an operator would, and returns its exit error.
func (h *Handy) Stop() error { return h.Signal(syscall.SIGTERM) }

// Close stops handy if it runs and removes the data directory Start made.
func (h *Handy) Close() error {
	err := h.Stop()
	h.removeDir()
	return err
}

func (h *Handy) removeDir() {
	if h.ownDir {
		os.RemoveAll(h.DataDir)
	}
}

// StartT is Start for a test: it fails the test on an error and stops handy when the test ends
// (before t.TempDir's directories go).
func StartT(t testing.TB, o Options) *Handy {
	t.Helper()
	h, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-h.exited:
		default:
			h.Cmd.Process.Kill() // a failed test leaves no process behind
		}
		h.Close()
	})
	return h
}

// Build builds the handy command (./cmd/handy of the module) into a temporary directory, without
// -race: it is the system under test, not the test.
func Build(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "handy")
	start := time.Now()
	out, err := exec.Command(goTool, "build", "-o", bin, "handy/cmd/handy").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Logf("built %s in %s", bin, time.Since(start).Round(time.Millisecond))
	return bin
}

// FreePort is a loopback TCP port nothing listens on right now: a server started on it a
// moment later fails fast should another have taken it since.
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("handytest: free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// FreeAddr is 127.0.0.1:FreePort().
func FreeAddr() (string, error) {
	port, err := FreePort()
	if err != nil {
		return "", err
	}
	return "127.0.0.1:" + strconv.Itoa(port), nil
}

// Log is a process's output: written by exec's copier, read at any time.
type Log struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
