package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
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

// observatory is the MDN HTTP Observatory's scanner (npm), installed by the test where missing.
const observatory = "@mdn/mdn-http-observatory@1.4.8"

// TestObservatoryGrade serves handy alone with TLS on 127.0.0.2, ports 443 and 80 (the
// Observatory grades TLS and the redirect only there; the tests run as root), with a
// self-signed certificate the scanner is told to trust, and wants an A+.
func TestObservatoryGrade(t *testing.T) {
	bin := buildHandy(t)
	scanner := installObservatory(t)
	dir := t.TempDir()
	certPEM := writeCert(t, dir)

	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(certPEM)
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	handytest.StartT(t, handytest.Options{Bin: bin, Addr: "127.0.0.2:443", Scheme: "https", PublicURL: "https://127.0.0.2",
		DataDir: filepath.Join(dir, "data"), Client: client,
		Args: []string{"-http-addr", "127.0.0.2:80", "-tls-cert", filepath.Join(dir, "cert.pem"), "-tls-key", filepath.Join(dir, "key.pem")}})

	script := `import(process.argv[1]).then((m) => m.scan('127.0.0.2')).then((r) => console.log(JSON.stringify({
		grade: r.scan.grade, score: r.scan.score,
		tests: Object.fromEntries(Object.entries(r.tests).map(([k, v]) => [k, v.result]))})))`
	scan := exec.Command("node", "-e", script, filepath.Join(scanner, "src/scanner/index.js"))
	scan.Env = append(os.Environ(), "NODE_EXTRA_CA_CERTS="+filepath.Join(dir, "cert.pem"))
	out, err := scan.Output()
	if err != nil {
		t.Fatalf("the Observatory's scan: %v\n%s", err, out)
	}
	var result struct {
		Grade string            `json:"grade"`
		Score int               `json:"score"`
		Tests map[string]string `json:"tests"`
	}
	if err := json.Unmarshal(out, &result); err != nil {
		t.Fatalf("the scan's answer %q: %v", out, err)
	}
	t.Logf("MDN HTTP Observatory: %s (%d)", result.Grade, result.Score)
	if result.Grade != "A+" {
		t.Errorf("grade %s (%d), want A+; tests: %v", result.Grade, result.Score, result.Tests)
	}
}

// installObservatory installs the scanner under the user's cache directory where missing:
// without its install script, which downloads lists from the internet, and with an empty HSTS
// preload list (the test host is in no such list anyway).
func installObservatory(t *testing.T) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "handy-observatory", strings.ReplaceAll(observatory, "/", "_"))
	pkg := filepath.Join(prefix, "node_modules/@mdn/mdn-http-observatory")
	if _, err := os.Stat(filepath.Join(pkg, "src/scanner/index.js")); err != nil {
		install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", prefix, observatory)
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install %s: %v\n%s", observatory, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(pkg, "conf/hsts-preload.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	return pkg
}

// writeCert writes a self-signed certificate for 127.0.0.2 and its key into dir.
func writeCert(t *testing.T, dir string) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.2"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.2")},
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	os.WriteFile(filepath.Join(dir, "cert.pem"), certPEM, 0o600)
	os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	return certPEM
}
