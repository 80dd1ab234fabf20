package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRoot(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	tests := []struct {
		name           string
		target         string
		header         map[string]string
		wantStatus     int
		wantLocation   string
		wantCookie     string // value set, "" for none
		wantEnglishDoc bool
	}{
		{"German browser", "/", map[string]string{"Accept-Language": "de-DE,de;q=0.9,en;q=0.8"}, 302, "/de", "de", false},
		{"Japanese browser", "/", map[string]string{"Accept-Language": "ja-JP,ja;q=0.9"}, 302, "/jp", "jp", false},
		{"Taiwanese browser", "/", map[string]string{"Accept-Language": "zh-TW,zh;q=0.9"}, 302, "/zh", "zh", false},
		{"query kept", "/?from=ad&x=1", map[string]string{"Accept-Language": "fr-FR"}, 302, "/fr?from=ad&x=1", "fr", false},
		{"English browser", "/", map[string]string{"Accept-Language": "en-US,en;q=0.9,de;q=0.8"}, 200, "", "en", true},
		{"unmatched language", "/", map[string]string{"Accept-Language": "it-IT,it;q=0.9"}, 200, "", "en", true},
		{"no Accept-Language", "/", nil, 200, "", "en", true},
		{"malformed Accept-Language", "/", map[string]string{"Accept-Language": ";;q=x,,*;q=abc"}, 200, "", "en", true},
		{"cookie wins over header", "/", map[string]string{"Cookie": "i18n_redirected=ko", "Accept-Language": "de"}, 302, "/ko", "", false},
		{"English cookie", "/", map[string]string{"Cookie": "i18n_redirected=en", "Accept-Language": "de"}, 200, "", "", true},
		{"invalid cookie falls back to header", "/", map[string]string{"Cookie": "i18n_redirected=xx", "Accept-Language": "es"}, 302, "/es", "es", false},
		{"cookie with language tag is invalid", "/", map[string]string{"Cookie": "i18n_redirected=ja", "Accept-Language": "pt-BR"}, 302, "/pt", "pt", false},
		{"malformed cookie header", "/", map[string]string{"Cookie": "i18n_redirected=\"de; ;;=;", "Accept-Language": "ko"}, 302, "/ko", "ko", false},
		{"bot with German header", "/", map[string]string{"User-Agent": googlebotUA, "Accept-Language": "de"}, 200, "", "", true},
		{"bot with cookie", "/", map[string]string{"User-Agent": "Chrome-Lighthouse", "Cookie": "i18n_redirected=de"}, 200, "", "", true},
		{"deep link never redirected", "/faq", map[string]string{"Accept-Language": "de"}, 200, "", "", false},
		{"prefixed home never redirected", "/de", map[string]string{"Accept-Language": "ja", "Cookie": "i18n_redirected=ko"}, 200, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			header := map[string]string{"User-Agent": chromeUA}
			for k, v := range tt.header {
				header[k] = v
			}
			res, body := serve(t, s.Handler(), request{target: tt.target, header: header})
			if res.StatusCode != tt.wantStatus || res.Header.Get("Location") != tt.wantLocation {
				t.Fatalf("GET %s = %d Location %q, want %d %q", tt.target, res.StatusCode, res.Header.Get("Location"), tt.wantStatus, tt.wantLocation)
			}
			var got string
			for _, c := range res.Cookies() {
				if c.Name == langCookieName {
					got = c.Value
				}
			}
			if got != tt.wantCookie {
				t.Errorf("cookie %s = %q, want %q", langCookieName, got, tt.wantCookie)
			}
			if tt.wantEnglishDoc != strings.Contains(body, "<h1>index___en</h1>") {
				t.Errorf("English home served = %v, want %v", !tt.wantEnglishDoc, tt.wantEnglishDoc)
			}
			if tt.target != "/faq" && tt.target != "/de" {
				if v := res.Header.Get("Vary"); v != "Accept-Encoding, Cookie, Accept-Language" {
					t.Errorf("Vary = %q", v)
				}
			}
		})
	}
}

func TestLangCookieAttributes(t *testing.T) {
	t.Parallel()
	for _, origin := range []string{httpOrigin, httpsOrigin} {
		s := newTestServer(t, origin)
		res, _ := serve(t, s.Handler(), request{target: "/", header: map[string]string{"Accept-Language": "de"}})
		raw := res.Header.Get("Set-Cookie")
		cookies := res.Cookies()
		if len(cookies) != 1 {
			t.Fatalf("%s: Set-Cookie = %q", origin, raw)
		}
		c := cookies[0]
		year := 365 * 24 * time.Hour
		if c.Name != "i18n_redirected" || c.Value != "de" || c.Path != "/" || c.MaxAge != int(year.Seconds()) ||
			c.SameSite != http.SameSiteLaxMode || c.HttpOnly {
			t.Errorf("%s: Set-Cookie = %q", origin, raw)
		}
		if until := time.Until(c.Expires); until < year-time.Hour || until > year+time.Hour {
			t.Errorf("%s: cookie expires in %v, want a year", origin, until)
		}
		if c.Secure != strings.HasPrefix(origin, "https:") {
			t.Errorf("%s: Secure = %v", origin, c.Secure)
		}
	}
}
