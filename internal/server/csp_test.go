package server

import (
	"log/slog"
	"strings"
	"testing"

	"handy/internal/config"
	"handy/internal/site"
)

// TestCSPForHashes: the policy allows exactly the inline hashes it is given (those
// pages.TestHashInline computes), and no 'unsafe-inline'.
func TestCSPForHashes(t *testing.T) {
	t.Parallel()
	h := inlineHashes{scripts: []string{"'sha256-DUQvyBW3cp321tqiTMq5r0hc4ZZBR1LgXRjYIlCoW8A='"}}
	got := []string{"'sha256-7yqHVAesot11p6HczDsgKRipvI5UPgs97z80zNXlans='"}
	want := got
	if csp := cspFor(inlineHashes{scripts: h.scripts, styles: got[:1]}); csp != "default-src 'self'; script-src 'self' "+h.scripts[0]+"; style-src 'self' "+want[0]+"; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'" {
		t.Errorf("csp = %s", csp)
	}
}

func TestCSPForTagManager(t *testing.T) {
	t.Parallel()
	h := inlineHashes{scripts: []string{"'sha256-s'"}, styles: []string{"'sha256-c'"}, tagManager: []string{"https://www.googletagmanager.com"}}
	want := "default-src 'self'; script-src 'self' https://www.googletagmanager.com 'sha256-s'; style-src 'self' 'sha256-c'; " +
		"img-src 'self' data: blob: https://www.googletagmanager.com; font-src 'self'; connect-src 'self' https://www.googletagmanager.com; " +
		"worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	if got := cspFor(h); got != want {
		t.Errorf("csp =\n%s\nwant\n%s", got, want)
	}
}

// TestTagManagerConfigured follows the tag manager's configuration from the flags through the
// pages' boot data to the CSP: the container URL replaces the placeholder, and the policy names
// its origin only then.
func TestTagManagerConfigured(t *testing.T) {
	t.Parallel()
	table := site.Default()
	dist := fixtureDist(table)
	for name, f := range dist {
		if strings.HasSuffix(name, "/index.html") || name == "index.html" {
			boot := `<script type="application/json" id="handy-data">{"buildId":"b1","tagManager":"` + table.TagManagerPlaceholder() + `"}</script>`
			f.Data = []byte(strings.Replace(string(f.Data), "</body>", boot+"</body>", 1))
		}
	}
	base := "default-src 'self'; script-src 'self'; style-src 'self' " + fixtureStyleHash + "; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	tests := []struct {
		name      string
		args      []string
		wantBoot  string
		wantCSP   string
		wantNoCSP string
	}{
		{"not configured", nil, `"tagManager":""`, base, "googletagmanager"},
		{"configured", []string{"-tag-manager-id", "GTM-TEST1234"}, `"tagManager":"https://www.googletagmanager.com/gtm.js?id=GTM-TEST1234"`,
			"default-src 'self'; script-src 'self' https://www.googletagmanager.com; style-src 'self' " + fixtureStyleHash +
				"; img-src 'self' data: blob: https://www.googletagmanager.com; font-src 'self'; connect-src 'self' https://www.googletagmanager.com; " +
				"worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'", "127.0.0.1"},
		{"a test's stand-in", []string{"-tag-manager-id", "GTM-TEST1234", "-tag-manager-host", "http://127.0.0.1:9100"}, `"tagManager":"http://127.0.0.1:9100/gtm.js?id=GTM-TEST1234"`,
			"default-src 'self'; script-src 'self' http://127.0.0.1:9100; style-src 'self' " + fixtureStyleHash +
				"; img-src 'self' data: blob: http://127.0.0.1:9100; font-src 'self'; connect-src 'self' http://127.0.0.1:9100; " +
				"worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'", "googletagmanager"},
		{"with the sources of its tags", []string{"-tag-manager-id", "GTM-TEST1234", "-tag-manager-sources", "https://*.google-analytics.com,https://*.analytics.google.com"},
			`"tagManager":"https://www.googletagmanager.com/gtm.js?id=GTM-TEST1234"`,
			"default-src 'self'; script-src 'self' https://www.googletagmanager.com https://*.google-analytics.com https://*.analytics.google.com; style-src 'self' " + fixtureStyleHash +
				"; img-src 'self' data: blob: https://www.googletagmanager.com https://*.google-analytics.com https://*.analytics.google.com; font-src 'self'; " +
				"connect-src 'self' https://www.googletagmanager.com https://*.google-analytics.com https://*.analytics.google.com; " +
				"worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'", "google-analytics"},
		{"sources without a container: nothing", []string{"-tag-manager-sources", "https://*.google-analytics.com"}, `"tagManager":""`, base, "google"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := config.Load(append([]string{"-addr", "127.0.0.1:0", "-public-url", httpOrigin}, tt.args...), func(string) string { return "" })
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(cfg, table, dist, slog.New(slog.DiscardHandler), quickCompression)
			if err != nil {
				t.Fatal(err)
			}
			for _, target := range []string{"/de/faq", "/", "/nope", "/healthz"} {
				res, body := serve(t, s.Handler(), request{target: target, header: map[string]string{"Accept-Language": "en"}})
				if csp := res.Header.Get("Content-Security-Policy"); csp != tt.wantCSP {
					t.Errorf("%s: CSP =\n%s\nwant\n%s", target, csp, tt.wantCSP)
				}
				if target == "/de/faq" && (!strings.Contains(body, tt.wantBoot) || strings.Contains(body, table.TagManagerPlaceholder()) || strings.Contains(body, tt.wantNoCSP)) {
					t.Errorf("%s: the boot data lacks %s:\n%s", target, tt.wantBoot, body)
				}
			}
		})
	}
}

// The config refuses such a host; the substitution would still keep it inside its JSON string.
