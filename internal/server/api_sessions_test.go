package server

import (
	"testing"

	"handy/internal/account"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestPasswordChangeAndSignoutEverywhere(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		c := &client{t: t, h: h}
		c.do("GET", "/api/v1/auth/xsrf", "", "", nil)
		a := c.json("POST", "/api/v1/auth/signup", `{"email":"a@example.com","password":"old password"}`)
		c.token, _ = a.body["token"].(string)
		laptop := &client{t: t, h: h, remote: "192.0.2.10:6000"}
		laptop.do("GET", "/api/v1/auth/xsrf", "", "", nil)
		a = laptop.json("POST", "/api/v1/auth/signin", `{"email":"a@example.com","password":"old password"}`)
		laptop.token, _ = a.body["token"].(string)

		for _, tt := range []struct {
			name, body string
			status     int
			code       string
		}{
			{"wrong current password", `{"currentPassword":"nope nope","newPassword":"new password"}`, 403, "wrong-password"},
			{"new password too short", `{"currentPassword":"old password","newPassword":"short"}`, 400, "invalid-password"},
			{"a field name in capitals", `{"CurrentPassword":"old password","newPassword":"new password"}`, 400, "unknown-field"},
		} {
			if a := c.json("POST", "/api/v1/auth/password", tt.body); a.status != tt.status || errCode(a) != tt.code {
				t.Errorf("%s: %d %q, want %d %q", tt.name, a.status, errCode(a), tt.status, tt.code)
			}
		}
		if a := c.json("POST", "/api/v1/auth/password", `{"currentPassword":"old password","newPassword":"new password"}`); a.status != 204 {
			t.Fatalf("change: %d %s", a.status, a.raw)
		}
		if a := c.do("GET", "/api/v1/auth/me", "", "", nil); a.status != 200 {
			t.Errorf("this session after the change: %d", a.status)
		}
		if a := laptop.do("GET", "/api/v1/auth/me", "", "", nil); a.status != 401 {
			t.Errorf("the other session after the change: %d, want 401", a.status)
		}
		a = laptop.json("POST", "/api/v1/auth/signin", `{"email":"a@example.com","password":"new password"}`)
		laptop.token, _ = a.body["token"].(string)

		if a := c.json("POST", "/api/v1/auth/signout-everywhere", ``); a.status != 204 {
			t.Fatalf("sign out everywhere: %d %s", a.status, a.raw)
		}
		for name, cl := range map[string]*client{"this": c, "the other": laptop} {
			if a := cl.do("GET", "/api/v1/auth/me", "", "", nil); a.status != 401 {
				t.Errorf("%s session after signing out everywhere: %d, want 401", name, a.status)
			}
		}
		if a := c.json("POST", "/api/v1/auth/signout-everywhere", ``); a.status != 401 {
			t.Errorf("signing out everywhere without a session: %d, want 401", a.status)
		}
	})
}
