package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestTagManager(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		args             []string
		env              map[string]string
		wantID, wantHost string
		wantScript       string
	}{
		{name: "unset: no tag manager, and no host either", wantScript: ""},
		{name: "a host alone configures nothing", args: []string{"-tag-manager-host", "https://tags.example"}},
		{name: "flag", args: []string{"-tag-manager-id", "GTM-AB12CD3"},
			wantID: "GTM-AB12CD3", wantHost: DefaultTagManagerHost, wantScript: "https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD3"},
		{name: "environment, with a host of one's own", env: map[string]string{"HANDY_TAG_MANAGER_ID": "GTM-WXYZ", "HANDY_TAG_MANAGER_HOST": "https://Tags.Example:8443/"},
			wantID: "GTM-WXYZ", wantHost: "https://tags.example:8443", wantScript: "https://tags.example:8443/gtm.js?id=GTM-WXYZ"},
		{name: "flag over environment", args: []string{"-tag-manager-id", "GTM-FLAG0001"}, env: map[string]string{"HANDY_TAG_MANAGER_ID": "GTM-ENV00001"},
			wantID: "GTM-FLAG0001", wantHost: DefaultTagManagerHost, wantScript: "https://www.googletagmanager.com/gtm.js?id=GTM-FLAG0001"},
		{name: "a test's stand-in on a loopback address", args: []string{"-tag-manager-id", "GTM-TEST1234", "-tag-manager-host", "http://127.0.0.1:9100"},
			wantID: "GTM-TEST1234", wantHost: "http://127.0.0.1:9100", wantScript: "http://127.0.0.1:9100/gtm.js?id=GTM-TEST1234"},
		{name: "twelve characters", args: []string{"-tag-manager-id", "GTM-ABCDEF123456"},
			wantID: "GTM-ABCDEF123456", wantHost: DefaultTagManagerHost, wantScript: "https://www.googletagmanager.com/gtm.js?id=GTM-ABCDEF123456"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Load(tt.args, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if c.TagManagerID != tt.wantID || c.TagManagerHost != tt.wantHost || c.TagManagerScript() != tt.wantScript {
				t.Errorf("id %q, host %q, script %q; want %q, %q, %q", c.TagManagerID, c.TagManagerHost, c.TagManagerScript(), tt.wantID, tt.wantHost, tt.wantScript)
			}
		})
	}
}

func TestTagManagerRejects(t *testing.T) {
	t.Parallel()
	id := func(v string) []string { return []string{"-tag-manager-id", v} }
	host := func(v string) []string { return []string{"-tag-manager-id", "GTM-TEST1234", "-tag-manager-host", v} }
	tests := []struct {
		name, wantInErr string
		args            []string
		env             map[string]string
	}{
		{"lower case id", "GTM-AB12CD3", id("gtm-ab12cd3"), nil},
		{"id without GTM-", "container id", id("AB12CD3"), nil},
		{"analytics id", "container id", id("G-AB12CD3456"), nil},
		{"id too short", "4 to 12", id("GTM-ABC"), nil},
		{"id too long", "4 to 12", id("GTM-ABCDEFGHIJKLM"), nil},
		{"id with markup", "container id", id(`GTM-AB"><script>`), nil},
		{"id in the environment", "HANDY_TAG_MANAGER_ID", nil, map[string]string{"HANDY_TAG_MANAGER_ID": "GTM-x"}},
		{"host over http", "https", host("http://tags.example"), nil},
		{"host over http on a LAN address", "loopback", host("http://192.168.1.2:8080"), nil},
		{"host with a path", "origin", host("https://tags.example/gtm"), nil},
		{"host with a query", "origin", host("https://tags.example/?a=1"), nil},
		{"host with user information", "user", host("https://me@tags.example"), nil},
		{"host not a URL", "HANDY_TAG_MANAGER_HOST", host("tags.example"), nil},
		{"host with a quote", "host", host(`https://tags"x.example`), nil},
		{"host with an underscore", "host", host("https://tags_x.example"), nil},
		{"host on IPv6", "IPv6", host("http://[::1]:9100"), nil},
		{"host over ftp", "http", host("ftp://tags.example"), nil},
		// Checked even without an id, so that a typo does not wait for the day an id is added.
		{"bad host without an id", "HANDY_TAG_MANAGER_HOST", nil, map[string]string{"HANDY_TAG_MANAGER_HOST": "http://tags.example"}},
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

func TestTagManagerSources(t *testing.T) {
	t.Parallel()
	ga4 := "https://*.google-analytics.com, https://*.Analytics.Google.com,https://*.googletagmanager.com/,"
	tests := []struct {
		name        string
		args        []string
		env         map[string]string
		wantOrigins []string
	}{
		{name: "without an id: none, and no host either", args: []string{"-tag-manager-sources", ga4}},
		{name: "the container's origin alone", args: []string{"-tag-manager-id", "GTM-AB12CD3"}, wantOrigins: []string{DefaultTagManagerHost}},
		{name: "Google Analytics 4's, normalised", args: []string{"-tag-manager-id", "GTM-AB12CD3", "-tag-manager-sources", ga4},
			wantOrigins: []string{DefaultTagManagerHost, "https://*.google-analytics.com", "https://*.analytics.google.com", "https://*.googletagmanager.com"}},
		{name: "from the environment, repeats dropped", env: map[string]string{"HANDY_TAG_MANAGER_ID": "GTM-WXYZ", "HANDY_TAG_MANAGER_SOURCES": "https://ads.example:8443,https://ads.example:8443"},
			wantOrigins: []string{DefaultTagManagerHost, "https://ads.example:8443"}},
		{name: "a test's stand-in on a loopback address", args: []string{"-tag-manager-id", "GTM-TEST1234", "-tag-manager-sources", "http://127.0.0.1:9101"},
			wantOrigins: []string{DefaultTagManagerHost, "http://127.0.0.1:9101"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Load(tt.args, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.TagManagerOrigins(); !slices.Equal(got, tt.wantOrigins) {
				t.Errorf("origins %q, want %q", got, tt.wantOrigins)
			}
		})
	}
}

func TestTagManagerSourcesRejects(t *testing.T) {
	t.Parallel()
	many := make([]string, 17)
	for i := range many {
		many[i] = fmt.Sprintf("https://t%d.example", i)
	}
	tests := []struct{ name, sources, wantInErr string }{
		{"over http", "https://a.example,http://b.example", `"http://b.example": must be https`},
		{"with a path", "https://www.google-analytics.com/g/collect", "origin"},
		{"a bare wildcard", "https://*", "must name a host"},
		{"a wildcard over a top-level domain", "https://*.com", "*. goes before a domain"},
		{"a wildcard over http", "http://*.127.0.0.1:9100", "*. goes before a domain"},
		{"a wildcard inside the name", "https://ads.*.example", "host"},
		{"a keyword of the CSP", "'unsafe-inline'", "not a URL"},
		{"a second source in one item", "https://a.example https://b.example", "host"},
		{"too many", strings.Join(many, ","), "at most 16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Checked even without an id, as the host is.
			for _, args := range [][]string{{"-tag-manager-id", "GTM-TEST1234", "-tag-manager-sources", tt.sources}, {"-tag-manager-sources", tt.sources}} {
				_, err := Load(args, env(nil))
				if err == nil || !strings.Contains(err.Error(), tt.wantInErr) || !strings.Contains(err.Error(), "tag-manager-sources") {
					t.Errorf("%q: Load error = %v, want one naming the flag and mentioning %q", args, err, tt.wantInErr)
				}
			}
		})
	}
}
