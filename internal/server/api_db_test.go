package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"handy/internal/account"
	"handy/internal/docstore"
	"handy/internal/store"
	"handy/internal/store/storetest"
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

// listenAsync starts a listen on another goroutine and delivers its answer; the answer is
// decoded there without failing the test, so the receiver checks it.
func (u dbUser) listenAsync(params string) <-chan answer {
	r := httptest.NewRequest("GET", "/api/v1/db/listen?"+params, nil)
	r.RemoteAddr = "192.0.2.10:5555"
	r.Header.Set("Authorization", "Bearer "+u.token)
	ch := make(chan answer, 1)
	go func() {
		rec := httptest.NewRecorder()
		u.h.ServeHTTP(rec, r)
		a := answer{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
		json.Unmarshal(rec.Body.Bytes(), &a.body)
		ch <- a
	}()
	return ch
}

// listenWaiting is listenAsync that also says when the listen starts to wait (its headers are
// flushed then), so that a test acts once it waits rather than after a guessed pause.
func (u dbUser) listenWaiting(params string) (waiting <-chan struct{}, answered <-chan answer) {
	r := httptest.NewRequest("GET", "/api/v1/db/listen?"+params, nil)
	r.RemoteAddr = "192.0.2.10:5555"
	r.Header.Set("Authorization", "Bearer "+u.token)
	w := &flushSignal{ResponseRecorder: httptest.NewRecorder(), flushed: make(chan struct{})}
	ch := make(chan answer, 1)
	go func() {
		u.h.ServeHTTP(w, r)
		a := answer{status: w.Code, header: w.Header(), raw: w.Body.String()}
		json.Unmarshal(w.Body.Bytes(), &a.body)
		ch <- a
	}()
	return w.flushed, ch
}

// flushSignal is a recorder that closes flushed at its first Flush.
type flushSignal struct {
	*httptest.ResponseRecorder
	once    sync.Once
	flushed chan struct{}
}

func (f *flushSignal) Flush() {
	f.ResponseRecorder.Flush()
	f.once.Do(func() { close(f.flushed) })
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

// TestDBCommitAndGet proves a commit's answer (writeResults, commitTime, version as a decimal
// string), a document as GET answers it (relative name, Firestore REST v1 fields, times,
// version), replace, merge with updateMask, delete, the exists and updateTime preconditions
// (412, atomically), a no-op write, and 404 after a delete.
func TestDBCommitAndGet(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		u := dbSignup(t, apiServer(t, st, account.DefaultLimits), "ada@example.com")
		h1, h2, h3, h4 := u.path("history/h1"), u.path("history/h2"), u.path("history/h3"), u.path("history/h4")
		h1Fields := `{"tool":{"stringValue":"area"},"n":{"integerValue":"3"},"ratio":{"doubleValue":0.5},
			"ok":{"booleanValue":true},"none":{"nullValue":null},"at":{"timestampValue":"2026-01-02T03:04:05.123456Z"},
			"where":{"geoPointValue":{"latitude":48.85,"longitude":2.35}},"blob":{"bytesValue":"aGk="},
			"tags":{"arrayValue":{"values":[{"stringValue":"a"},{"integerValue":"1"}]}},
			"m":{"mapValue":{"fields":{"x":{"stringValue":"y"}}}}}`
		a := u.commit(writes(
			update(h1, h1Fields, `,"currentDocument":{"exists":false}`),
			update(h2, `{"tool":{"stringValue":"speed"}}`, ""),
			update(h3, `{"tool":{"stringValue":"area"}}`, ""),
		))
		t1, v1 := commitOK(t, a, 3)

		a = u.get(h1)
		if a.status != 200 {
			t.Fatalf("GET %s: %d %s", h1, a.status, a.raw)
		}
		if a.body["name"] != h1 || !sameJSON(t, a.body["fields"], h1Fields) || a.body["createTime"] != t1 || a.body["updateTime"] != t1 || versionOf(t, a.body["version"]) != v1 {
			t.Fatalf("GET %s = %s\nwant name %s, the fields written, createTime = updateTime = %s, version %q", h1, a.raw, h1, t1, strconv.FormatInt(v1, 10))
		}
		updated2 := u.get(h2).body["updateTime"].(string)

		// Merge (masked paths set or deleted, the rest kept, unmasked input ignored), replace
		// under a matching updateTime, delete of an existing document.
		a = u.commit(writes(
			update(h1, `{"n":{"integerValue":"4"},"m":{"mapValue":{"fields":{"z":{"stringValue":"new"}}}},"ignored":{"stringValue":"x"}}`,
				`,"updateMask":{"fieldPaths":["n","ratio","m.z"]}`),
			update(h2, `{"tool":{"stringValue":"speed"},"n":{"integerValue":"10"}}`, `,"currentDocument":{"updateTime":"`+updated2+`"}`),
			deleteWrite(h3, `,"currentDocument":{"exists":true}`),
		))
		t2, v2 := commitOK(t, a, 3, 2)
		if v2 <= v1 || t2 <= t1 {
			t.Fatalf("second commit: version %d, time %s after %d, %s", v2, t2, v1, t1)
		}
		a = u.get(h1)
		merged := `{"tool":{"stringValue":"area"},"n":{"integerValue":"4"},
			"ok":{"booleanValue":true},"none":{"nullValue":null},"at":{"timestampValue":"2026-01-02T03:04:05.123456Z"},
			"where":{"geoPointValue":{"latitude":48.85,"longitude":2.35}},"blob":{"bytesValue":"aGk="},
			"tags":{"arrayValue":{"values":[{"stringValue":"a"},{"integerValue":"1"}]}},
			"m":{"mapValue":{"fields":{"x":{"stringValue":"y"},"z":{"stringValue":"new"}}}}}`
		if !sameJSON(t, a.body["fields"], merged) || a.body["createTime"] != t1 || a.body["updateTime"] != t2 || versionOf(t, a.body["version"]) != v2 {
			t.Errorf("after the merge, GET %s = %s\nwant fields %s, createTime %s, updateTime %s, version %d", h1, a.raw, merged, t1, t2, v2)
		}
		a = u.get(h2)
		if !sameJSON(t, a.body["fields"], `{"tool":{"stringValue":"speed"},"n":{"integerValue":"10"}}`) || a.body["updateTime"] != t2 {
			t.Errorf("after the replace, GET %s = %s", h2, a.raw)
		}
		a = u.get(h3)
		if a.status != 404 || errCode(a) != "not-found" || !strings.Contains(errMessage(a), h3) {
			t.Errorf("GET %s after its delete: %d %s, want 404 not-found naming it", h3, a.status, a.raw)
		}

		// A failing precondition fails its whole batch with 412, naming the document.
		for _, tt := range []struct {
			name, body, fragment string
		}{
			{"exists false on a live document", writes(update(h1, `{}`, `,"currentDocument":{"exists":false}`)), "already exists"},
			{"exists true on a deleted document", writes(update(h3, `{}`, `,"currentDocument":{"exists":true}`)), "does not exist"},
			{"stale updateTime", writes(update(h2, `{}`, `,"currentDocument":{"updateTime":"`+t1+`"}`)), "was last updated at"},
			{"updateTime of a deleted document", writes(deleteWrite(h3, `,"currentDocument":{"updateTime":"`+t1+`"}`)), "does not exist"},
			{"a good write before a failing one", writes(update(h4, `{}`, ""), update(h1, `{}`, `,"currentDocument":{"exists":false}`)), "already exists"},
		} {
			a := u.commit(tt.body)
			if a.status != 412 || errCode(a) != "failed-precondition" || !strings.Contains(errMessage(a), tt.fragment) || !strings.Contains(errMessage(a), "history/h") {
				t.Errorf("%s: %d %s, want 412 failed-precondition with %q and the document", tt.name, a.status, a.raw, tt.fragment)
			}
		}
		if a := u.get(h4); a.status != 404 {
			t.Errorf("a batch that failed wrote %s: %d %s", h4, a.status, a.raw)
		}
		for _, p := range []string{h1, h2} {
			if a := u.get(p); versionOf(t, a.body["version"]) != v2 || a.body["updateTime"] != t2 {
				t.Errorf("failed batches changed %s: %s", p, a.raw)
			}
		}

		// A write that changes nothing keeps the updateTime and the version (as Firestore does);
		// a delete of a missing document answers {}.
		a = u.commit(writes(update(h2, `{"n":{"integerValue":"10"},"tool":{"stringValue":"speed"}}`, ""), deleteWrite(u.path("history/none"), "")))
		if a.status != 200 || !sameJSON(t, a.body["writeResults"], `[{"updateTime":"`+t2+`"},{}]`) || versionOf(t, a.body["version"]) != v2 {
			t.Errorf("no-op commit: %d %s, want the old updateTime %s and version %d", a.status, a.raw, t2, v2)
		}
		if a := u.get(h2); versionOf(t, a.body["version"]) != v2 || a.body["updateTime"] != t2 {
			t.Errorf("a no-op write changed %s: %s", h2, a.raw)
		}

		// Ids that need escaping in the URL come back whole.
		for _, id := range []string{"a b", "é", "a%b", "a?b", "a#b", "a+b", "~x"} {
			p := u.path("history/" + id)
			commitOK(t, u.commit(writes(update(p, `{}`, ""))), 1)
			if a := u.get(u.path("history/") + url.PathEscape(id)); a.status != 200 || a.body["name"] != p {
				t.Errorf("GET %q: %d %s", p, a.status, a.raw)
			}
		}
	})
}

