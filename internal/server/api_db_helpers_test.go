package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/docstore"
	"handy/internal/store"
)

// HTTP scenarios of the document store's API (/api/v1/db), through the real handler, on both
// engines.

const dbPassword = "correct horse"

// newDBServer builds the server as newAPIServer does, with options for its document store (a
// small write rate).
func newDBServer(t *testing.T, st *store.Store, opts ...docstore.Option) *Server {
	t.Helper()
	return newAPIServer(t, st, account.DefaultLimits, opts...)
}

// dbUser is a signed-up user: a client holding the XSRF cookie and the token, and the uid.
type dbUser struct {
	*client
	uid string
}

func dbSignup(t *testing.T, h http.Handler, email string) dbUser {
	t.Helper()
	c := &client{t: t, h: h}
	c.do("GET", "/api/v1/auth/xsrf", "", "", nil)
	a := c.json("POST", "/api/v1/auth/signup", `{"email":"`+email+`","password":"`+dbPassword+`"}`)
	if a.status != 201 {
		t.Fatalf("signup %s: %d %s", email, a.status, a.raw)
	}
	c.token = a.body["token"].(string)
	return dbUser{c, a.body["user"].(map[string]any)["id"].(string)}
}

// path is the name of one of the user's documents: path("history/h1") is users/{uid}/history/h1.
func (u dbUser) path(rel string) string {
	if rel == "" {
		return "users/" + u.uid
	}
	return "users/" + u.uid + "/" + rel
}

func (u dbUser) commit(body string) answer {
	u.t.Helper()
	return u.json("POST", "/api/v1/db/commit", body)
}

func (u dbUser) get(path string) answer {
	u.t.Helper()
	return u.do("GET", "/api/v1/db/documents/"+path, "", "", nil)
}

func (u dbUser) query(parent, structuredQuery string) answer {
	u.t.Helper()
	return u.json("POST", "/api/v1/db/query", `{"parent":"`+parent+`","structuredQuery":`+structuredQuery+`}`)
}

func (u dbUser) listen(params string) answer {
	u.t.Helper()
	return u.do("GET", "/api/v1/db/listen?"+params, "", "", nil)
}

// update is one write replacing (or creating) the document at path with fields, given in
// Firestore REST v1 JSON; extra is added to the write as is (",\"updateMask\":…").
func update(path, fields, extra string) string {
	return `{"update":{"name":"` + path + `","fields":` + fields + `}` + extra + `}`
}

func deleteWrite(path, extra string) string { return `{"delete":"` + path + `"` + extra + `}` }

func writes(ws ...string) string { return `{"writes":[` + strings.Join(ws, ",") + `]}` }

func errMessage(a answer) string {
	e, _ := a.body["error"].(map[string]any)
	m, _ := e["message"].(string)
	return m
}

// jsonValue decodes s as the client decodes answers, for comparing JSON by value.
func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad JSON in the test: %v: %s", err, s)
	}
	return v
}

// sameJSON reports whether a decoded part of an answer is the JSON want.
func sameJSON(t *testing.T, got any, want string) bool {
	t.Helper()
	return reflect.DeepEqual(got, jsonValue(t, want))
}

// versionOf reads a version: a decimal string, as proto3 JSON writes int64s.
func versionOf(t *testing.T, v any) int64 {
	t.Helper()
	s, ok := v.(string)
	n, err := strconv.ParseInt(s, 10, 64)
	if !ok || err != nil || strconv.FormatInt(n, 10) != s {
		t.Fatalf("version %#v is not a decimal string", v)
	}
	return n
}

var commitTimeFormat = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`)

// commitOK checks a commit's answer: 200, n write results, each updateTime the commit time
// (or, for the deletes, {}), a commit time in UTC to the microsecond, and a version. It returns
// the commit time and version.
func commitOK(t *testing.T, a answer, n int, deletes ...int) (commitTime string, version int64) {
	t.Helper()
	if a.status != 200 {
		t.Fatalf("commit: %d %.500s", a.status, a.raw)
	}
	commitTime, _ = a.body["commitTime"].(string)
	if !commitTimeFormat.MatchString(commitTime) {
		t.Fatalf("commitTime %q: want RFC 3339 in UTC with 6 fractional digits (%.500s)", commitTime, a.raw)
	}
	results, _ := a.body["writeResults"].([]any)
	if len(results) != n {
		t.Fatalf("%d write results for %d writes: %.500s", len(results), n, a.raw)
	}
	for i, r := range results {
		want := map[string]any{"updateTime": commitTime}
		if slices.Contains(deletes, i) {
			want = map[string]any{}
		}
		if !reflect.DeepEqual(r, want) {
			t.Errorf("writeResults[%d] = %v, want %v", i, r, want)
		}
	}
	return commitTime, versionOf(t, a.body["version"])
}
