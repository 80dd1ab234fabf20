package server

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"handy/internal/account"
	"handy/internal/config"
	"handy/internal/docstore"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// apiServer is a server with accounts on a fresh database.
func apiServer(t *testing.T, st *store.Store, limits account.Limits) http.Handler {
	t.Helper()
	return newAPIServer(t, st, limits).handler
}

// testDocsConfig is the document store's configuration as cmd/handy gives it: 500 writes per
// commit, the history capped at 10,000 entries.
func testDocsConfig() docstore.Config {
	return docstore.Config{MaxWrites: 500, Capped: []docstore.Capped{{Collection: "history", Max: 10000}}}
}

func newAPIServer(t *testing.T, st *store.Store, limits account.Limits, docOpts ...docstore.Option) *Server {
	t.Helper()
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	docs := docstore.New(st, testDocsConfig(), append([]docstore.Option{docstore.WithLogger(logger)}, docOpts...)...)
	t.Cleanup(func() { docs.Close() })
	svc, err := account.New(st, docs, logger, site.Default().Limits(), account.WithParams(account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}), account.WithLimits(limits))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(config.Config{Addr: "127.0.0.1:0", PublicURL: httpOrigin}, site.Default(), fixtureDist(site.Default()), logger, WithAccounts(svc), WithDocuments(docs), WithReadiness(st.Ping), quickCompression)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// client calls the API as the site's front end does: it keeps the XSRF cookie and sends it
// back in the header on unsafe requests, and sends "Bearer<token>" when it has a token.
type client struct {
	t     *testing.T
	h     http.Handler
	xsrf  string
	token string
	// remote is the client's address ("192.0.2.10:5555" when empty).
	remote string
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (c *client) do(method, path, contentType, body string, header map[string]string) answer {
	c.t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.RemoteAddr = cmp.Or(c.remote, "192.0.2.10:5555")
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	if c.xsrf != "" {
		r.AddCookie(&http.Cookie{Name: xsrfCookie, Value: c.xsrf})
		r.Header.Set(xsrfHeader, c.xsrf)
	}
	if c.token != "" {
		r.Header.Set("Authorization", "Bearer"+c.token)
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, r)
	res := rec.Result()
	for _, ck := range res.Cookies() {
		if ck.Name == xsrfCookie {
			c.xsrf = ck.Value
		}
	}
	a := answer{status: res.StatusCode, header: res.Header, raw: rec.Body.String()}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(rec.Body.Bytes(), &a.body); err != nil {
			c.t.Fatalf("%s %s: invalid JSON %q", method, path, a.raw)
		}
	}
	return a
}

func (c *client) json(method, path, body string) answer {
	c.t.Helper()
	return c.do(method, path, "application/json", body, nil)
}

