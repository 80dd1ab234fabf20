package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
)

// DefaultTagManagerHost is Google Tag Manager's own origin.
const DefaultTagManagerHost = "https://www.googletagmanager.com"

// validContainerID reports whether s is GTM- followed by 4 to 12 capital letters or digits.
func validContainerID(s string) bool {
	rest, ok := strings.CutPrefix(s, "GTM-")
	if !ok || len(rest) < 4 || len(rest) > 12 {
		return false
	}
	for _, r := range rest {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// parseTagManagerHost validates the tag manager's origin: https, or http on a loopback address
// (a test's stand-in), a host name or IP address and an optional port. The origin goes into the
// pages' boot data and the CSP, so only characters that need no escaping in either get through.
func parseTagManagerHost(raw string) (string, error) {
	origin, err := parseOrigin(raw)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(origin)
	if err != nil {
		return "", fmt.Errorf("not a URL: %w", err)
	}
	host, port := u.Hostname(), u.Port()
	ip := net.ParseIP(host)
	switch {
	case ip != nil && ip.To4() == nil:
		return "", errors.New("must not be an IPv6 address, which a CSP cannot name")
	case ip == nil && !validHostName(host):
		return "", errors.New("must name a host such as www.googletagmanager.com")
	case strings.ContainsFunc(port, func(r rune) bool { return r < '0' || r > '9' }):
		return "", errors.New("must have a numeric port")
	case u.Scheme == "http" && (ip == nil || !ip.IsLoopback()):
		return "", errors.New("must be https (http only on a loopback address such as 127.0.0.1, for tests)")
	}
	return origin, nil
}

// maxTagManagerSources bounds the list, and so the CSP header every response carries.
const maxTagManagerSources = 16

// parseTagManagerSources validates a comma-separated list of origins as parseTagManagerHost does,
// where "*." may stand before a domain name (a CSP wildcard for all its subdomains, https only),
// and drops repeats.
func parseTagManagerSources(raw string) ([]string, error) {
	var sources []string
	for item := range strings.SplitSeq(raw, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		scheme, rest, _ := strings.Cut(item, "://")
		host, wildcard := strings.CutPrefix(rest, "*.")
		origin, err := parseTagManagerHost(scheme + "://" + host)
		switch {
		case err != nil:
			return nil, fmt.Errorf("%q: %w", item, err)
		case wildcard && (scheme != "https" || net.ParseIP(strings.Split(host, ":")[0]) != nil || !strings.Contains(host, ".")):
			return nil, fmt.Errorf("%q: *. goes before a domain of at least two labels, over https, such as https://*.google-analytics.com", item)
		case wildcard:
			origin = "https://*." + strings.TrimPrefix(origin, "https://")
		}
		if !slices.Contains(sources, origin) {
			sources = append(sources, origin)
		}
	}
	if len(sources) > maxTagManagerSources {
		return nil, fmt.Errorf("names %d origins; at most %d", len(sources), maxTagManagerSources)
	}
	return sources, nil
}
