package server

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

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
