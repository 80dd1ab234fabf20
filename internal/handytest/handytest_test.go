package handytest

import (
	"context"
	"flag"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
)

// TestMain lets the test binary stand in for handy: with FAKE_HANDY set it serves /readyz on
// -addr until SIGTERM (or, with FAKE_HANDY=exit, fails at once).
func TestMain(m *testing.M) {
	switch os.Getenv("FAKE_HANDY") {
	case "":
		os.Exit(m.Run())
	case "exit":
		os.Stderr.WriteString("fake handy: cannot start\n")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("handy", flag.ExitOnError)
	addr := fs.String("addr", "", "")
	fs.String("public-url", "", "")
	dir := fs.String("data-dir", "", "")
	fs.Parse(os.Args[1:])
	if _, err := os.Stat(*dir); err != nil {
		os.Exit(3)
	}
	srv := &http.Server{Addr: *addr, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
		}
	})}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); srv.Shutdown(context.Background()) }()
	os.Stderr.WriteString("fake handy: listening\n")
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		os.Exit(4)
	}
}

func TestStartStopClose(t *testing.T) {
	h, err := Start(Options{Bin: os.Args[0], Env: []string{"FAKE_HANDY=serve"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h.URL, "http://127.0.0.1:") || h.URL != "http://"+h.Addr {
		t.Errorf("URL %q, Addr %q", h.URL, h.Addr)
	}
	res, err := http.Get(h.URL + "/readyz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("/readyz: %v %v", res, err)
	}
	res.Body.Close()
	if err := h.Close(); err != nil {
		t.Errorf("Close: %v\n%s", err, h.Log)
	}
	if _, err := os.Stat(h.DataDir); !os.IsNotExist(err) {
		t.Errorf("the data directory %s is still there (%v)", h.DataDir, err)
	}
	if !strings.Contains(h.Log.String(), "fake handy: listening") {
		t.Errorf("log %q", h.Log)
	}
}

func TestStartFailsWithTheLog(t *testing.T) {
	dir := t.TempDir()
	_, err := Start(Options{Bin: os.Args[0], Env: []string{"FAKE_HANDY=exit"}, DataDir: dir})
	if err == nil || !strings.Contains(err.Error(), "exited at start-up") || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("error %v, want one that says it exited, with its log", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("a data directory it was given is gone: %v", err)
	}
}