// TestDBQuery proves that a query answers {"documents":[...]} with full documents, filtered,
// ordered and limited as asked (limitToLast keeping the query's order), and [] for no match.
func TestDBQuery(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		u := dbSignup(t, apiServer(t, st, account.DefaultLimits), "ada@example.com")
		var ws []string
		for i, tool := range []string{"area", "speed", "area", "area", "speed"} {
			ws = append(ws, update(u.path(fmt.Sprintf("history/h%d", i+1)), fmt.Sprintf(`{"tool":{"stringValue":%q},"n":{"integerValue":"%d"}}`, tool, i+1), ""))
		}
		_, v := commitOK(t, u.commit(writes(ws...)), 5)

		const isArea = `{"fieldFilter":{"field":{"fieldPath":"tool"},"op":"EQUAL","value":{"stringValue":"area"}}}`
		for _, tt := range []struct {
			name, query string
			want        []string // document ids, in order
		}{
			{"where, orderBy descending, limit",
				`{"from":[{"collectionId":"history"}],"where":` + isArea + `,"orderBy":[{"field":{"fieldPath":"n"},"direction":"DESCENDING"}],"limit":2}`,
				[]string{"h4", "h3"}},
			{"range filter, ascending",
				`{"from":[{"collectionId":"history"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN_OR_EQUAL","value":{"integerValue":"2"}}},"orderBy":[{"field":{"fieldPath":"n"}}]}`,
				[]string{"h2", "h3", "h4", "h5"}},
			{"limitToLast",
				`{"from":[{"collectionId":"history"}],"orderBy":[{"field":{"fieldPath":"n"}}],"limit":2,"limitToLast":true}`,
				[]string{"h4", "h5"}},
			{"composite AND with IN, by name",
				`{"from":[{"collectionId":"history"}],"where":{"compositeFilter":{"op":"AND","filters":[{"fieldFilter":{"field":{"fieldPath":"tool"},"op":"IN","value":{"arrayValue":{"values":[{"stringValue":"speed"}]}}}},{"unaryFilter":{"op":"IS_NOT_NULL","field":{"fieldPath":"n"}}}]}}}`,
				[]string{"h2", "h5"}},
			{"startAt cursor",
				`{"from":[{"collectionId":"history"}],"orderBy":[{"field":{"fieldPath":"n"}}],"startAt":{"values":[{"integerValue":"3"}],"before":true}}`,
				[]string{"h3", "h4", "h5"}},
			{"no match", `{"from":[{"collectionId":"history"}],"where":{"fieldFilter":{"field":{"fieldPath":"tool"},"op":"EQUAL","value":{"stringValue":"none"}}}}`,
				[]string{}},
		} {
			a := u.query(u.path(""), tt.query)
			docs, ok := a.body["documents"].([]any)
			if a.status != 200 || !ok || len(a.body) != 1 {
				t.Errorf("%s: %d %s, want 200 {\"documents\":[...]}", tt.name, a.status, a.raw)
				continue
			}
			got := []string{}
			for _, d := range docs {
				d := d.(map[string]any)
				name, _ := d["name"].(string)
				got = append(got, strings.TrimPrefix(name, u.path("history/")))
				if d["fields"] == nil || d["createTime"] == nil || d["updateTime"] == nil || versionOf(t, d["version"]) != v {
					t.Errorf("%s: incomplete document %v", tt.name, d)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
			}
		}
	})
}

