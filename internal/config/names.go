package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// validHeaderName reports whether s is an HTTP header name (token characters only).
func validHeaderName(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return s != ""
}

// parseOrigin validates an absolute http(s) URL without path, query or fragment and returns
// it as an origin ("https://handy.example"); a lone trailing slash is allowed.
func parseOrigin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("not a URL: %w", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", errors.New("must start with http:// or https://")
	case u.Host == "" || u.Hostname() == "":
		return "", errors.New("must name a host")
	case u.User != nil:
		return "", errors.New("must not hold user information")
	case u.Path != "" && u.Path != "/", u.RawQuery != "", u.ForceQuery, u.Fragment != "":
		return "", errors.New("must be an origin without path, query or fragment")
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), nil
}

// validHostName reports whether s is a DNS name: dot-separated labels of letters, digits and
// inner hyphens.
func validHostName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}
