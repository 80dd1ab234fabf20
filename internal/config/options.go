package config

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
)

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
	return append(append(append(coreOptions(), answerSpoolOptions()...), backupOptions()...), metricsOptions()...)
}

// coreOptions are the settings of this file.
func coreOptions() []option {
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
		{"analytics-views-per-minute", "HANDY_ANALYTICS_VIEWS_PER_MINUTE", "30", "page views one visitor (a day's hash of address and user agent) may send in a minute; more are answered 429 and not counted; 0: no limit", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1_000_000 {
				return errors.New("must be a whole number from 0 to 1000000, such as 30")
			}
			c.AnalyticsViewsPerMinute = n
			return nil
		}},
		{"analytics-budget-visitors", "HANDY_ANALYTICS_BUDGET_VISITORS", "100000", "visitors of the current minute held in memory for -analytics-views-per-minute (about 50 bytes each); when full, a new visitor's views are refused until the minute ends", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 100_000_000 {
				return errors.New("must be a whole number from 1 to 100000000, such as 100000")
			}
			c.AnalyticsBudgetVisitors = n
			return nil
		}},
		{"analytics-referrers-per-day", "HANDY_ANALYTICS_REFERRERS_PER_DAY", "1000", "referring hosts that get counts of their own each day; views from further hosts that day are counted as (other)", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1_000_000 {
				return errors.New("must be a whole number from 0 to 1000000, such as 1000")
			}
			c.AnalyticsReferrersPerDay = n
			return nil
		}},
		{"body-budget", "HANDY_BODY_BUDGET", "", "request-body bytes all requests together may hold at once (bytes, or with KiB, MiB or GiB; default 16MiB, and a quarter more for bodies of at most 64KiB); a request reserves its declared length before reading its body, and past the budget is answered 429 with Retry-After. Parsing a body takes up to about 24 times its size more (docs/operations.md)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			n, err := parseBytes(v)
			if err != nil {
				return err
			}
			c.BodyBudget = n
			return nil
		}},
		{"body-budget-per-user", "HANDY_BODY_BUDGET_PER_USER", "", "request-body bytes one signed-in user (or one anonymous client address) may hold at once, within -body-budget (default 8MiB); at least the largest body, 4MiB (a commit)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			n, err := parseBytes(v)
			if err != nil {
				return err
			}
			if n > c.BodyBudgetOrDefault() {
				return errors.New("must not exceed -body-budget")
			}
			c.BodyBudgetPerUser = n
			return nil
		}},
		{"storage-quota", "HANDY_STORAGE_QUOTA", "64MiB", "bytes each account's documents may take, index rows included (bytes, or with KiB, MiB or GiB; at least 4MiB; 0: no quota); a commit that would go past it is refused (429 resource-exhausted) until the user deletes something. A full account (10,000 history entries and a profile with its avatar) takes about 12MB (docs/operations.md)", func(c *Config, v string) error {
			if v == "0" {
				c.StorageQuota = 0
				return nil
			}
			n, err := parseBytes(v)
			if err != nil {
				return fmt.Errorf("%w, or 0 for no quota", err)
			}
			c.StorageQuota = n
			return nil
		}},
		{"write-rate", "HANDY_WRITE_RATE", "10", "write cost units a second each user may spend, refilled continuously into the bucket of -write-burst; a write costs 1 + its index entries/16 + its KiB/4 (a small write: 1), and past the bucket a commit is answered 429 with Retry-After", func(c *Config, v string) error {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil || !(n > 0) || n > 1_000_000 {
				return errors.New("must be a number above 0 and at most 1000000, such as 10")
			}
			c.WriteRate = n
			return nil
		}},
		{"write-burst", "HANDY_WRITE_BURST", "3000", "write cost units one user may spend at once (the bucket -write-rate refills): what a browser queued offline goes out at once, and the costliest commit (3000 units) fits; at least 500", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 500 || n > 100_000_000 {
				return errors.New("must be a whole number from 500 (a full commit) to 100000000, such as 3000")
			}
			c.WriteBurst = n
			return nil
		}},
		{"tombstone-retention", "HANDY_TOMBSTONE_RETENTION", "720h", "how long a deleted document's tombstone is kept for listens to hear of the deletion; a client away longer gets a reset and checks its copy document by document (pruned every hour, or every retention when shorter)", func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Second || d > 100*365*24*time.Hour {
				return errors.New("must be a duration from 1s to 876000h, such as 720h")
			}
			c.TombstoneRetention = d
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

// MinBodyBudget is the smallest body budget accepted: the largest request body (a commit's)
// must fit in it, or no commit could ever be admitted.
const MinBodyBudget = 4 << 20

// parseBytes reads a byte count: a whole number, optionally followed by KiB, MiB or GiB.
func parseBytes(v string) (int64, error) {
	unit := int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(v, u.suffix) {
			v, unit = strings.TrimSuffix(v, u.suffix), u.size
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > (1<<40)/unit || n*unit < MinBodyBudget {
		return 0, fmt.Errorf("must be a byte count from %d (4MiB) to 1TiB, such as 64MiB", MinBodyBudget)
	}
	return n * unit, nil
}
