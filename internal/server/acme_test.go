package server

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"handy/internal/handytest"
)

// pebbleVersion is Let's Encrypt's test CA, built from the Go module proxy by the test itself.
const pebbleVersion = "github.com/letsencrypt/pebble/v2@v2.10.1"

// TestACMEWithPebble obtains a real certificate from Pebble on a first handshake, checks that
// it chains to Pebble's root and is cached, then sees it renewed: with RenewBefore longer than
// the certificate's validity, the manager renews at once in the background, and the next
// handshakes get the new one.
func TestACMEWithPebble(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pebble, moduleDir := installPebble(t, dir)
	listen, manage := freeAddr(t), freeAddr(t)
	config := map[string]any{"pebble": map[string]any{
		"listenAddress": listen, "managementListenAddress": manage,
		"certificate": filepath.Join(moduleDir, "test/certs/localhost/cert.pem"),
		"privateKey":  filepath.Join(moduleDir, "test/certs/localhost/key.pem"),
		"httpPort":    5002, "tlsPort": 5001, "ocspResponderURL": "", "externalAccountBindingRequired": false,
		"retryAfter": map[string]int{"authz": 1, "order": 1},
		"profiles":   map[string]any{"default": map[string]any{"description": "an hour", "validityPeriod": 3600}},
	}}
	raw, _ := json.Marshal(config)
	os.WriteFile(filepath.Join(dir, "pebble.json"), raw, 0o600)
	cmd := exec.Command(pebble, "-config", filepath.Join(dir, "pebble.json"))
	// Every challenge counts as passed (the test names a host no resolver knows) and no nonce is
	// refused at random: the rest of the protocol is Pebble's, as strict as Let's Encrypt's.
	cmd.Env = append(os.Environ(), "PEBBLE_VA_ALWAYS_VALID=1", "PEBBLE_WFE_NONCEREJECT=0")
	var log syncBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })

	roots := x509.NewCertPool()
	minica, err := os.ReadFile(filepath.Join(moduleDir, "test/certs/pebble.minica.pem"))
	if err != nil || !roots.AppendCertsFromPEM(minica) {
		t.Fatalf("pebble's minica: %v", err)
	}
	caClient := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	waitFor(t, func() error { return get(caClient, "https://"+listen+"/dir", nil) }, &log)

	cache := filepath.Join(dir, "acme")
	m := NewACME(ACMEOptions{Domains: []string{"handy.test"}, Email: "ops@handy.test", Directory: "https://" + listen + "/dir",
		CacheDir: cache, Roots: roots, RenewBefore: 2 * time.Hour})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tlsLn := tls.NewListener(ln, TLSConfig(m.GetCertificate, ACMEALPN))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })}
	go srv.Serve(tlsLn)
	t.Cleanup(func() { srv.Close() })

	// Pebble's issuing root, from its management interface.
	var issuer []byte
	waitFor(t, func() error { return get(caClient, "https://"+manage+"/roots/0", &issuer) }, &log)
	issuers := x509.NewCertPool()
	if !issuers.AppendCertsFromPEM(issuer) {
		t.Fatalf("pebble's root: %q", issuer)
	}
	serial := func() (string, error) {
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 30 * time.Second}, "tcp", ln.Addr().String(), &tls.Config{ServerName: "handy.test", RootCAs: issuers})
		if err != nil {
			return "", err
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].SerialNumber.String(), nil
	}
	first, err := serial() // verified against Pebble's root by the handshake itself
	if err != nil {
		t.Fatalf("the first handshake (obtaining the certificate): %v\npebble:\n%s", err, log.String())
	}
	if entries, _ := os.ReadDir(cache); len(entries) < 2 { // the account key and the certificate
		t.Errorf("the cache holds %d files, want the account key and the certificate", len(entries))
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		s, err := serial()
		if err == nil && s != first {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no renewed certificate within 60 s (last %v %v)\npebble:\n%s", s, err, log.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
	if _, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{ServerName: "other.test", RootCAs: issuers}); err == nil {
		t.Error("a certificate was obtained for a name outside -acme-domains")
	}
}

// installPebble builds Pebble into dir with `go install` (the module proxy, then Go's caches)
// and returns the binary and the module's source directory (its test certificates).
func installPebble(t *testing.T, dir string) (bin, moduleDir string) {
	t.Helper()
	install := exec.Command("go", "install", strings.Replace(pebbleVersion, "/v2@", "/v2/cmd/pebble@", 1))
	install.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install pebble: %v\n%s", err, out)
	}
	out, err := exec.Command("go", "mod", "download", "-json", pebbleVersion).Output()
	if err != nil {
		t.Fatalf("go mod download pebble: %v", err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download pebble: %q", out)
	}
	return filepath.Join(dir, "pebble"), mod.Dir
}

func freeAddr(t *testing.T) string {
	t.Helper()
	addr, err := handytest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// get reads url into *body (when given); a status other than 200 is an error.
func get(c *http.Client, url string, body *[]byte) error {
	res, err := c.Get(url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %d", url, res.StatusCode)
	}
	if body != nil {
		*body = b
	}
	return err
}

func waitFor(t *testing.T, try func() error, log fmt.Stringer) {
	t.Helper()
	var err error
	for range 100 {
		if err = try(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%v\npebble:\n%s", err, log)
}