func errCode(a answer) string {
	e, _ := a.body["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func TestAccountScenario(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		c := &client{t: t, h: h}

		// The XSRF cookie: issued on a first API call, required on unsafe ones.
		if a := c.json("POST", "/api/v1/auth/signup", `{"email":"ada@example.com","password":"correct horse"}`); a.status != 403 || errCode(a) != "xsrf" {
			t.Fatalf("signup without the XSRF header: %d %s", a.status, a.raw)
		}
		if c.xsrf == "" {
			t.Fatal("no XSRF-TOKEN cookie was issued")
		}
		a := c.do("GET", "/api/v1/auth/xsrf", "", "", nil)
		if a.status != 204 {
			t.Fatalf("GET xsrf: %d", a.status)
		}
		forged := c.do("POST", "/api/v1/auth/signup", "application/json", `{"email":"x@example.com","password":"12345678"}`, map[string]string{xsrfHeader: "forged-forged-forged-forged-forged-forged"})
		if forged.status != 403 {
			t.Fatalf("a mismatched XSRF header: %d", forged.status)
		}

		a = c.json("POST", "/api/v1/auth/signup", `{"email":" Ada@Example.com","password":"correct horse","displayName":"Ada","locale":"de"}`)
		if a.status != 201 || a.body["token"] == "" {
			t.Fatalf("signup: %d %s", a.status, a.raw)
		}
		profile := a.body["profile"].(map[string]any)
		if profile["email"] != "ada@example.com" || profile["displayName"] != "Ada" || profile["locale"] != "de" {
			t.Fatalf("profile: %v", profile)
		}
		c.token = a.body["token"].(string)

		for _, auth := range []string{"Bearer" + c.token, "Bearer " + c.token, "bearer " + c.token} {
			a = c.do("GET", "/api/v1/auth/me", "", "", map[string]string{"Authorization": auth})
			if a.status != 200 || a.body["user"].(map[string]any)["email"] != "ada@example.com" {
				t.Fatalf("me with %q: %d %s", auth[:7], a.status, a.raw)
			}
		}
		if a.header.Get("Cache-Control") != cacheNoStore {
			t.Errorf("API answers must not be cached: %q", a.header.Get("Cache-Control"))
		}

		a = c.json("PATCH", "/api/v1/auth/me", `{"displayName":"Ada L.","preferences":{"theme":"dark","area":{"unit":"m2","decimals":3}}}`)
		if a.status != 200 || a.body["profile"].(map[string]any)["displayName"] != "Ada L." {
			t.Fatalf("update: %d %s", a.status, a.raw)
		}

		a = c.do("GET", "/api/v1/auth/me/export", "", "", nil)
		if a.status != 200 || !strings.Contains(a.header.Get("Content-Disposition"), "attachment") || len(a.body["documents"].([]any)) != 1 {
			t.Fatalf("export: %d %s", a.status, a.raw)
		}

		// Sign out, then in again (same answer for a wrong password as for an unknown address).
		if a = c.json("POST", "/api/v1/auth/signout", ""); a.status != 204 {
			t.Fatalf("signout: %d %s", a.status, a.raw)
		}
		if a = c.do("GET", "/api/v1/auth/me", "", "", nil); a.status != 401 || errCode(a) != "unauthenticated" {
			t.Fatalf("me after sign-out: %d %s", a.status, a.raw)
		}
		c.token = ""
		wrong := c.json("POST", "/api/v1/auth/signin", `{"email":"ada@example.com","password":"wrong horse"}`)
		unknown := c.json("POST", "/api/v1/auth/signin", `{"email":"bob@example.com","password":"correct horse"}`)
		if wrong.status != 401 || unknown.status != 401 || wrong.raw != unknown.raw {
			t.Fatalf("wrong password %d %s; unknown address %d %s: want the same 401", wrong.status, wrong.raw, unknown.status, unknown.raw)
		}
		a = c.json("POST", "/api/v1/auth/signin", `{"email":"ADA@example.com","password":"correct horse","locale":"jp"}`)
		if a.status != 200 || a.body["profile"].(map[string]any)["locale"] != "jp" || a.body["profile"].(map[string]any)["displayName"] != "Ada L." {
			t.Fatalf("signin: %d %s", a.status, a.raw)
		}
		c.token = a.body["token"].(string)

		// Delete asks for the password again, then erases everything.
		if a = c.json("DELETE", "/api/v1/auth/me", `{"password":"nope nope"}`); a.status != 403 || errCode(a) != "wrong-password" {
			t.Fatalf("delete with a wrong password: %d %s", a.status, a.raw)
		}
		if a = c.json("DELETE", "/api/v1/auth/me", `{"password":"correct horse"}`); a.status != 204 {
			t.Fatalf("delete: %d %s", a.status, a.raw)
		}
		if a = c.do("GET", "/api/v1/auth/me", "", "", nil); a.status != 401 {
			t.Fatalf("me after delete: %d", a.status)
		}
		c.token = ""
		if a = c.json("POST", "/api/v1/auth/signin", `{"email":"ada@example.com","password":"correct horse"}`); a.status != 401 {
			t.Fatalf("sign-in to a deleted account: %d", a.status)
		}
	})
}

func TestBadInputIsAClearError(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		c := &client{t: t, h: h}
		c.do("GET", "/api/v1/auth/xsrf", "", "", nil)
		if a := c.json("POST", "/api/v1/auth/signup", `{"email":"taken@example.com","password":"12345678"}`); a.status != 201 {
			t.Fatalf("signup: %d %s", a.status, a.raw)
		}
		huge := `{"email":"a@example.com","password":"` + strings.Repeat("x", maxJSONBody) + `"}`
		tests := []struct {
			name, method, path, contentType, body string
			status                                int
			code                                  string
		}{
			{"malformed JSON", "POST", "/api/v1/auth/signup", "application/json", `{"email":`, 400, "invalid-json"},
			{"not an object", "POST", "/api/v1/auth/signup", "application/json", `[1,2]`, 400, "invalid-field"},
			{"two objects", "POST", "/api/v1/auth/signup", "application/json", `{"email":"a@example.com","password":"12345678"}{}`, 400, "invalid-json"},
			{"wrong type", "POST", "/api/v1/auth/signup", "application/json", `{"email":42,"password":"12345678"}`, 400, "invalid-field"},
			{"unknown field", "POST", "/api/v1/auth/signup", "application/json", `{"email":"a@example.com","password":"12345678","admin":true}`, 400, "unknown-field"},
			{"a field name in capitals", "POST", "/api/v1/auth/signup", "application/json", `{"EMAIL":"c@example.com","password":"12345678"}`, 400, "unknown-field"},
			{"a field name capitalised", "POST", "/api/v1/auth/signin", "application/json", `{"email":"taken@example.com","Password":"12345678"}`, 400, "unknown-field"},
			{"a display name with a direction override", "POST", "/api/v1/auth/signup", "application/json", `{"email":"d@example.com","password":"12345678","displayName":"\u202eevil"}`, 400, "invalid-display-name"},
			{"an invalid email at sign-in", "POST", "/api/v1/auth/signin", "application/json", `{"email":"nope","password":"12345678"}`, 400, "invalid-email"},
			{"display name at sign-in", "POST", "/api/v1/auth/signin", "application/json", `{"email":"a@example.com","password":"12345678","displayName":"x"}`, 400, "unknown-field"},
			{"empty body", "POST", "/api/v1/auth/signup", "application/json", ``, 400, "invalid-json"},
			{"not JSON", "POST", "/api/v1/auth/signup", "text/plain", `email=a`, 415, "not-json"},
			{"oversize body", "POST", "/api/v1/auth/signup", "application/json", huge, 413, "too-large"},
			{"invalid email", "POST", "/api/v1/auth/signup", "application/json", `{"email":"nope","password":"12345678"}`, 400, "invalid-email"},
			{"short password", "POST", "/api/v1/auth/signup", "application/json", `{"email":"a@example.com","password":"1234567"}`, 400, "invalid-password"},
			{"taken", "POST", "/api/v1/auth/signup", "application/json", `{"email":"TAKEN@example.com","password":"12345678"}`, 409, "email-taken"},
			{"unknown locale", "POST", "/api/v1/auth/signup", "application/json", `{"email":"b@example.com","password":"12345678","locale":"xx"}`, 400, "invalid-locale"},
			{"no token", "GET", "/api/v1/auth/me", "", ``, 401, "unauthenticated"},
			{"unknown endpoint", "GET", "/api/v1/nope", "", ``, 404, "not-found"},
			{"wrong method", "PUT", "/api/v1/auth/signup", "application/json", `{}`, 405, "method-not-allowed"},
			{"unknown path below an endpoint", "GET", "/api/v1/auth/me/nope", "", ``, 404, "not-found"},
		}
		for _, tt := range tests {
			a := c.do(tt.method, tt.path, tt.contentType, tt.body, nil)
			if a.status != tt.status || errCode(a) != tt.code {
				t.Errorf("%s: %d %q, want %d %q (%.200s)", tt.name, a.status, errCode(a), tt.status, tt.code, a.raw)
			}
		}
		// Nothing was half-written: only the one account exists.
		var n int
		st.QueryRow(t.Context(), "SELECT COUNT(*) FROM users").Scan(&n)
		if n != 1 {
			t.Errorf("%d users after the bad requests, want 1", n)
		}
	})
}