// TestDBListen proves the long poll: since=0 answers the live documents; a listen waiting
// from a version answers a later commit (how soon: benchlisten), deletions as {"name","deleted":true,
// "updateTime","version"}; catching up from an old version replays changes in version order;
// a version from the future is a reset; an idle listen ends at its timeout with no change and
// its own version, unmoved by another user's commits.
func TestDBListen(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u := dbSignup(t, h, "ada@example.com")
		other := dbSignup(t, h, "bob@example.com")
		h1, h2 := u.path("history/h1"), u.path("history/h2")
		t1, v1 := commitOK(t, u.commit(writes(update(h1, `{"n":{"integerValue":"1"}}`, ""), update(h2, `{"n":{"integerValue":"2"}}`, ""))), 2)

		a := u.listen("since=0&timeout=5s")
		if a.status != 200 || a.body["reset"] != false || versionOf(t, a.body["version"]) != v1 {
			t.Fatalf("listen since=0: %d %s, want reset false, version %d", a.status, a.raw, v1)
		}
		var names []string
		for _, c := range a.body["changes"].([]any) {
			c := c.(map[string]any)
			names = append(names, c["name"].(string))
			if c["fields"] == nil || c["deleted"] != nil {
				t.Errorf("listen since=0: change %v is not a live document", c)
			}
		}
		slices.Sort(names)
		if want := []string{u.path(""), h1, h2}; !slices.Equal(names, want) {
			t.Errorf("listen since=0: documents %v, want %v", names, want)
		}

		// change starts a listen from since, checks that it holds, commits, and returns the
		// listen's answer, which must come after the commit (how soon is benchlisten's to
		// measure: `make bench`, part 6).
		change := func(since int64, commit string, deletes ...int) (answer, string, int64) {
			t.Helper()
			ch := u.listenAsync(fmt.Sprintf("since=%d&timeout=30s", since))
			select {
			case a := <-ch:
				t.Fatalf("listen since=%d answered before any change: %d %s", since, a.status, a.raw)
			case <-time.After(50 * time.Millisecond):
			}
			c := u.commit(commit)
			ct, v := commitOK(t, c, 1, deletes...)
			var a answer
			select {
			case a = <-ch:
			case <-time.After(20 * time.Second): // before its own timeout of 30 s: the commit woke it
				t.Fatalf("listen since=%d: no answer 20 s after a commit", since)
			}
			if a.status != 200 || a.body["reset"] != false || a.body["version"] != strconv.FormatInt(v, 10) {
				t.Fatalf("listen since=%d: %d %s, want reset false, version %d", since, a.status, a.raw, v)
			}
			return a, ct, v
		}
		a, t2, v2 := change(v1, writes(update(h1, `{"n":{"integerValue":"10"}}`, "")))
		if want := `[{"name":"` + h1 + `","fields":{"n":{"integerValue":"10"}},"createTime":"` + t1 +
			`","updateTime":"` + t2 + `","version":"` + strconv.FormatInt(v2, 10) + `"}]`; !sameJSON(t, a.body["changes"], want) {
			t.Errorf("listen: changes %v, want %s", a.body["changes"], want)
		}
		a, t3, v3 := change(v2, writes(deleteWrite(h2, "")), 0)
		deleted := `{"name":"` + h2 + `","deleted":true,"updateTime":"` + t3 + `","version":"` + strconv.FormatInt(v3, 10) + `"}`
		if !sameJSON(t, a.body["changes"], "["+deleted+"]") {
			t.Errorf("listen: changes %v, want [%s]", a.body["changes"], deleted)
		}

		// Catching up from v1: h1's update, then h2's deletion, in version order.
		a = u.listen(fmt.Sprintf("since=%d&timeout=5s", v1))
		if cs, _ := a.body["changes"].([]any); a.status != 200 || len(cs) != 2 || cs[0].(map[string]any)["name"] != h1 || !sameJSON(t, cs[1], deleted) || versionOf(t, a.body["version"]) != v3 {
			t.Errorf("listen since=%d: %d %s, want h1's change then h2's deletion, version %d", v1, a.status, a.raw, v3)
		}

		// A version this store never handed out: start over from the live documents.
		a = u.listen(fmt.Sprintf("since=%d&timeout=5s", v3+1000))
		if cs, _ := a.body["changes"].([]any); a.status != 200 || a.body["reset"] != true || len(cs) != 2 {
			t.Errorf("listen from the future: %d %s, want a reset with the 2 live documents", a.status, a.raw)
		}

		// Idle: another user's commit does not end it; the timeout does, with nothing. The
		// lower bound cannot fail on a busy machine (the server's timer cannot fire early);
		// the upper one only catches a listen that never ends.
		start := time.Now()
		waiting, ch := u.listenWaiting(fmt.Sprintf("since=%d&timeout=5s", v3))
		select {
		case <-waiting:
		case a := <-ch:
			t.Fatalf("an idle listen answered at once: %d %s", a.status, a.raw)
		case <-time.After(30 * time.Second):
			t.Fatal("an idle listen did not start to wait within 30 s")
		}
		commitOK(t, other.commit(writes(update(other.path("history/h1"), `{}`, ""))), 1)
		select {
		case a = <-ch:
		case <-time.After(30 * time.Second):
			t.Fatal("an idle listen with timeout=5s did not answer within 30 s")
		}
		if d := time.Since(start); d < 5*time.Second-50*time.Millisecond {
			t.Errorf("an idle listen with timeout=5s answered after %v", d)
		}
		if want := fmt.Sprintf(`{"reset":false,"version":"%d","changes":[]}`+"\n", v3); a.status != 200 || a.raw != want {
			t.Errorf("idle listen: %d %q, want 200 %q", a.status, a.raw, want)
		}
	})
}

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

