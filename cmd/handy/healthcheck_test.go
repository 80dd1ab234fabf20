package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"handy/internal/config"
	"handy/internal/handytest"
)

// TestHealthcheck runs `handy healthcheck -addr A` against a server answering 200, one
// answering 503 and an address nothing listens on: exit 0, then 1 and 1, each saying why.
func TestHealthcheck(t *testing.T) {
	t.Parallel()
	serve := func(status int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/healthz" {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(status)
		}))
		t.Cleanup(srv.Close)
		return srv.Listener.Addr().String()
	}
	closed, err := handytest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, addr string
		code       int
		out        string
	}{
		{"healthy", serve(http.StatusOK), 0, "ok"},
		{"unhealthy", serve(http.StatusServiceUnavailable), 1, "503"},
		{"not listening", closed, 1, "refused"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"healthcheck", "-addr", c.addr}, func(string) string { return "" }, nil, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.out) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d and %q", c.name, code, stdout.String(), stderr.String(), c.code, c.out)
		}
	}
}

// TestHealthTarget: an address on every interface is asked on loopback, and with TLS over
// HTTPS without verifying the certificate (an ACME certificate names the public host).
func TestHealthTarget(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		":8080":          "http://127.0.0.1:8080/healthz",
		"0.0.0.0:8080":   "http://127.0.0.1:8080/healthz",
		"[::]:8080":      "http://127.0.0.1:8080/healthz",
		"localhost:8080": "http://localhost:8080/healthz",
		"10.0.0.5:80":    "http://10.0.0.5:80/healthz",
	} {
		got, _, err := healthTarget(config.Config{Addr: addr})
		if err != nil || got != want {
			t.Errorf("healthTarget(%q) = %q, %v; want %q", addr, got, err, want)
		}
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	target, client, err := healthTarget(config.Config{Addr: srv.Listener.Addr().String(), TLSCert: "cert.pem", PublicURL: "https://handy.example"})
	if err != nil || !strings.HasPrefix(target, "https://") {
		t.Fatalf("healthTarget with TLS = %q, %v", target, err)
	}
	res, err := client.Get(target)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("over TLS: %s", res.Status)
	}
}
