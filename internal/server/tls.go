package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// CertFiles serves a certificate and key from files, and reloads them when they change, so that
// renewing a certificate (certbot, a cron job) needs no restart. A failed reload (a half-written
// file) keeps the certificate in use and is logged; the next handshake tries again.
type CertFiles struct {
	certFile, keyFile string
	logger            *slog.Logger
	checkEvery        time.Duration

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   string // the files' sizes and modification times when cert was read
	checked time.Time
}

// NewCertFiles reads the certificate and key; an error names what is wrong with them.
func NewCertFiles(certFile, keyFile string, logger *slog.Logger) (*CertFiles, error) {
	c := &CertFiles{certFile: certFile, keyFile: keyFile, logger: logger, checkEvery: time.Second}
	stamp, err := c.stampNow()
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: load %s and %s: %w", certFile, keyFile, err)
	}
	c.cert, c.stamp, c.checked = &cert, stamp, time.Now()
	return c, nil
}

// stampNow describes the two files as they are now.
func (c *CertFiles) stampNow() (string, error) {
	stamp := ""
	for _, f := range []string{c.certFile, c.keyFile} {
		fi, err := os.Stat(f)
		if err != nil {
			return "", fmt.Errorf("tls: %w", err)
		}
		stamp += fmt.Sprintf("%d.%d;", fi.Size(), fi.ModTime().UnixNano())
	}
	return stamp, nil
}

// GetCertificate is tls.Config's hook: the current certificate, read again when the files
// changed (checked at most once a second).
func (c *CertFiles) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := time.Now(); now.Sub(c.checked) >= c.checkEvery {
		c.checked = now
		if stamp, err := c.stampNow(); err == nil && stamp != c.stamp {
			cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
			if err != nil {
				c.logger.Warn("tls: the certificate files changed but do not load; keeping the previous certificate", slog.String("error", err.Error()))
			} else {
				c.cert, c.stamp = &cert, stamp
				c.logger.Info("tls: certificate reloaded", slog.String("cert", c.certFile))
			}
		}
	}
	return c.cert, nil
}

// TLSConfig is the TLS every listener of handy uses: TLS 1.2 and later, forward-secret AEAD
// suites only (TLS 1.3's are all of that kind), HTTP/2 offered first, then any extra protocols
// (ACME's TLS-ALPN-01).
func TLSConfig(getCertificate func(*tls.ClientHelloInfo) (*tls.Certificate, error), extraProtos ...string) *tls.Config {
	return &tls.Config{
		MinVersion:     tls.VersionTLS12,
		GetCertificate: getCertificate,
		NextProtos:     append([]string{"h2", "http/1.1"}, extraProtos...),
		CipherSuites: []uint16{
			tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
			tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
		},
	}
}

// RedirectToHTTPS is the plain-HTTP listener's handler: every request is sent, with 301, to
// the same path and query at the public https origin. (ACME's HTTP-01 challenges, when
// certificates come from an ACME CA, are answered before this.)
func RedirectToHTTPS(publicURL string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Connection"] = []string{"close"}
		http.Redirect(w, r, publicURL+r.URL.RequestURI(), http.StatusMovedPermanently)
	})
}

// NewRedirectServer is the plain-HTTP server around h, with the main server's timeouts.
func NewRedirectServer(addr string, h http.Handler, logger *slog.Logger) *http.Server {
	return newHTTPServer(addr, h, logger)
}

// ServeTLS accepts TLS connections (HTTP/2 and HTTP/1.1) on ln, with tlsConfig, until
// Shutdown. It returns nil after a shutdown.
func (s *Server) ServeTLS(ln net.Listener, tlsConfig *tls.Config) error {
	s.http.TLSConfig = tlsConfig
	if err := s.http.ServeTLS(ln, "", ""); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("server: serve TLS: %w", err)
	}
	return nil
}
