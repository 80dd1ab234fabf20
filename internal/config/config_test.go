package config

import (
	"bytes"
	"errors"
	"flag"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Addr: "localhost:8080", PublicURL: "http://localhost:8080", LogLevel: slog.LevelInfo, LogFormat: "text", ShutdownTimeout: 15 * time.Second, DataDir: "data", AnalyticsRetention: 400, SignupLimit: 10, AnalyticsViewsPerMinute: 30, AnalyticsBudgetVisitors: 100_000, AnalyticsReferrersPerDay: 1000, WriteRate: 10, WriteBurst: 3000, TombstoneRetention: 720 * time.Hour, StorageQuota: 64 << 20}
	if c != want {
		t.Errorf("Load() = %+v, want %+v", c, want)
	}
	if c.HTTPS() {
		t.Error("HTTPS() for an http URL")
	}
}

func TestLoadPrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want Config
	}{
		{
			name: "environment over default",
			env: map[string]string{"HANDY_ADDR": ":9000", "HANDY_PUBLIC_URL": "https://handy.example/", "HANDY_LOG_LEVEL": "debug",
				"HANDY_LOG_FORMAT": "json", "HANDY_SHUTDOWN_TIMEOUT": "3s", "HANDY_ANALYTICS_RETENTION": "30", "HANDY_METRICS_ADDR": "localhost:9090"},
			want: Config{Addr: ":9000", PublicURL: "https://handy.example", LogLevel: slog.LevelDebug, LogFormat: "json", ShutdownTimeout: 3 * time.Second, DataDir: "data", AnalyticsRetention: 30, SignupLimit: 10, AnalyticsViewsPerMinute: 30, AnalyticsBudgetVisitors: 100_000, AnalyticsReferrersPerDay: 1000, WriteRate: 10, WriteBurst: 3000, TombstoneRetention: 720 * time.Hour, StorageQuota: 64 << 20, MetricsAddr: "localhost:9090"},
		},
		{
			name: "flag over environment",
			args: []string{"-addr", ":7000", "-public-url=https://Handy.Example:8443", "-log-level", "warn", "-log-format", "text", "-shutdown-timeout", "1m",
				"-analytics-retention", "90d", "-write-rate", "50", "-write-burst", "20000", "-tombstone-retention", "2s", "-metrics-addr", "127.0.0.1:9100"},
			env: map[string]string{"HANDY_ADDR": ":9000", "HANDY_PUBLIC_URL": "https://other.example", "HANDY_LOG_LEVEL": "debug",
				"HANDY_LOG_FORMAT": "json", "HANDY_SHUTDOWN_TIMEOUT": "3s", "HANDY_ANALYTICS_RETENTION": "30", "HANDY_WRITE_RATE": "5", "HANDY_TOMBSTONE_RETENTION": "1h", "HANDY_METRICS_ADDR": "localhost:9090"},
			want: Config{Addr: ":7000", PublicURL: "https://handy.example:8443", LogLevel: slog.LevelWarn, LogFormat: "text", ShutdownTimeout: time.Minute, DataDir: "data", AnalyticsRetention: 90, SignupLimit: 10, AnalyticsViewsPerMinute: 30, AnalyticsBudgetVisitors: 100_000, AnalyticsReferrersPerDay: 1000, WriteRate: 50, WriteBurst: 20000, TombstoneRetention: 2 * time.Second, StorageQuota: 64 << 20, MetricsAddr: "127.0.0.1:9100"},
		},
		{
			name: "empty variable is unset",
			env:  map[string]string{"HANDY_ADDR": ""},
			want: Config{Addr: "localhost:8080", PublicURL: "http://localhost:8080", LogLevel: slog.LevelInfo, LogFormat: "text", ShutdownTimeout: 15 * time.Second, DataDir: "data", AnalyticsRetention: 400, SignupLimit: 10, AnalyticsViewsPerMinute: 30, AnalyticsBudgetVisitors: 100_000, AnalyticsReferrersPerDay: 1000, WriteRate: 10, WriteBurst: 3000, TombstoneRetention: 720 * time.Hour, StorageQuota: 64 << 20},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Load(tt.args, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if c != tt.want {
				t.Errorf("Load = %+v, want %+v", c, tt.want)
			}
		})
	}
}