// TestDBValidation proves that each malformed request is 400 invalid-argument whose message
// names the offending part, and that the valid neighbours of the limits pass.
func TestDBValidation(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		// No write rate, so that the 500-write neighbour meets only the count limit
		// (TestDBWriteRate covers the rate).
		h := newDBServer(t, st, docstore.WithWriteRate(0, 0)).handler
		u := dbSignup(t, h, "ada@example.com")
		h1 := u.path("history/h1")
		commitOK(t, u.commit(writes(update(h1, `{"n":{"integerValue":"1"}}`, ""))), 1)
		many := func(n int) string {
			ws := make([]string, n)
			for i := range ws {
				ws[i] = update(u.path(fmt.Sprintf("history/w%d", i)), `{}`, "")
			}
			return writes(ws...)
		}
		commitReq := func(body string) func() answer { return func() answer { return u.commit(body) } }
		queryReq := func(q string) func() answer { return func() answer { return u.query(u.path(""), q) } }
		getReq := func(path string) func() answer { return func() answer { return u.get(path) } }
		listenReq := func(params string) func() answer { return func() answer { return u.listen(params) } }
		filter := func(op, value string) string {
			return `{"from":[{"collectionId":"history"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"` + op + `","value":` + value + `}}}`
		}
		geo := func(lat, lng string) string {
			return writes(update(h1, `{"at":{"geoPointValue":{"latitude":`+lat+`,"longitude":`+lng+`}}}`, ""))
		}

		for _, tt := range []struct {
			name     string
			do       func() answer
			fragment string
		}{
			{"reserved field name", commitReq(writes(update(h1, `{"__x__":{"integerValue":"1"}}`, ""))), `"__x__"`},
			{"reserved nested field name", commitReq(writes(update(h1, `{"m":{"mapValue":{"fields":{"__x__":{"integerValue":"1"}}}}}`, ""))), `"__x__"`},
			{"field name with ~", commitReq(writes(update(h1, `{"a~b":{"integerValue":"1"}}`, ""))), `"a~b" contains '~'`},
			{"updateMask with an empty segment", commitReq(writes(update(h1, `{}`, `,"updateMask":{"fieldPaths":["a..b"]}`))), `"a..b" has an empty segment`},
			{"updateMask with ~", commitReq(writes(update(h1, `{}`, `,"updateMask":{"fieldPaths":["`+"`a~b`"+`"]}`))), `"a~b" contains '~'`},
			{"empty document id at the end", commitReq(writes(update(u.path("history/"), `{}`, ""))), u.path("history/") + `" ends with "/": its last id is empty`},
			{"empty document id inside", commitReq(writes(update(u.path("history//h1/x"), `{}`, ""))), "empty document id"},
			{"delete of a collection", commitReq(writes(deleteWrite(u.path("history"), ""))), "is a collection, not a document"},
			{"latitude 91", commitReq(geo("91", "0")), "latitude 91 is outside -90..90"},
			{"latitude -90.5", commitReq(geo("-90.5", "0")), "latitude -90.5 is outside"},
			{"longitude -181", commitReq(geo("0", "-181")), "longitude -181 is outside -180..180"},
			{"501 writes", commitReq(many(501)), "501 writes, more than 500"},
			{"batchId without clientId", commitReq(`{"batchId":"1","writes":[]}`), "batchId needs a clientId"},
			{"unknown write field", commitReq(`{"writes":[{"update":{"name":"` + h1 + `"},"transform":{}}]}`), `"transform"`},
			{"IN with an empty array", queryReq(filter("IN", `{"arrayValue":{"values":[]}}`)), "IN needs a non-empty array value"},
			{"IN with an array without values", queryReq(filter("IN", `{"arrayValue":{}}`)), "IN needs a non-empty array value"},
			{"NOT_IN with a non-array", queryReq(filter("NOT_IN", `{"integerValue":"1"}`)), "fieldFilter.value needs a non-empty array value"},
			{"limitToLast without orderBy", queryReq(`{"from":[{"collectionId":"history"}],"limit":1,"limitToLast":true}`), "limitToLast needs an orderBy"},
			{"reserved field in a filter", queryReq(`{"from":[{"collectionId":"history"}],"where":{"fieldFilter":{"field":{"fieldPath":"__x__"},"op":"EQUAL","value":{"nullValue":null}}}}`), `__x__`},
			{"GET a collection", getReq(u.path("history")), u.path("history") + " is a collection, not a document"},
			{"GET an empty document id", getReq(u.path("history/")), u.path("history/") + `" ends with "/": its last id is empty`},
			{"listen timeout=4s", listenReq("since=0&timeout=4s"), "timeout 4s is outside 5s to 30s"},
			{"listen timeout=31s", listenReq("since=0&timeout=31s"), "timeout 31s is outside 5s to 30s"},
			{"listen timeout=abc", listenReq("since=0&timeout=abc"), `timeout "abc"`},
			{"listen since=-1", listenReq("since=-1&timeout=5s"), "since -1 is not a version"},
			{"listen since=abc", listenReq("since=abc&timeout=5s"), `since "abc" is not a version`},
		} {
			a := tt.do()
			if a.status != 400 || errCode(a) != "invalid-argument" || !strings.Contains(errMessage(a), tt.fragment) {
				t.Errorf("%s: %d %s, want 400 invalid-argument with %q", tt.name, a.status, a.raw, tt.fragment)
			}
		}
		// Nothing of the refused commits was written.
		if a := u.get(h1); !sameJSON(t, a.body["fields"], `{"n":{"integerValue":"1"}}`) {
			t.Errorf("refused commits changed %s: %s", h1, a.raw)
		}
		if a := u.get(u.path("history/w0")); a.status != 404 {
			t.Errorf("the 501-write commit wrote: %d %s", a.status, a.raw)
		}

		// The neighbours inside the limits pass (since=0 answers at once: the profile is live).
		for _, tt := range []struct {
			name string
			do   func() answer
		}{
			{"latitude 90, longitude -180", commitReq(geo("90", "-180"))},
			{"latitude -90, longitude 180", commitReq(geo("-90", "180"))},
			{"field names __ and ___", commitReq(writes(update(h1, `{"__":{"integerValue":"1"},"___":{"integerValue":"1"}}`, "")))},
			{"IN with one value", queryReq(filter("IN", `{"arrayValue":{"values":[{"integerValue":"1"}]}}`))},
			{"limitToLast with orderBy", queryReq(`{"from":[{"collectionId":"history"}],"orderBy":[{"field":{"fieldPath":"n"}}],"limit":1,"limitToLast":true}`)},
			{"listen timeout=5s", listenReq("since=0&timeout=5s")},
			{"listen timeout=30s", listenReq("since=0&timeout=30s")},
			{"listen with the default timeout", listenReq("since=0")},
			{"500 writes", commitReq(many(500))},
		} {
			if a := tt.do(); a.status != 200 {
				t.Errorf("%s: %d %s, want 200", tt.name, a.status, a.raw)
			}
		}
	})
}

