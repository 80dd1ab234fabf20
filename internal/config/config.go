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
	"net/url"
	"strconv"
	"strings"
	"time"
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
	// BackupDir is where the server writes a backup of its SQLite database every BackupEvery,
	// keeping the newest BackupKeep; "" (and zeros): no scheduled backups (config/backup.go).
	BackupDir   string
	BackupEvery time.Duration
	BackupKeep  int
	// Jurisdiction names the law that governs the terms ("Germany"); empty leaves the terms'
	// own wording, "the country in which the operator is established".
	Jurisdiction string
	// AnalyticsRetention is how many days of daily page-view counts are kept before today;
	// older days are deleted hourly.
	AnalyticsRetention int
	// AnalyticsViewsPerMinute is how many page views one visitor (by the day's visitor key)
	// may send in a minute; 0 is no limit. AnalyticsBudgetVisitors bounds the visitors of the
	// minute held in memory for it.
	AnalyticsViewsPerMinute, AnalyticsBudgetVisitors int
	// AnalyticsReferrersPerDay is how many distinct referring hosts get rows of their own in
	// a day; further ones are counted as "(other)".
	AnalyticsReferrersPerDay int
	// BodyBudget bounds the request-body bytes all requests together may hold at once, and
	// BodyBudgetPerUser those of one signed-in user (or one anonymous client address): a
	// request reserves its declared length (or its endpoint's limit) before reading. Zero is
	// the default (DefaultBodyBudget, DefaultBodyBudgetPerUser); read them through the
	// OrDefault methods.
	BodyBudget, BodyBudgetPerUser int64
	// AnswerSpoolBytes bounds the disk bytes of answers being sent (their spools' temporary
	// files, in AnswerSpoolDir, "" for the system's), AnswerSpoolBytesPerUser one user's; zero
	// is the default: read them through the OrDefault methods (answerspool.go).
	AnswerSpoolBytes, AnswerSpoolBytesPerUser int64
	AnswerSpoolDir                            string
	// StorageQuota bounds the bytes one account's documents take (docstore.WithStorageQuota);
	// 0 is no quota.
	StorageQuota int64
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
	// MetricsAddr is the listener of the Prometheus metrics (/metrics), apart from Addr;
	// empty: none.
	MetricsAddr string
	// WriteRate is the write cost units a second refilled into each user's bucket
	// of WriteBurst units (docstore.WithWriteRate); TombstoneRetention is how long a deleted
	// document's tombstone is kept for listens (docstore.WithTombstoneRetention).
	WriteRate          float64
	WriteBurst         int
	TombstoneRetention time.Duration
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
	b.WriteString("Usage: handy [flags]\n       handy migrate [flags]\n       handy stats [-from YYYY-MM-DD] [-to YYYY-MM-DD] [flags]\n" +
		"       handy backup [-force] [flags] DEST\n       handy restored [flags]\n       handy healthcheck [flags]\n       handy version\n\n" +
		"Serves Handy Tools. migrate applies the database migrations and exits; stats prints the\n" +
		"page-view report of the days from -from to -to (UTC, both included; default the last 30\n" +
		"days) from the database the flags name, and exits. backup writes a checked copy of the\n" +
		"SQLite database the flags name to the file DEST (-force: even if DEST exists), while the\n" +
		"server may keep serving, and exits. restored, run once after pg_restore (or any restore\n" +
		"not from handy backup, whose copies need nothing), moves the database's versions past the\n" +
		"old server's, so that browsers that synced with it reload their documents; run twice, it\n" +
		"only moves them again. healthcheck asks the server the flags configure for /healthz and\n" +
		"exits 0 if it is healthy, else 1 (a container's health check). version prints the build's\n" +
		"version, commit and time.\n\n" +
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

// Logger returns a slog.Logger writing to w in the configured format and level.
func (c Config) Logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// The body budgets' defaults: 16 MiB for all requests (four full commits), 8 MiB (two commits) for one user.
const (
	DefaultBodyBudget        = 16 << 20
	DefaultBodyBudgetPerUser = 8 << 20
)

// BodyBudgetOrDefault is BodyBudget, or its default when unset.
func (c Config) BodyBudgetOrDefault() int64 { return orDefault(c.BodyBudget, DefaultBodyBudget) }

// BodyBudgetPerUserOrDefault is BodyBudgetPerUser, or its default (at most the total) when unset.
func (c Config) BodyBudgetPerUserOrDefault() int64 {
	return orDefault(c.BodyBudgetPerUser, min(DefaultBodyBudgetPerUser, c.BodyBudgetOrDefault()))
}

// orDefault is a byte count of the configuration, or def when it is unset (zero).
func orDefault(v, def int64) int64 {
	if v == 0 {
		return def
	}
	return v
}
