package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"handy/internal/config"
	"handy/internal/site"
	"log/slog"
)

// TestGracefulShutdown checks that Shutdown turns /readyz to 503 and lets an in-flight
// request finish before Serve returns.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	cfg := config.Config{PublicURL: httpOrigin}
	s, err := New(cfg, site.Default(), fixtureDist(site.Default()), slog.New(slog.NewTextHandler(io.Discard, nil)), quickCompression)
	if err != nil {
		t.Fatal(err)
	}
	inFlight := make(chan struct{})
	release := make(chan struct{})
	mux := s.routes()
	mux.Handle("GET /slow", s.handle(func(w http.ResponseWriter, r *http.Request) error {
		close(inFlight)
		<-release
		writeText(w, http.StatusOK, "done\n")
		return nil
	}))
	s.http.Handler = s.middleware(mux)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	base := "http://" + ln.Addr().String()

	slow := make(chan string, 1)
	go func() {
		res, err := http.Get(base + "/slow")
		if err != nil {
			slow <- err.Error()
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		slow <- string(b)
	}()
	<-inFlight

	shutdown := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		shutdown <- s.Shutdown(ctx)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for !s.draining.Load() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if res, _ := serve(t, s.Handler(), request{target: "/readyz"}); res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz while shutting down = %d, want 503", res.StatusCode)
	}
	if res, _ := serve(t, s.Handler(), request{target: "/healthz"}); res.StatusCode != http.StatusOK {
		t.Errorf("/healthz while shutting down = %d, want 200", res.StatusCode)
	}
	close(release)
	if got := <-slow; got != "done\n" {
		t.Errorf("in-flight request got %q, want it to finish", got)
	}
	if err := <-shutdown; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}