func TestSigninRateLimitAnswers429(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.Limits{Window: time.Hour, PerAccount: 2, PerAddress: 100})
		c := &client{t: t, h: h}
		c.do("GET", "/api/v1/auth/xsrf", "", "", nil)
		c.json("POST", "/api/v1/auth/signup", `{"email":"a@example.com","password":"12345678"}`)
		// A stranger elsewhere spends the account's limit...
		stranger := &client{t: t, h: h, remote: "198.51.100.9:4444"}
		stranger.do("GET", "/api/v1/auth/xsrf", "", "", nil)
		for range 2 {
			stranger.json("POST", "/api/v1/auth/signin", `{"email":"a@example.com","password":"wrong!!!"}`)
		}
		a := stranger.json("POST", "/api/v1/auth/signin", `{"email":"a@example.com","password":"12345678"}`)
		retry := a.header.Get("Retry-After")
		if a.status != 429 || errCode(a) != "rate-limited" || retry == "" || retry == "0" {
			t.Fatalf("3rd sign-in: %d %s, Retry-After %q", a.status, a.raw, retry)
		}
		// ...which does not stop the owner from the network they signed up from.
		if a := c.json("POST", "/api/v1/auth/signin", `{"email":"a@example.com","password":"12345678"}`); a.status != 200 {
			t.Fatalf("the owner at home: %d %s", a.status, a.raw)
		}
	})
}

func TestXSRFCookieAttributes(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	h := apiServer(t, st, account.DefaultLimits)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/auth/xsrf", nil))
	cookies := rec.Result().Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies: %v", cookies)
	}
	ck := cookies[0]
	if ck.Name != "XSRF-TOKEN" || ck.Path != "/" || ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.MaxAge != 0 || !ck.Expires.IsZero() || len(ck.Value) < 43 {
		t.Errorf("XSRF cookie %+v: want a session cookie, Path=/, SameSite=Strict, readable by script", ck)
	}
	// A client that has one keeps it.
	r := httptest.NewRequest("GET", "/api/v1/auth/xsrf", nil)
	r.AddCookie(ck)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if len(rec.Result().Cookies()) != 0 {
		t.Error("a new XSRF cookie for a client that has one")
	}
}

// Over a real connection: a request whose headers pass the limit gets 431 from net/http, and
// /readyz turns 503 when the database stops answering.
func TestHugeHeadersAndReadiness(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	s, err := New(config.Config{PublicURL: httpOrigin}, site.Default(), fixtureDist(site.Default()), logger, WithReadiness(st.Ping), quickCompression)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	t.Cleanup(func() { s.Shutdown(context.Background()) })
	base := "http://" + ln.Addr().String()

	req, _ := http.NewRequest("POST", base+"/api/v1/auth/signin", strings.NewReader("{}"))
	req.Header.Set("X-Padding", strings.Repeat("x", maxHeaderBytes+4096))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("huge headers: %d, want 431", res.StatusCode)
	}

	get := func() int {
		res, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := get(); code != 200 {
		t.Fatalf("readyz with the database up: %d", code)
	}
	st.Close()
	if code := get(); code != 503 {
		t.Errorf("readyz with the database closed: %d, want 503", code)
	}
}
