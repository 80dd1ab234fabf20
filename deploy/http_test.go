//go:build deploy

package deploy

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"handy/internal/handytest"
)

// credentials is an account the test makes before a restart and signs in with after it.
type credentials struct{ Email, Password string }

// checkServes asks for the home page and /healthz.
func checkServes(t *testing.T, h *handytest.Handy) {
	t.Helper()
	client := &http.Client{Timeout: 20 * time.Second}
	for path, want := range map[string]string{"/": "<!doctype html>", "/healthz": "ok"} {
		res, err := client.Get(h.URL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK || !strings.HasPrefix(strings.ToLower(string(body)), want) {
			t.Errorf("GET %s: %d %.80q, %v; want 200 and %q", path, res.StatusCode, body, err, want)
		}
	}
}

// signUp makes an account, written to the database in /data.
func signUp(t *testing.T, base string) credentials {
	t.Helper()
	c := credentials{Email: "ada@example.com", Password: "correct horse"}
	post(t, base, "/api/v1/auth/signup", c, http.StatusCreated)
	return c
}

// signIn signs in with c: the account survived.
func signIn(t *testing.T, base string, c credentials) {
	t.Helper()
	post(t, base, "/api/v1/auth/signin", c, http.StatusOK)
}

// post sends body as JSON to an API endpoint with the XSRF cookie and header.
func post(t *testing.T, base, path string, body credentials, want int) {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 20 * time.Second, Jar: jar}
	res, err := client.Get(base + "/api/v1/auth/xsrf")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	u, _ := url.Parse(base)
	xsrf := ""
	for _, c := range jar.Cookies(u) {
		if c.Name == "XSRF-TOKEN" {
			xsrf = c.Value
		}
	}
	b, err := json.Marshal(map[string]string{"email": body.Email, "password": body.Password})
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-XSRF-TOKEN", xsrf)
	res, err = client.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != want {
		t.Fatalf("POST %s: %d %s; want %d", path, res.StatusCode, answer, want)
	}
}
