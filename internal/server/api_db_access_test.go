package server

import (
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestDBAccessRules proves that a user reaches only users/{own uid} and below: another user's
// documents and paths outside users/ are 403 permission-denied on every endpoint (and a batch
// touching one writes nothing), and every endpoint wants a valid token (401).
func TestDBAccessRules(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		ada, bob := dbSignup(t, h, "ada@example.com"), dbSignup(t, h, "bob@example.com")
		bDoc := bob.path("history/h1")
		_, vb := commitOK(t, bob.commit(writes(update(bDoc, `{"n":{"integerValue":"1"}}`, ""))), 1)
		const fromHistory = `{"from":[{"collectionId":"history"}]}`

		for _, tt := range []struct {
			name   string
			do     func() answer
			target string // the path the message names
		}{
			{"GET Bob's document", func() answer { return ada.get(bDoc) }, bDoc},
			{"GET Bob's profile", func() answer { return ada.get(bob.path("")) }, bob.path("")},
			{"GET outside users/", func() answer { return ada.get("public/notes") }, "public/notes"},
			{"update Bob's document", func() answer { return ada.commit(writes(update(bDoc, `{}`, ""))) }, bDoc},
			{"delete Bob's document", func() answer { return ada.commit(writes(deleteWrite(bDoc, ""))) }, bDoc},
			{"update outside users/", func() answer { return ada.commit(writes(update("public/notes", `{}`, ""))) }, "public/notes"},
			{"own and Bob's writes in one batch", func() answer {
				return ada.commit(writes(update(ada.path("history/mine"), `{}`, ""), update(bDoc, `{}`, "")))
			}, bDoc},
			{"query Bob's collection", func() answer { return ada.query(bob.path(""), fromHistory) }, bob.path("history")},
			{"query the users collection", func() answer { return ada.query("", `{"from":[{"collectionId":"users"}]}`) }, "users"},
			{"query outside users/", func() answer { return ada.query("public/x", fromHistory) }, "public/x/history"},
		} {
			r := tt.do()
			if r.status != 403 || errCode(r) != "permission-denied" || !strings.Contains(errMessage(r), `"`+tt.target+`"`) {
				t.Errorf("%s: %d %s, want 403 permission-denied naming %q", tt.name, r.status, r.raw, tt.target)
			}
		}
		if r := ada.get(ada.path("history/mine")); r.status != 404 {
			t.Errorf("a refused batch wrote its allowed write: %d %s", r.status, r.raw)
		}
		if r := bob.get(bDoc); r.status != 200 || versionOf(t, r.body["version"]) != vb {
			t.Errorf("Bob's document after Ada's attempts: %d %s", r.status, r.raw)
		}

		// No token, or one that is not a session: 401 on all four endpoints.
		for _, token := range []string{"", "not-a-token-not-a-token-not-a-token-not-a"} {
			c := &client{t: t, h: h, xsrf: ada.xsrf, token: token}
			for _, tt := range []struct{ method, path, body string }{
				{"GET", "/api/v1/db/documents/" + bDoc, ""},
				{"POST", "/api/v1/db/commit", writes(update(bDoc, `{}`, ""))},
				{"POST", "/api/v1/db/query", `{"parent":"` + bob.path("") + `","structuredQuery":` + fromHistory + `}`},
				{"GET", "/api/v1/db/listen?since=0&timeout=5s", ""},
			} {
				r := c.json(tt.method, tt.path, tt.body)
				if r.status != 401 || errCode(r) != "unauthenticated" {
					t.Errorf("%s %s with token %q: %d %s, want 401 unauthenticated", tt.method, tt.path, token, r.status, r.raw)
				}
			}
		}
	})
}

// TestDBXSRFAndMethods proves that the unsafe endpoints want the XSRF header (403 xsrf),
// that GET documents and listen need neither the header nor the cookie, and that other methods
// are 405 with Allow.
func TestDBXSRFAndMethods(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u := dbSignup(t, h, "ada@example.com")
		h1 := u.path("history/h1")
		commit := writes(update(h1, `{}`, ""))
		query := `{"parent":"` + u.path("") + `","structuredQuery":{"from":[{"collectionId":"history"}]}}`
		for _, tt := range []struct {
			name, path, body string
			header           map[string]string
		}{
			{"commit without the header", "/api/v1/db/commit", commit, map[string]string{xsrfHeader: ""}},
			{"commit with a forged header", "/api/v1/db/commit", commit, map[string]string{xsrfHeader: strings.Repeat("f", 43)}},
			{"query without the header", "/api/v1/db/query", query, map[string]string{xsrfHeader: ""}},
		} {
			if a := u.do("POST", tt.path, "application/json", tt.body, tt.header); a.status != 403 || errCode(a) != "xsrf" {
				t.Errorf("%s: %d %s, want 403 xsrf", tt.name, a.status, a.raw)
			}
		}
		noCookie := &client{t: t, h: h, token: u.token}
		if a := noCookie.json("POST", "/api/v1/db/commit", commit); a.status != 403 || errCode(a) != "xsrf" {
			t.Errorf("commit without cookie or header: %d %s, want 403 xsrf", a.status, a.raw)
		}
		if a := u.get(h1); a.status != 404 {
			t.Errorf("a commit refused for XSRF was applied: %d %s", a.status, a.raw)
		}
		commitOK(t, u.commit(commit), 1)
		for _, path := range []string{"/api/v1/db/documents/" + h1, "/api/v1/db/listen?since=0&timeout=5s"} {
			bare := &client{t: t, h: h, token: u.token}
			if a := bare.do("GET", path, "", "", nil); a.status != 200 {
				t.Errorf("GET %s without XSRF cookie or header: %d %s, want 200", path, a.status, a.raw)
			}
		}

		for _, tt := range []struct{ method, path, allow string }{
			{"PUT", "/api/v1/db/commit", "POST"},
			{"GET", "/api/v1/db/commit", "POST"},
			{"GET", "/api/v1/db/query", "POST"},
			{"DELETE", "/api/v1/db/documents/" + h1, "GET, HEAD"},
			{"PATCH", "/api/v1/db/documents/" + h1, "GET, HEAD"},
			{"POST", "/api/v1/db/listen", "GET, HEAD"},
		} {
			a := u.do(tt.method, tt.path, "application/json", "{}", map[string]string{xsrfHeader: ""})
			if a.status != 405 || errCode(a) != "method-not-allowed" || a.header.Get("Allow") != tt.allow {
				t.Errorf("%s %s: %d Allow %q %s, want 405 Allow %q", tt.method, tt.path, a.status, a.header.Get("Allow"), a.raw, tt.allow)
			}
		}
		if a := u.get(h1); a.status != 200 {
			t.Errorf("a 405 deleted the document: %d %s", a.status, a.raw)
		}
	})
}

// TestDBUncleanPaths: paths ServeMux would redirect answer the API's JSON instead.
func TestDBUncleanPaths(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newAPIServer(t, st, account.DefaultLimits)
		u := dbSignup(t, s.handler, "ada@example.com")
		for path, want := range map[string]int{
			"/api":                                      404,
			"/api/v1/db/documents/users//x":             404,
			"/api/v1/db/documents/users/x/../y":         404,
			"/api/v1/db/./listen":                       404,
			"/api/v1/db/documents":                      400,
			"/api/v1/db/documents/" + u.path("history"): 400, // a collection
		} {
			a := u.do("GET", path, "", "", nil)
			if a.status != want || a.body == nil || a.header.Get("Location") != "" {
				t.Errorf("GET %s: %d %q, want %d and JSON", path, a.status, a.raw, want)
			}
		}
	})
}
