package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"handy/internal/analytics"
	"handy/internal/config"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

const testAdminToken = "0123456789abcdef0123456789abcdef-admin"

// statsNow is the stats servers' clock: their today is 2026-11-24.
var statsNow = time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)

// newStatsServer is a server with the stats endpoint over st, and the admin token token ("":
// none configured).
func newStatsServer(t *testing.T, st *store.Store, token string) *Server {
	t.Helper()
	cfg := config.Config{Addr: "127.0.0.1:0", PublicURL: httpsOrigin, AdminToken: token}
	reports := analytics.NewReporter(st, site.Default(), func() time.Time { return statsNow })
	s, err := New(cfg, site.Default(), fixtureDist(site.Default()), slog.New(slog.NewTextHandler(io.Discard, nil)),
		WithReports(reports), quickCompression)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// seedStats writes two days of rollups: 2026-11-23 and 2026-11-24.
func seedStats(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	for _, q := range []string{
		"INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES ('2026-11-23', 'faq', 'de', 'de-DE', 'news.example', 'phone', 4)",
		"INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES ('2026-11-24', 'index', 'en', 'en-US', '', 'desktop', 6)",
		"INSERT INTO analytics_days (day, visitors, bots) VALUES ('2026-11-23', 3, 1), ('2026-11-24', 5, 0)",
	} {
		if _, err := st.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStatsAnswers(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	seedStats(t, st)
	withToken := newStatsServer(t, st, testAdminToken).Handler()
	without := newStatsServer(t, st, "").Handler()
	bearer := map[string]string{"Authorization": "Bearer " + testAdminToken}
	tests := []struct {
		name   string
		h      http.Handler
		method string
		target string
		header map[string]string
		status int
		code   string // of a JSON error
		inBody string // in the body
	}{
		{name: "no token configured", h: without, target: "/api/v1/stats", header: bearer, status: 404, code: "not-found"},
		{name: "no token configured, no header", h: without, target: "/api/v1/stats", status: 404, code: "not-found"},
		{name: "no header", h: withToken, target: "/api/v1/stats", status: 401, code: "unauthorized"},
		{name: "wrong token", h: withToken, target: "/api/v1/stats", header: map[string]string{"Authorization": "Bearer " + strings.Repeat("x", 38)}, status: 401, code: "unauthorized"},
		{name: "the token as Basic", h: withToken, target: "/api/v1/stats", header: map[string]string{"Authorization": "Basic " + testAdminToken}, status: 401, code: "unauthorized"},
		{name: "a prefix of the token", h: withToken, target: "/api/v1/stats", header: map[string]string{"Authorization": "Bearer " + testAdminToken[:32]}, status: 401, code: "unauthorized"},
		{name: "bad from", h: withToken, target: "/api/v1/stats?from=2026-13-01", header: bearer, status: 400, code: "invalid-from", inBody: `\"from\"`},
		{name: "bad to", h: withToken, target: "/api/v1/stats?to=yesterday", header: bearer, status: 400, code: "invalid-to", inBody: `\"to\"`},
		{name: "from after to", h: withToken, target: "/api/v1/stats?from=2026-11-24&to=2026-11-23", header: bearer, status: 400, code: "invalid-from", inBody: "after"},
		{name: "401 days", h: withToken, target: "/api/v1/stats?from=2025-10-20&to=2026-11-24", header: bearer, status: 400, code: "invalid-from", inBody: "400 days"},
		{name: "bad format", h: withToken, target: "/api/v1/stats?format=xlsx", header: bearer, status: 400, code: "invalid-format", inBody: `\"format\"`},
		{name: "400 days", h: withToken, target: "/api/v1/stats?from=2025-10-21&to=2026-11-24", header: bearer, status: 200, inBody: `"from":"2025-10-21"`},
		{name: "the default range", h: withToken, target: "/api/v1/stats", header: bearer, status: 200, inBody: `"from":"2026-10-26","to":"2026-11-24"`},
		{name: "POST", h: withToken, method: http.MethodPost, target: "/api/v1/stats", header: bearer, status: 405, code: "method-not-allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, body := serve(t, tt.h, request{method: tt.method, target: tt.target, header: tt.header})
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tt.status, body)
			}
			if got := res.Header.Get("Cache-Control"); got != cacheNoStore {
				t.Errorf("Cache-Control %q", got)
			}
			// The 404 is the API's own for any unknown path, XSRF cookie included: exactly as
			// if the endpoint did not exist.
			if res.StatusCode != 404 && res.Header.Get("Set-Cookie") != "" {
				t.Errorf("Set-Cookie %q", res.Header.Get("Set-Cookie"))
			}
			if tt.code != "" {
				var e struct {
					Error struct{ Code, Message string }
				}
				if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code != tt.code {
					t.Errorf("body %s, want code %q", body, tt.code)
				}
				if strings.Contains(body, testAdminToken) {
					t.Errorf("body shows the token: %s", body)
				}
			}
			if (res.StatusCode == 401) != (res.Header.Get("WWW-Authenticate") != "") {
				t.Errorf("WWW-Authenticate %q with %d", res.Header.Get("WWW-Authenticate"), res.StatusCode)
			}
			if !strings.Contains(body, tt.inBody) {
				t.Errorf("body lacks %s: %s", tt.inBody, body)
			}
		})
	}
}

func TestStatsJSON(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		seedStats(t, st)
		res, body := serve(t, newStatsServer(t, st, testAdminToken).Handler(), request{
			target: "/api/v1/stats?from=2026-11-23&to=2026-11-24",
			header: map[string]string{"Authorization": "Bearer " + testAdminToken},
		})
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("%d %s: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		want := `{"from":"2026-11-23","to":"2026-11-24",` +
			`"days":[{"day":"2026-11-23","views":4,"visitors":3,"bots":1},{"day":"2026-11-24","views":6,"visitors":5,"bots":0}],` +
			`"totals":{"views":10,"visitors":8,"bots":1,"botShare":0.09090909090909091},` +
			`"pages":[{"path":"/","page":"index","locale":"en","views":6},{"path":"/de/faq","page":"faq","locale":"de","views":4}],` +
			`"locales":[{"name":"en","views":6},{"name":"de","views":4}],` +
			`"languages":[{"name":"en-US","views":6},{"name":"de-DE","views":4}],` +
			`"referrers":[{"name":"news.example","views":4}],` +
			`"screens":[{"name":"desktop","views":6},{"name":"phone","views":4}],` +
			`"realtime":{"minutes":5,"visitors":0}}` + "\n"
		if body != want {
			t.Errorf("body\n%s\nwant\n%s", body, want)
		}
	})
}

func TestStatsCSV(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	seedStats(t, st)
	res, body := serve(t, newStatsServer(t, st, testAdminToken).Handler(), request{
		target: "/api/v1/stats?from=2026-11-22&to=2026-11-24&format=csv",
		header: map[string]string{"Authorization": "Bearer " + testAdminToken},
	})
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	for k, want := range map[string]string{
		"Content-Type":        "text/csv; charset=utf-8",
		"Content-Disposition": `attachment; filename="handy-stats-2026-11-22-to-2026-11-24.csv"`,
		"Cache-Control":       cacheNoStore,
	} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	want := "day,views,visitors,bots\n2026-11-22,0,0,0\n2026-11-23,4,3,1\n2026-11-24,6,5,0\n"
	if body != want {
		t.Errorf("body %q, want %q", body, want)
	}
}