func TestOperatorDetails(t *testing.T) {
	t.Parallel()
	c, err := Load([]string{"-public-url", "https://Tools.Example:8443", "-jurisdiction", " England and Wales "}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Contact(); got != "privacy@tools.example" {
		t.Errorf("Contact() = %q, want privacy@ the public host", got)
	}
	if c.Jurisdiction != "England and Wales" {
		t.Errorf("Jurisdiction = %q", c.Jurisdiction)
	}
	c, err = Load(nil, env(map[string]string{"HANDY_CONTACT_EMAIL": "legal@handy.example", "HANDY_JURISDICTION": "Deutschland"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Contact() != "legal@handy.example" || c.Jurisdiction != "Deutschland" {
		t.Errorf("from the environment: contact %q, jurisdiction %q", c.Contact(), c.Jurisdiction)
	}
}

func TestDatabaseURLIsNeverEchoed(t *testing.T) {
	t.Parallel()
	_, err := Load([]string{"-database-url", "mysql://user:s3cret@db/x"}, env(nil))
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %v shows the password", err)
	}
	c, err := Load(nil, env(map[string]string{"HANDY_DATABASE_URL": "postgres://u:p@db.internal:5432/handy?sslmode=require"}))
	if err != nil || c.DatabaseURL != "postgres://u:p@db.internal:5432/handy?sslmode=require" {
		t.Errorf("Load = %+v, %v", c, err)
	}
}

func TestLoadRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, wantInErr string
		args            []string
		env             map[string]string
	}{
		{"relative public URL", "HANDY_PUBLIC_URL", []string{"-public-url", "handy.example"}, nil},
		{"public URL with path", "origin", []string{"-public-url", "https://handy.example/tools"}, nil},
		{"public URL with query", "origin", []string{"-public-url", "https://handy.example/?a=1"}, nil},
		{"public URL with fragment", "origin", []string{"-public-url", "https://handy.example#x"}, nil},
		{"public URL ftp", "http", []string{"-public-url", "ftp://handy.example"}, nil},
		{"public URL without host", "host", []string{"-public-url", "https://"}, nil},
		{"public URL with user", "user", []string{"-public-url", "https://me@handy.example"}, nil},
		{"bad env public URL", "HANDY_PUBLIC_URL", nil, map[string]string{"HANDY_PUBLIC_URL": "nope"}},
		{"bad log level", "HANDY_LOG_LEVEL", []string{"-log-level", "loud"}, nil},
		{"bad log format", "HANDY_LOG_FORMAT", nil, map[string]string{"HANDY_LOG_FORMAT": "xml"}},
		{"bad timeout", "HANDY_SHUTDOWN_TIMEOUT", []string{"-shutdown-timeout", "soon"}, nil},
		{"negative timeout", "positive", []string{"-shutdown-timeout", "-1s"}, nil},
		{"empty addr", "HANDY_ADDR", []string{"-addr", ""}, nil},
		{"zero write rate", "above 0", []string{"-write-rate", "0"}, nil},
		{"write burst below a commit", "full commit", []string{"-write-burst", "499"}, nil},
		{"tombstone retention under a second", "HANDY_TOMBSTONE_RETENTION", nil, map[string]string{"HANDY_TOMBSTONE_RETENTION": "10ms"}},
		{"database URL not postgres", "postgres://", []string{"-database-url", "mysql://u:p@h/db"}, nil},
		{"empty data dir", "HANDY_DATA_DIR", []string{"-data-dir", ""}, nil},
		{"client IP header with a space", "header name", []string{"-client-ip-header", "X Forwarded"}, nil},
		{"contact with a name", "plain email", []string{"-contact-email", "Privacy <p@handy.example>"}, nil},
		{"contact not an email", "HANDY_CONTACT_EMAIL", nil, map[string]string{"HANDY_CONTACT_EMAIL": "handy.example"}},
		{"contact with a quote", "plain email", []string{"-contact-email", `"a&b"@handy.example`}, nil},
		{"jurisdiction with markup", "plain text", []string{"-jurisdiction", "<b>Germany</b>"}, nil},
		{"jurisdiction too long", "HANDY_JURISDICTION", nil, map[string]string{"HANDY_JURISDICTION": strings.Repeat("x", 81)}},
		{"jurisdiction with a newline", "plain text", []string{"-jurisdiction", "Ger\nmany"}, nil},
		{"retention not a number", "HANDY_ANALYTICS_RETENTION", []string{"-analytics-retention", "a year"}, nil},
		{"retention zero", "whole number of days", []string{"-analytics-retention", "0"}, nil},
		{"retention in hours", "whole number of days", nil, map[string]string{"HANDY_ANALYTICS_RETENTION": "24h"}},
		{"views per minute negative", "from 0 to 1000000", []string{"-analytics-views-per-minute", "-1"}, nil},
		{"budget visitors zero", "HANDY_ANALYTICS_BUDGET_VISITORS", nil, map[string]string{"HANDY_ANALYTICS_BUDGET_VISITORS": "0"}},
		{"referrers per day not a number", "such as 1000", []string{"-analytics-referrers-per-day", "many"}, nil},
		{"sign-up limit zero", "whole number from 1", []string{"-signup-limit", "0"}, nil},
		{"a certificate without its key", "go together", []string{"-public-url", "https://h.example", "-tls-cert", "c.pem"}, nil},
		{"a key without its certificate", "go together", nil, map[string]string{"HANDY_TLS_KEY": "k.pem", "HANDY_PUBLIC_URL": "https://h.example"}},
		{"TLS with an http public URL", "https://", []string{"-tls-cert", "c.pem", "-tls-key", "k.pem"}, nil},
		{"a redirect listener without TLS", "needs TLS", []string{"-http-addr", ":80"}, nil},
		{"ACME and files at once", "not both", []string{"-public-url", "https://h.example", "-tls-cert", "c.pem", "-tls-key", "k.pem", "-acme-domains", "h.example"}, nil},
		{"ACME with an http public URL", "https://", []string{"-acme-domains", "h.example"}, nil},
		{"ACME for a name without a dot", "host name", []string{"-public-url", "https://h.example", "-acme-domains", "localhost"}, nil},
		{"an ACME directory over http", "https://", []string{"-public-url", "https://h.example", "-acme-domains", "h.example", "-acme-directory", "http://ca.example/dir"}, nil},
		{"sign-up limit not a number", "HANDY_SIGNUP_LIMIT", nil, map[string]string{"HANDY_SIGNUP_LIMIT": "ten"}},
		{"metrics on the public address", "never served on a public port", []string{"-addr", ":8080", "-metrics-addr", ":8080"}, nil},
		{"metrics without a port", "HANDY_METRICS_ADDR", nil, map[string]string{"HANDY_METRICS_ADDR": "localhost"}},
		{"unknown flag", "-nope", []string{"-nope"}, nil},
		{"stray argument", "extra", []string{"extra"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(tt.args, env(tt.env))
			if err == nil || !strings.Contains(err.Error(), tt.wantInErr) {
				t.Errorf("Load error = %v, want one mentioning %q", err, tt.wantInErr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"-help", "-h", "--help"} {
		if _, err := Load([]string{arg}, env(nil)); !errors.Is(err, flag.ErrHelp) {
			t.Errorf("Load(%s) error = %v, want flag.ErrHelp", arg, err)
		}
	}
	var b bytes.Buffer
	if err := Usage(&b); err != nil {
		t.Fatal(err)
	}
	for _, o := range options() {
		for _, want := range []string{"-" + o.flag, o.env, `"` + o.def + `"`} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("usage lacks %q:\n%s", want, b.String())
			}
		}
	}
}

func TestHTTPSAndLogger(t *testing.T) {
	t.Parallel()
	c, err := Load([]string{"-public-url", "https://handy.example", "-log-format", "json", "-log-level", "warn"}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !c.HTTPS() {
		t.Error("HTTPS() false for an https URL")
	}
	var b bytes.Buffer
	log := c.Logger(&b)
	log.Info("hidden")
	log.Warn("shown", "request_id", "r1")
	if got := b.String(); strings.Contains(got, "hidden") || !strings.Contains(got, `"request_id":"r1"`) {
		t.Errorf("json logger at warn wrote %q", got)
	}
}
