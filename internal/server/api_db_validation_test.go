package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/docstore"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

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
