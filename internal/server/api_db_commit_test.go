package server

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/docstore"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

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