// TestDBExactlyOnce proves exactly-once commits over HTTP: a batch sent again answers the
// identical body without applying it again (its batchId as a string or a number), an earlier
// batch answers its remembered result, a failure is remembered too, an unknown batch below
// the last is 412, and clients of different users do not mix.
func TestDBExactlyOnce(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u, other := dbSignup(t, h, "ada@example.com"), dbSignup(t, h, "bob@example.com")
		h1, h2 := u.path("history/h1"), u.path("history/h2")
		batch := func(id, write string) string {
			return `{"clientId":"tab-1","batchId":` + id + `,"writes":[` + write + `]}`
		}
		n := func(i int) string { return fmt.Sprintf(`{"n":{"integerValue":"%d"}}`, i) }

		first := u.commit(batch(`"1"`, update(h1, n(1), "")))
		_, v1 := commitOK(t, first, 1)
		doc := u.get(h1)
		for _, id := range []string{`"1"`, `1`} {
			if a := u.commit(batch(id, update(h1, n(1), ""))); a.status != 200 || a.raw != first.raw {
				t.Errorf("batch %s again: %d %s, want the first answer %s", id, a.status, a.raw, first.raw)
			}
		}
		if a := u.get(h1); a.raw != doc.raw {
			t.Errorf("the repeated batch changed %s: %s, was %s", h1, a.raw, doc.raw)
		}

		_, v2 := commitOK(t, u.commit(batch(`"2"`, update(h1, n(2), ""))), 1)
		if v2 <= v1 {
			t.Fatalf("batch 2: version %d after %d", v2, v1)
		}
		// Batch 1 again, even with other content: the remembered answer, and h1 keeps batch 2's.
		if a := u.commit(batch(`"1"`, update(h1, n(99), ""))); a.raw != first.raw {
			t.Errorf("batch 1 after batch 2: %d %s, want the first answer %s", a.status, a.raw, first.raw)
		}
		if a := u.get(h1); !sameJSON(t, a.body["fields"], n(2)) || versionOf(t, a.body["version"]) != v2 {
			t.Errorf("batch 1 replayed over batch 2: %s", a.raw)
		}

		// Batch 4, then 3 which was never answered: 412, not applied.
		commitOK(t, u.commit(batch(`"4"`, update(h1, n(4), ""))), 1)
		if a := u.commit(batch(`"3"`, update(h1, n(3), ""))); a.status != 412 || errCode(a) != "failed-precondition" || !strings.Contains(errMessage(a), "below its last batch") {
			t.Errorf("batch 3 after batch 4: %d %s, want 412 failed-precondition", a.status, a.raw)
		}
		if a := u.get(h1); !sameJSON(t, a.body["fields"], n(4)) {
			t.Errorf("batch 3 was applied: %s", a.raw)
		}

		// A failed batch is answered the same failure, even once it would pass.
		failed := u.commit(batch(`"5"`, update(h2, n(5), `,"currentDocument":{"exists":true}`)))
		if failed.status != 412 {
			t.Fatalf("batch 5: %d %s, want 412", failed.status, failed.raw)
		}
		commitOK(t, u.commit(writes(update(h2, n(0), ""))), 1)
		if a := u.commit(batch(`"5"`, update(h2, n(5), `,"currentDocument":{"exists":true}`))); a.status != 412 || a.raw != failed.raw {
			t.Errorf("batch 5 again: %d %s, want the first answer %s", a.status, a.raw, failed.raw)
		}
		if a := u.get(h2); !sameJSON(t, a.body["fields"], n(0)) {
			t.Errorf("batch 5 was applied: %s", a.raw)
		}

		// Another user's "tab-1" is another client.
		if a := other.commit(`{"clientId":"tab-1","batchId":"1","writes":[` + update(other.path("history/h1"), n(7), "") + `]}`); a.status != 200 || a.raw == first.raw {
			t.Errorf("another user's batch 1: %d %s", a.status, a.raw)
		}
		if a := other.get(other.path("history/h1")); a.status != 200 || !sameJSON(t, a.body["fields"], n(7)) {
			t.Errorf("another user's batch 1 was not applied: %d %s", a.status, a.raw)
		}
	})
}

