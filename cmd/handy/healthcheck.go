package main

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"handy/internal/config"
)

// healthTimeout bounds the whole check: a server that cannot answer /healthz within it is not
// healthy, and a container runtime's own timeout (the image's is 5 s) should not have to kill
// the check.
const healthTimeout = 3 * time.Second

// runHealthcheck is `handy healthcheck [flags]`: GET /healthz from the server that the same
// flags and HANDY_* variables configure, on this machine, exiting 0 on a 200 and 1 otherwise. It
// is the container image's health check: a scratch image has no curl, and reading the server's
// own configuration finds its port (HANDY_ADDR) and scheme without repeating them.
func runHealthcheck(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, code, ok := loadConfig("handy healthcheck", args, getenv, stdout, stderr)
	if !ok {
		return code
	}
	target, client, err := healthTarget(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "handy healthcheck:", err)
		return 1
	}
	res, err := client.Get(target)
	if err != nil {
		fmt.Fprintln(stderr, "handy healthcheck:", err)
		return 1
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "handy healthcheck: %s answered %s\n", target, res.Status)
		return 1
	}
	fmt.Fprintln(stdout, "ok")
	return 0
}

// healthTarget is the /healthz URL of the server cfg configures, on loopback when it listens on
// every address, and the client to ask it with. With TLS the certificate is not verified: the
// check asks whether this machine's server answers, not who it is, and an ACME certificate names
// the public host, not 127.0.0.1 (that host is sent as the server name so that it picks it).
func healthTarget(cfg config.Config) (string, *http.Client, error) {
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return "", nil, fmt.Errorf("-addr %q: %w", cfg.Addr, err)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	client := &http.Client{Timeout: healthTimeout}
	scheme := "http"
	if cfg.TLS() {
		scheme = "https"
		serverName := ""
		if u, err := url.Parse(cfg.PublicURL); err == nil {
			serverName = u.Hostname()
		}
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{ServerName: serverName, InsecureSkipVerify: true}}
	}
	return scheme + "://" + net.JoinHostPort(host, port) + "/healthz", client, nil
}
