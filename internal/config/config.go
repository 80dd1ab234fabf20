// Package config loads the server's configuration from command-line flags, each with a HANDY_*
// environment variable as fallback: a flag given on the command line wins over the variable,
// which wins over the default.
package config

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Config is the server's configuration.
type Config struct {
	// Addr is the TCP address to listen on.
	Addr string
	// PublicURL is the origin visitors use ("https://handy.example"), without a trailing slash.
	// It is written into absolute URLs; when https, cookies are Secure and HSTS is sent.
	PublicURL string
	// LogLevel is the minimum level logged.
	LogLevel slog.Level
	// LogFormat is "text" or "json".
	LogFormat string
	// ShutdownTimeout bounds how long in-flight requests may take to finish on SIGTERM.
	ShutdownTimeout time.Duration
	// ContactEmail is the address the privacy policy and the terms give for questions; empty
	// means privacy@ the public host (see Contact).
	ContactEmail string
	// ClientIPHeader names the header a trusted reverse proxy puts the client's address in
	// (X-Forwarded-For, X-Real-IP, CF-Connecting-IP...); empty: the connection's address.
	ClientIPHeader string
	// DataDir holds the embedded SQLite database (when DatabaseURL is empty).
	DataDir string
	// DatabaseURL, a postgres:// URL, moves every table to PostgreSQL.
	DatabaseURL string
	// Jurisdiction names the law that governs the terms ("Germany"); empty leaves the terms'
	// own wording, "the country in which the operator is established".
	Jurisdiction string
	// AnalyticsRetention is how many days of daily page-view counts are kept before today;
	// older days are deleted hourly.
	AnalyticsRetention int
	// TLSCert and TLSKey are the certificate and key files handy serves HTTPS with (reloaded
	// when they change); empty: plain HTTP, as behind a proxy.
	TLSCert, TLSKey string
	// ACMEDomains are the names certificates are obtained for from an ACME CA (instead of
	// TLSCert and TLSKey); ACMEEmail is the CA's contact, ACMEDirectory its URL, ACMERoots a PEM
	// file of CAs to trust for the directory's own HTTPS ("" for the system's).
	ACMEDomains                         string // normalised, comma-separated: see ACMEHosts
	ACMEEmail, ACMEDirectory, ACMERoots string
	// HTTPAddr is the plain-HTTP listener that redirects to HTTPS, with TLS on; empty: none.
	HTTPAddr string
	// SignupLimit is how many accounts one network (an IPv4 address, an IPv6 /64) may open in
	// an hour.
	SignupLimit int
	// AdminToken is the operator's bearer token for GET /api/v1/stats; empty: the endpoint
	// does not exist (404).
	AdminToken string
	// TagManagerID is the tag manager's container id ("GTM-XXXX"); empty: no tag manager, no
	// consent banner, and a CSP that names no third party.
	TagManagerID string
	// TagManagerHost is the origin the container is loaded from; set only with TagManagerID.
	TagManagerHost string
	// TagManagerSources are the further origins the container's tags load from and send to,
	// normalised and comma-separated (a string, so that a Config compares with ==), each
	// "https://host" or "https://*.domain" (every subdomain); set only with TagManagerID.
	TagManagerSources string
}

// TagManagerOrigins returns the third parties the CSP allows: the container's origin, then the
// sources of its tags; none without a tag manager.
func (c Config) TagManagerOrigins() []string {
	if c.TagManagerID == "" {
		return nil
	}
	if c.TagManagerSources == "" {
		return []string{c.TagManagerHost}
	}
	return append([]string{c.TagManagerHost}, strings.Split(c.TagManagerSources, ",")...)
}

// TagManagerScript returns the URL of the tag manager's container script, or "" when no
// tag manager is configured. Validation leaves it nothing that needs escaping in HTML or JSON.
func (c Config) TagManagerScript() string {
	if c.TagManagerID == "" {
		return ""
	}
	return c.TagManagerHost + "/gtm.js?id=" + c.TagManagerID
}

// Contact returns the contact address: ContactEmail, or privacy@ the public URL's host.
func (c Config) Contact() string {
	if c.ContactEmail != "" {
		return c.ContactEmail
	}
	u, err := url.Parse(c.PublicURL)
	if err != nil || u.Hostname() == "" {
		return "privacy@localhost"
	}
	return "privacy@" + u.Hostname()
}

// HTTPS reports whether the site is served over HTTPS.
func (c Config) HTTPS() bool { return strings.HasPrefix(c.PublicURL, "https://") || c.TLS() }