// TestDBListenLimit proves that one user holds at most 32 listens at once: the 33rd is 429
// resource-exhausted with Retry-After, other users are not affected, and answered listens free
// their places.
func TestDBListenLimit(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u, other := dbSignup(t, h, "ada@example.com"), dbSignup(t, h, "bob@example.com")
		h1 := u.path("history/h1")
		_, v := commitOK(t, u.commit(writes(update(h1, `{}`, ""))), 1)
		// 40 listens at once, with nothing to answer: 8 are refused at once, 32 wait.
		answers := make(chan answer, 40)
		for range 40 {
			go func() { answers <- <-u.listenAsync(fmt.Sprintf("since=%d&timeout=30s", v)) }()
		}
		for range 8 {
			select {
			case a := <-answers:
				if a.status != 429 || errCode(a) != "resource-exhausted" || a.header.Get("Retry-After") != "1" || !strings.Contains(errMessage(a), "32") {
					t.Errorf("a listen past 32: %d %s Retry-After %q, want 429 resource-exhausted, Retry-After 1", a.status, a.raw, a.header.Get("Retry-After"))
				}
			case <-time.After(30 * time.Second):
				t.Fatal("fewer than 8 of 40 listens were refused")
			}
		}
		select {
		case a := <-answers:
			t.Fatalf("a 9th listen of 40 answered: %d %s", a.status, a.raw)
		case <-time.After(50 * time.Millisecond):
		}
		if a := other.listen("since=0&timeout=5s"); a.status != 200 {
			t.Errorf("another user's listen: %d %s", a.status, a.raw)
		}
		commitOK(t, u.commit(writes(update(h1, `{"n":{"integerValue":"1"}}`, ""))), 1)
		for range 32 {
			select {
			case a := <-answers:
				if cs, _ := a.body["changes"].([]any); a.status != 200 || len(cs) != 1 {
					t.Errorf("a waiting listen: %d %s, want the change", a.status, a.raw)
				}
			case <-time.After(20 * time.Second): // before their own timeout of 30 s
				t.Fatal("a waiting listen did not answer the commit")
			}
		}
		if a := u.listen("since=0&timeout=5s"); a.status != 200 {
			t.Errorf("a listen after the others answered: %d %s", a.status, a.raw)
		}
	})
}

