package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"handy/internal/config"
	"handy/internal/site"
)

// selfSigned writes a certificate for 127.0.0.1 and localhost, with the given serial number,
// and its key, into dir; it returns the certificate.
func selfSigned(t *testing.T, dir string, serial int64) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "handy test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	return cert
}

// The certificate files are read again when they change, without a restart; a broken
// replacement keeps the one in use.
func TestCertificateReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	selfSigned(t, dir, 1)
	certs, err := NewCertFiles(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	certs.checkEvery = 0
	serial := func() int64 {
		c, err := certs.GetCertificate(nil)
		if err != nil {
			t.Fatal(err)
		}
		leaf, _ := x509.ParseCertificate(c.Certificate[0])
		return leaf.SerialNumber.Int64()
	}
	if s := serial(); s != 1 {
		t.Fatalf("serial %d, want 1", s)
	}
	selfSigned(t, dir, 2)
	later := time.Now().Add(time.Hour) // a modification time of its own, however fast the rewrite
	for _, name := range []string{"cert.pem", "key.pem"} {
		if err := os.Chtimes(filepath.Join(dir, name), later, later); err != nil {
			t.Fatal(err)
		}
	}
	if s := serial(); s != 2 {
		t.Errorf("after the files changed: serial %d, want 2", s)
	}
	os.WriteFile(filepath.Join(dir, "cert.pem"), []byte("half a certificate"), 0o600)
	if s := serial(); s != 2 {
		t.Errorf("after a broken replacement: serial %d, want 2 kept", s)
	}
	if _, err := NewCertFiles(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), slog.New(slog.DiscardHandler)); err == nil {
		t.Error("a broken certificate loaded at start")
	}
}

// Over TLS: HTTP/2, HSTS, TLS 1.2 at least and no CBC suite.
func TestServeTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	leaf := selfSigned(t, dir, 7)
	cfg, err := config.Load([]string{"-addr", "127.0.0.1:0", "-public-url", "https://localhost", "-tls-cert", filepath.Join(dir, "cert.pem"), "-tls-key", filepath.Join(dir, "key.pem")}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(cfg, site.Default(), fixtureDist(site.Default()), slog.New(slog.DiscardHandler), quickCompression)
	if err != nil {
		t.Fatal(err)
	}
	certs, err := NewCertFiles(cfg.TLSCert, cfg.TLSKey, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.ServeTLS(ln, TLSConfig(certs.GetCertificate))
	t.Cleanup(func() { s.Shutdown(t.Context()) })
	roots := x509.NewCertPool()
	roots.AddCert(leaf)
	client := func(c *tls.Config) *http.Client {
		c.RootCAs = roots
		return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: c, ForceAttemptHTTP2: true}}
	}
	res, err := client(&tls.Config{}).Get("https://" + ln.Addr().String() + "/de/faq")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.ProtoMajor != 2 {
		t.Errorf("GET /de/faq: %d over %s, want 200 over HTTP/2", res.StatusCode, res.Proto)
	}
	if hsts := res.Header.Get("Strict-Transport-Security"); hsts != "max-age=63072000; includeSubDomains" {
		t.Errorf("HSTS %q", hsts)
	}
	for name, c := range map[string]*tls.Config{
		"TLS 1.1":     {MaxVersion: tls.VersionTLS11},
		"a CBC suite": {MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA}},
	} {
		if res, err := client(c).Get("https://" + ln.Addr().String() + "/healthz"); err == nil {
			res.Body.Close()
			t.Errorf("%s: a connection was made", name)
		}
	}
}

func TestRedirectToHTTPS(t *testing.T) {
	t.Parallel()
	h := RedirectToHTTPS("https://handy.example")
	for target, want := range map[string]string{
		"/":                   "https://handy.example/",
		"/de/faq?x=1&y=%20":   "https://handy.example/de/faq?x=1&y=%20",
		"/.well-known/x":      "https://handy.example/.well-known/x",
		"http://evil.test/a?": "https://handy.example/a?",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != want {
			t.Errorf("%s: %d %q, want 301 %q", target, rec.Code, rec.Header().Get("Location"), want)
		}
	}
}