// TLS reports whether handy serves HTTPS itself, from files or from an ACME CA.
func (c Config) TLS() bool { return c.TLSCert != "" || c.ACMEDomains != "" }

// ACMEHosts returns the names certificates are obtained for from the ACME CA.
func (c Config) ACMEHosts() []string {
	if c.ACMEDomains == "" {
		return nil
	}
	return strings.Split(c.ACMEDomains, ",")
}

// option is one configuration setting: its flag, variable, default and meaning.
type option struct {
	flag, env, def, usage string
	set                   func(c *Config, value string) error
}

// maxRetentionDays bounds -analytics-retention: a century.
const maxRetentionDays = 36500

// secretFlags are never echoed in errors: they may hold a password.
var secretFlags = map[string]bool{"database-url": true, "admin-token": true}

// MinAdminToken is the shortest admin token accepted: long enough that guessing it over the
// network is hopeless, so that the stats endpoint needs no rate limit of its own.
const MinAdminToken = 32

// options is the table of every setting, in -help order.
func options() []option {
	return []option{
		{"addr", "HANDY_ADDR", "localhost:8080", "TCP address to listen on", func(c *Config, v string) error {
			if v == "" {
				return errors.New("must not be empty")
			}
			c.Addr = v
			return nil
		}},
		{"public-url", "HANDY_PUBLIC_URL", "http://localhost:8080", "origin visitors use (absolute http(s) URL, no path); https turns on Secure cookies and HSTS", func(c *Config, v string) error {
			origin, err := parseOrigin(v)
			c.PublicURL = origin
			return err
		}},
		{"log-level", "HANDY_LOG_LEVEL", "info", "minimum log level: debug (also logs every request), info, warn or error", func(c *Config, v string) error {
			return c.LogLevel.UnmarshalText([]byte(v))
		}},
		{"log-format", "HANDY_LOG_FORMAT", "text", "log format: text or json", func(c *Config, v string) error {
			if v != "text" && v != "json" {
				return errors.New(`must be "text" or "json"`)
			}
			c.LogFormat = v
			return nil
		}},
		{"client-ip-header", "HANDY_CLIENT_IP_HEADER", "", "behind a reverse proxy: the header it sets to the client's address (e.g. X-Forwarded-For; its last entry is used), for sign-in rate limits, the sign-in log and counting unique visitors", func(c *Config, v string) error {
			if v != "" && !validHeaderName(v) {
				return errors.New("must be an HTTP header name such as X-Forwarded-For")
			}
			c.ClientIPHeader = v
			return nil
		}},
		{"data-dir", "HANDY_DATA_DIR", "data", "directory of the embedded SQLite database (unused with -database-url), the ACME certificates and the compressed pages kept for the next start; created on first start", func(c *Config, v string) error {
			if v == "" {
				return errors.New("must not be empty")
			}
			c.DataDir = v
			return nil
		}},
		{"database-url", "HANDY_DATABASE_URL", "", "postgres://user:password@host:5432/db?sslmode=... to keep every table in PostgreSQL instead of SQLite", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			u, err := url.Parse(v)
			if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "" {
				return errors.New("must be a postgres:// URL with a host")
			}
			c.DatabaseURL = v
			return nil
		}},
		{"analytics-retention", "HANDY_ANALYTICS_RETENTION", "400", "days of daily page-view counts to keep (400 or 400d); older days are deleted hourly", func(c *Config, v string) error {
			days, err := strconv.Atoi(strings.TrimSuffix(v, "d"))
			if err != nil || days < 1 || days > maxRetentionDays {
				return fmt.Errorf("must be a whole number of days from 1 to %d, such as 400", maxRetentionDays)
			}
			c.AnalyticsRetention = days
			return nil
		}},
		{"signup-limit", "HANDY_SIGNUP_LIMIT", "10", "accounts one network (an IPv4 address, an IPv6 /64) may open per hour; sign-ups from all networks together stop at 100 times this", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 1_000_000 {
				return errors.New("must be a whole number from 1 to 1000000, such as 10")
			}
			c.SignupLimit = n
			return nil
		}},
		{"admin-token", "HANDY_ADMIN_TOKEN", "", fmt.Sprintf("operator's bearer token (at least %d characters, e.g. openssl rand -hex 32) for GET /api/v1/stats; unset, the endpoint answers 404", MinAdminToken), func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			return c.setAdminToken(v)
		}},
		{"admin-token-file", "HANDY_ADMIN_TOKEN_FILE", "", "file holding the admin token (read at start-up, surrounding white space trimmed), instead of -admin-token", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if c.AdminToken != "" {
				return errors.New("set at most one of -admin-token (HANDY_ADMIN_TOKEN) and -admin-token-file (HANDY_ADMIN_TOKEN_FILE)")
			}
			data, err := os.ReadFile(v)
			if err != nil {
				return fmt.Errorf("cannot read the token file: %w", err)
			}
			return c.setAdminToken(strings.TrimSpace(string(data)))
		}},
		{"contact-email", "HANDY_CONTACT_EMAIL", "", "address the privacy policy and terms give for questions (default privacy@ the public URL's host)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			a, err := mail.ParseAddress(v)
			if err != nil || a.Name != "" || a.Address != v || strings.ContainsAny(v, `<>"&\'`) {
				return errors.New("must be a plain email address such as privacy@example.com")
			}
			c.ContactEmail = v
			return nil
		}},
		{"jurisdiction", "HANDY_JURISDICTION", "", "the law that governs the terms, as shown in them (\"Germany\"); default: the country where the operator is established", func(c *Config, v string) error {
			if len([]rune(v)) > 80 || strings.ContainsAny(v, `<>"&\`) || strings.ContainsFunc(v, unicode.IsControl) {
				return errors.New("must be plain text of at most 80 characters, without <, >, \", & or \\")
			}
			c.Jurisdiction = strings.TrimSpace(v)
			return nil
		}},
		{"tag-manager-id", "HANDY_TAG_MANAGER_ID", "", "Google Tag Manager container id (GTM- and 4 to 12 capital letters or digits); set, a consent banner asks each visitor and the container loads only after Accept", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if !validContainerID(v) {
				return errors.New("must be a container id such as GTM-AB12CD3: GTM- and 4 to 12 capital letters or digits")
			}
			c.TagManagerID = v
			return nil
		}},
		{"tag-manager-host", "HANDY_TAG_MANAGER_HOST", DefaultTagManagerHost, "origin the container is loaded from, allowed by the CSP (https; http only on a loopback address, for tests); used only with -tag-manager-id", func(c *Config, v string) error {
			origin, err := parseTagManagerHost(v)
			if err != nil {
				return err
			}
			if c.TagManagerID != "" { // set above: the table is applied in order
				c.TagManagerHost = origin
			}
			return nil
		}},
		{"tag-manager-sources", "HANDY_TAG_MANAGER_SOURCES", "", "further origins the container's tags load from or send to, allowed by the CSP, comma-separated (at most " + strconv.Itoa(maxTagManagerSources) + "); https, and *. before a domain for all its subdomains. For Google Analytics 4: https://*.google-analytics.com,https://*.analytics.google.com,https://*.googletagmanager.com. Used only with -tag-manager-id", func(c *Config, v string) error {
			sources, err := parseTagManagerSources(v)
			if err != nil {
				return err
			}
			if c.TagManagerID != "" {
				c.TagManagerSources = strings.Join(sources, ",")
			}
			return nil
		}},
		{"tls-cert", "HANDY_TLS_CERT", "", "certificate file (PEM, with its chain) to serve HTTPS with on -addr, reloaded when it changes; needs -tls-key and an https -public-url", func(c *Config, v string) error {
			c.TLSCert = v
			return nil
		}},
		{"tls-key", "HANDY_TLS_KEY", "", "private key file (PEM) of -tls-cert", func(c *Config, v string) error {
			if (c.TLSCert == "") != (v == "") {
				return errors.New("-tls-cert and -tls-key go together: give both, or neither")
			}
			if v != "" && !strings.HasPrefix(c.PublicURL, "https://") {
				return errors.New("with TLS on, -public-url must be the site's https:// address")
			}
			c.TLSKey = v
			return nil
		}},
		{"acme-domains", "HANDY_ACME_DOMAINS", "", "comma-separated host names to obtain certificates for from an ACME CA (instead of -tls-cert), cached under -data-dir/acme and renewed before they expire; needs an https -public-url", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if c.TLSCert != "" {
				return errors.New("certificates come from files (-tls-cert) or from an ACME CA (-acme-domains), not both")
			}
			if !strings.HasPrefix(c.PublicURL, "https://") {
				return errors.New("with TLS on, -public-url must be the site's https:// address")
			}
			var hosts []string
			for _, d := range strings.Split(v, ",") {
				d = strings.ToLower(strings.TrimSpace(d))
				if !strings.Contains(d, ".") || strings.ContainsAny(d, " /:*@") {
					return fmt.Errorf("%q is not a host name such as handy.example.com", d)
				}
				hosts = append(hosts, d)
			}
			c.ACMEDomains = strings.Join(hosts, ",")
			return nil
		}},
		{"acme-email", "HANDY_ACME_EMAIL", "", "contact address given to the ACME CA (expiry notices); optional", func(c *Config, v string) error {
			if v != "" && !strings.Contains(v, "@") {
				return errors.New("must be an email address")
			}
			c.ACMEEmail = v
			return nil
		}},
		{"acme-directory", "HANDY_ACME_DIRECTORY", "https://acme-v02.api.letsencrypt.org/directory", "the ACME CA's directory URL (Let's Encrypt by default; its staging directory for trials)", func(c *Config, v string) error {
			u, err := url.Parse(v)
			if err != nil || u.Scheme != "https" || u.Host == "" {
				return errors.New("must be an https:// URL")
			}
			if c.ACMEDomains != "" { // kept only where it is used
				c.ACMEDirectory = v
			}
			return nil
		}},
		{"acme-ca-roots", "HANDY_ACME_CA_ROOTS", "", "PEM file of the CAs to trust for the ACME directory's own HTTPS (a private CA); unset, the system's", func(c *Config, v string) error {
			c.ACMERoots = v
			return nil
		}},
		{"http-addr", "HANDY_HTTP_ADDR", "", "with TLS on, a plain-HTTP address (such as :80) that answers every request with a 301 to the https -public-url", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if !c.TLS() {
				return errors.New("needs TLS on (-tls-cert and -tls-key, or -acme-domains): without it there is no https to redirect to")
			}
			c.HTTPAddr = v
			return nil
		}},
		{"shutdown-timeout", "HANDY_SHUTDOWN_TIMEOUT", "15s", "how long in-flight requests may take to finish on SIGINT or SIGTERM", func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil {
				return errors.New("must be a duration such as 15s")
			}
			if d <= 0 {
				return errors.New("must be positive")
			}
			c.ShutdownTimeout = d
			return nil
		}},
	}
}

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

// setAdminToken sets the admin token after checking its length; the error never shows it.
func (c *Config) setAdminToken(token string) error {
	if len(token) < MinAdminToken {
		return fmt.Errorf("the admin token must be at least %d characters long (it has %d); generate one with: openssl rand -hex 32", MinAdminToken, len(token))
	}
	c.AdminToken = token
	return nil
}

// Load reads the configuration from args (without the program name) and the environment
// through getenv. It returns flag.ErrHelp when -help or -h is given; print Usage then.
func Load(args []string, getenv func(string) string) (Config, error) {
	var c Config
	fs := flag.NewFlagSet("handy", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := options()
	values := make(map[string]string, len(opts))
	for _, o := range opts {
		values[o.flag] = o.def
		if v, ok := lookup(getenv, o.env); ok {
			values[o.flag] = v
		}
		fs.Func(o.flag, o.usage, func(v string) error {
			values[o.flag] = v
			return nil
		})
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return Config{}, err
		}
		return Config{}, fmt.Errorf("config: %w (see handy -help)", err)
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("config: unexpected argument %q (see handy -help)", fs.Arg(0))
	}
	for _, o := range opts {
		if err := o.set(&c, values[o.flag]); err != nil {
			shown := strconv.Quote(values[o.flag])
			if secretFlags[o.flag] {
				shown = "(not shown)"
			}
			return Config{}, fmt.Errorf("config: -%s / %s = %s: %w", o.flag, o.env, shown, err)
		}
	}
	return c, nil
}

// lookup returns a variable's value; an empty variable counts as unset.
func lookup(getenv func(string) string, name string) (string, bool) {
	v := getenv(name)
	return v, v != ""
}

// Usage writes the -help text: every flag with its variable and default.
func Usage(w io.Writer) error {
	var b strings.Builder
	b.WriteString("Usage: handy [flags]\n       handy migrate [flags]\n       handy stats [-from YYYY-MM-DD] [-to YYYY-MM-DD] [flags]\n\n" +
		"Serves Handy Tools. migrate applies the database migrations and exits; stats prints the\n" +
		"page-view report of the days from -from to -to (UTC, both included; default the last 30\n" +
		"days) from the database the flags name, and exits.\n\n" +
		"Every flag may also be set through its environment variable; a flag on the command line\n" +
		"wins over the variable, which wins over the default.\n\n")
	for _, o := range options() {
		fmt.Fprintf(&b, "  -%s value\n    \t%s\n    \tenvironment: %s (default %q)\n", o.flag, o.usage, o.env, o.def)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("config: write usage: %w", err)
	}
	return nil
}

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

// Logger returns a slog.Logger writing to w in the configured format and level.
func (c Config) Logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