// TestDBBodyLimits proves the commit's own body bound (4 MiB: larger is 413 too-large, by
// Content-Length or while reading; less passes, unlike other endpoints' 256 KiB) and that
// bodies must be declared JSON (415 not-json).
func TestDBBodyLimits(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u := dbSignup(t, h, "ada@example.com")
		big := func(n int) string {
			return writes(update(u.path("history/big"), `{"s":{"stringValue":"`+strings.Repeat("x", n)+`"}}`, ""))
		}
		if a := u.commit(big(maxCommitBody)); a.status != 413 || errCode(a) != "too-large" || !strings.Contains(errMessage(a), "4194304") {
			t.Errorf("commit over 4 MiB: %d %.300s, want 413 too-large", a.status, a.raw)
		}
		// Without a Content-Length, the limit holds while reading.
		r := httptest.NewRequest("POST", "/api/v1/db/commit", io.MultiReader(strings.NewReader(big(maxCommitBody))))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+u.token)
		r.AddCookie(&http.Cookie{Name: xsrfCookie, Value: u.xsrf})
		r.Header.Set(xsrfHeader, u.xsrf)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != 413 || !strings.Contains(rec.Body.String(), `"too-large"`) {
			t.Errorf("streamed commit over 4 MiB: %d %.300s, want 413 too-large", rec.Code, rec.Body.String())
		}
		if a := u.get(u.path("history/big")); a.status != 404 {
			t.Errorf("a refused body was written: %d", a.status)
		}
		if a := u.commit(big(600 << 10)); a.status != 200 {
			t.Errorf("commit of 600 KiB: %d %.300s, want 200", a.status, a.raw)
		}
		huge := `{"parent":"` + u.path("") + `","structuredQuery":{"from":[{"collectionId":"` + strings.Repeat("x", maxJSONBody) + `"}]}}`
		if a := u.json("POST", "/api/v1/db/query", huge); a.status != 413 || errCode(a) != "too-large" {
			t.Errorf("query over 256 KiB: %d %.300s, want 413 too-large", a.status, a.raw)
		}

		small := writes(update(u.path("history/h1"), `{}`, ""))
		query := `{"parent":"` + u.path("") + `","structuredQuery":{"from":[{"collectionId":"history"}]}}`
		for _, tt := range []struct {
			path, contentType, body string
			status                  int
		}{
			{"/api/v1/db/commit", "text/plain", small, 415},
			{"/api/v1/db/commit", "", small, 415},
			{"/api/v1/db/commit", "application/x-www-form-urlencoded", small, 415},
			{"/api/v1/db/query", "text/plain", query, 415},
			{"/api/v1/db/commit", "application/json; charset=utf-8", small, 200},
			{"/api/v1/db/query", "application/json; charset=utf-8", query, 200},
		} {
			a := u.do("POST", tt.path, tt.contentType, tt.body, nil)
			if a.status != tt.status || tt.status == 415 && errCode(a) != "not-json" {
				t.Errorf("POST %s as %q: %d %s, want %d", tt.path, tt.contentType, a.status, a.raw, tt.status)
			}
		}
	})
}

// TestDBWriteRate proves the per-user write rate over HTTP: past the burst, 429
// resource-exhausted with Retry-After in whole seconds, nothing written, other users unaffected.
func TestDBWriteRate(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newDBServer(t, st, docstore.WithWriteRate(1, testDocsConfig().MaxWrites)).handler
		u, other := dbSignup(t, h, "ada@example.com"), dbSignup(t, h, "bob@example.com")
		many := func(u dbUser, prefix string, n int) string {
			ws := make([]string, n)
			for i := range ws {
				ws[i] = update(u.path(fmt.Sprintf("history/%s%d", prefix, i)), `{}`, "")
			}
			return writes(ws...)
		}
		commitOK(t, u.commit(many(u, "a", 450)), 450)
		a := u.commit(many(u, "b", 100))
		retry, err := strconv.Atoi(a.header.Get("Retry-After"))
		if a.status != 429 || errCode(a) != "resource-exhausted" || err != nil || retry < 1 || retry > 100 {
			t.Fatalf("100 writes past the burst: %d %s, Retry-After %q; want 429 resource-exhausted with a wait in seconds", a.status, a.raw, a.header.Get("Retry-After"))
		}
		if a := u.get(u.path("history/b0")); a.status != 404 {
			t.Errorf("a refused batch was written: %d %s", a.status, a.raw)
		}
		commitOK(t, other.commit(many(other, "a", 100)), 100)
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

// TestDBClientGone: a client that leaves mid-poll (a closed tab) is neither answered 500 nor
// logged as a failure.
func TestDBClientGone(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newAPIServer(t, st, account.DefaultLimits)
		var log syncBuffer
		s.logger = slog.New(slog.NewJSONHandler(&log, nil))
		u := dbSignup(t, s.handler, "ada@example.com")
		_, v := commitOK(t, u.commit(writes(update(u.path("history/h1"), `{}`, ""))), 1)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		r := httptest.NewRequestWithContext(ctx, "GET", fmt.Sprintf("/api/v1/db/listen?since=%d&timeout=10s", v), nil)
		r.Header.Set("Authorization", "Bearer "+u.token)
		rec := httptest.NewRecorder()
		s.handler.ServeHTTP(rec, r)
		if rec.Code == http.StatusInternalServerError || strings.Contains(log.String(), "request failed") {
			t.Errorf("a listen whose client left: %d, log %s", rec.Code, log.String())
		}
	})
}

