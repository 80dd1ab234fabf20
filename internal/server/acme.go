package server

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// ACMEALPN is the protocol TLS-ALPN-01 challenges come in on: the TLS config offers it with ACME.
const ACMEALPN = acme.ALPNProto

// ACMEOptions say where certificates come from and where they are kept.
type ACMEOptions struct {
	Domains   []string // the only names a certificate is asked for
	Email     string   // the CA's contact for expiry notices ("" for none)
	Directory string   // the CA's directory URL
	CacheDir  string   // certificates and the account key, under the data directory
	// Roots are the CAs trusted for the directory's own HTTPS; nil: the system's (a private
	// CA, or a test CA such as Pebble's, needs its own).
	Roots *x509.CertPool
	// RenewBefore is how long before expiry a certificate is renewed; 0: autocert's 30 days.
	RenewBefore time.Duration
}

// NewACME returns the certificate manager (golang.org/x/crypto/acme/autocert): a certificate
// per domain, obtained on the first handshake that names it, cached in CacheDir (so a restart
// asks the CA for nothing) and renewed in the background before it expires. Its
// GetCertificate goes in the TLS config, with acme.ALPNProto among the protocols (TLS-ALPN-01
// challenges), and its HTTPHandler on the plain-HTTP listener (HTTP-01 challenges).
func NewACME(o ACMEOptions) *autocert.Manager {
	m := &autocert.Manager{
		Prompt:      autocert.AcceptTOS,
		Cache:       autocert.DirCache(o.CacheDir),
		HostPolicy:  autocert.HostWhitelist(o.Domains...),
		Email:       o.Email,
		RenewBefore: o.RenewBefore,
		Client:      &acme.Client{DirectoryURL: o.Directory},
	}
	if o.Roots != nil {
		m.Client.HTTPClient = &http.Client{
			Timeout:   30 * time.Second,
			Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: o.Roots, MinVersion: tls.VersionTLS12}},
		}
	}
	return m
}