// TestDBListenShutdown proves that a waiting listen has its status and headers sent at once
// (the client knows it is connected), that Shutdown ends it at once with an unavailable error
// in its body, over a real connection, so that a deploy never waits for long polls; a listen
// arriving after shutdown began gets 503 unavailable with Retry-After.
func TestDBListenShutdown(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newAPIServer(t, st, account.DefaultLimits)
		u := dbSignup(t, s.handler, "ada@example.com")
		_, v := commitOK(t, u.commit(writes(update(u.path("history/h1"), `{}`, ""))), 1)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		served := make(chan error, 1)
		go func() { served <- s.Serve(ln) }()

		type result struct {
			status int
			body   string
			err    error
		}
		headers := make(chan int, 1)
		listened := make(chan result, 1)
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://%s/api/v1/db/listen?since=%d&timeout=30s", ln.Addr(), v), nil)
		req.Header.Set("Authorization", "Bearer "+u.token)
		go func() {
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				listened <- result{err: err}
				return
			}
			defer res.Body.Close()
			headers <- res.StatusCode
			b, _ := io.ReadAll(res.Body)
			listened <- result{status: res.StatusCode, body: string(b)}
		}()
		select {
		case status := <-headers:
			if status != 200 {
				t.Errorf("a waiting listen's status: %d, want 200 at once", status)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a waiting listen sent no headers")
		}
		select {
		case r := <-listened:
			t.Fatalf("the listen answered before the shutdown: %+v", r)
		case <-time.After(200 * time.Millisecond):
		}

		// Shutdown does not wait for the listen: it returns before its own deadline, which comes
		// before the listen's timeout of 30 s, and the listen ends with an unavailable error (its
		// timeout would have answered 200 with no changes).
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown with a listen in flight: %v", err)
		}
		select {
		case r := <-listened:
			if r.err != nil || !strings.HasPrefix(r.body, `{"error":{"code":"unavailable"`) {
				t.Errorf("listen during shutdown: %+v, want an unavailable error in the body", r)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the listen did not answer after Shutdown")
		}
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}

		a := u.listen("since=0&timeout=30s")
		if a.status != 503 || errCode(a) != "unavailable" || a.header.Get("Retry-After") != "1" {
			t.Errorf("listen after shutdown: %d %s Retry-After %q, want 503 unavailable", a.status, a.raw, a.header.Get("Retry-After"))
		}
	})
}

// TestDBAccountDeletion proves that the export holds the user's documents decoded to plain
// JSON, and that deleting the account erases them: tombstones and remembered batches
// included, the old token refused, and a new account on the same address starting empty.
func TestDBAccountDeletion(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u := dbSignup(t, h, "ada@example.com")
		h1, h2, h3 := u.path("history/h1"), u.path("history/h2"), u.path("history/h3")
		commitOK(t, u.commit(`{"clientId":"tab-1","batchId":"1","writes":[`+
			update(h1, `{"tool":{"stringValue":"area"},"n":{"integerValue":"3"},"ok":{"booleanValue":true},"ratio":{"doubleValue":0.5},
				"tags":{"arrayValue":{"values":[{"stringValue":"a"}]}},"m":{"mapValue":{"fields":{"x":{"nullValue":null}}}},
				"at":{"timestampValue":"2026-01-02T03:04:05.5Z"}}`, "")+","+
			update(h2, `{"tool":{"stringValue":"speed"}}`, "")+","+
			update(h3, `{}`, "")+`]}`), 3)
		commitOK(t, u.commit(writes(deleteWrite(h3, ""))), 1, 0)

		a := u.do("GET", "/api/v1/auth/me/export", "", "", nil)
		if a.status != 200 {
			t.Fatalf("export: %d %s", a.status, a.raw)
		}
		exported := map[string]any{}
		for _, d := range a.body["documents"].([]any) {
			d := d.(map[string]any)
			exported[d["path"].(string)] = d["fields"]
			if d["createTime"] == nil || d["updateTime"] == nil {
				t.Errorf("export: document without its times: %v", d)
			}
		}
		if !sameJSON(t, exported[h1], `{"tool":"area","n":3,"ok":true,"ratio":0.5,"tags":["a"],"m":{"x":null},"at":"2026-01-02T03:04:05.5Z"}`) ||
			!sameJSON(t, exported[h2], `{"tool":"speed"}`) {
			t.Errorf("export: %s, want h1 and h2 as plain JSON", a.raw)
		}
		if _, ok := exported[h3]; ok || len(exported) != 3 {
			t.Errorf("export: documents %v, want the profile, h1 and h2", slices.Sorted(maps.Keys(exported)))
		}

		// rows counts the account's rows in docs (tombstones included) and doc_batches.
		rows := func() (n int) {
			t.Helper()
			err := st.QueryRow(t.Context(), "SELECT (SELECT COUNT(*) FROM docs WHERE owner = ?) + (SELECT COUNT(*) FROM doc_batches WHERE owner = ?)", u.uid, u.uid).Scan(&n)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := rows(); n < 5 {
			t.Fatalf("%d rows of documents and batches before the deletion, want at least 5", n)
		}
		if a := u.json("DELETE", "/api/v1/auth/me", `{"password":"`+dbPassword+`"}`); a.status != 204 {
			t.Fatalf("delete the account: %d %s", a.status, a.raw)
		}
		if a := u.get(h1); a.status != 401 || errCode(a) != "unauthenticated" {
			t.Errorf("GET with the deleted account's token: %d %s, want 401", a.status, a.raw)
		}
		if a := u.listen("since=0&timeout=5s"); a.status != 401 {
			t.Errorf("listen with the deleted account's token: %d %s, want 401", a.status, a.raw)
		}
		if n := rows(); n != 0 {
			t.Errorf("%d rows of documents and batches left after the deletion", n)
		}

		again := dbSignup(t, h, "ada@example.com")
		if again.uid == u.uid {
			t.Fatalf("the new account has the deleted one's uid %s", u.uid)
		}
		if a := again.get(h1); a.status != 403 {
			t.Errorf("new account GET %s: %d %s, want 403", h1, a.status, a.raw)
		}
		a = again.listen("since=0&timeout=5s")
		if cs, _ := a.body["changes"].([]any); a.status != 200 || len(cs) != 1 || cs[0].(map[string]any)["name"] != again.path("") {
			t.Errorf("new account listen since=0: %d %s, want only its profile", a.status, a.raw)
		}
		a = again.do("GET", "/api/v1/auth/me/export", "", "", nil)
		if ds, _ := a.body["documents"].([]any); a.status != 200 || len(ds) != 1 || strings.Contains(a.raw, "history") {
			t.Errorf("new account export: %d %s, want only its profile", a.status, a.raw)
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
