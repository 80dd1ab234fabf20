package server

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/config"
	"handy/internal/docstore"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// newSchemaServer is the server as cmd/handy wires it: the document store keeps the account's
// Schema on every commit, and the account service checks its writes with the same one.
func newSchemaServer(t *testing.T, st *store.Store) *Server {
	t.Helper()
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	table := site.Default()
	schema := account.NewSchema(table.Limits(), table.Locales(), table.History())
	cfg := testDocsConfig()
	cfg.Check = schema.Check
	docs := docstore.New(st, cfg, docstore.WithLogger(logger))
	t.Cleanup(func() { docs.Close() })
	svc, err := account.New(st, docs, logger, table.Limits(), account.WithSchema(schema),
		account.WithParams(account.Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(config.Config{Addr: "127.0.0.1:0", PublicURL: httpOrigin}, table, fixtureDist(table), logger, WithAccounts(svc), WithDocuments(docs), WithReadiness(st.Ping), quickCompression)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const schemaJPEG = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="

// TestDBSchema proves that users/{uid} and the history entries written through /db/commit obey
// the rules of the profile endpoints (issue 27): each attack is 400 invalid-argument naming
// the field and the rule, fails its whole batch, and leaves GET /auth/me as it was; the
// writes the front end makes pass.
func TestDBSchema(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newSchemaServer(t, st).handler
		u := dbSignup(t, h, "ada@example.com")
		me := u.path("")
		entry := func(id, fields string) string { return update(u.path("history/"+id), fields, "") }
		profile := func(fields, mask string) string {
			return update(me, fields, `,"updateMask":{"fieldPaths":[`+mask+`]}`)
		}
		okEntry := entry("ok", `{"tool":{"stringValue":"area"},"at":{"timestampValue":"2026-11-27T09:00:00Z"},"title":{"stringValue":"1 m²"},"query":{"stringValue":"?shape=square&a=1"},"detail":{"stringValue":""}}`)

		for _, tt := range []struct {
			name, write, message string
		}{
			{"javascript: avatar", profile(`{"avatar":{"stringValue":"javascript:alert(1)//data:image/jpeg;base64,/9j/4AAQ"}}`, `"avatar"`),
				`users/{uid} field "avatar": must be null or a data:image/jpeg;base64 URL of a JPEG image of at most 200000 bytes`},
			{"right-to-left override and NUL in the name", profile(`{"displayName":{"stringValue":"Ada\u202egnp.exe\u0000"}}`, `"displayName"`),
				`users/{uid} field "displayName": must be a string of at most 100 characters without surrounding spaces, control, format or invisible characters`},
			{"locale breaking out of markup", profile(`{"locale":{"stringValue":"xx\"><svg onload=alert(1)>"}}`, `"locale"`),
				`users/{uid} field "locale": must be "" or one of the site's locale codes: en, zh, pt, de, fr, es, jp, ko`},
			{"a replace carrying them all", update(me, `{"displayName":{"stringValue":"Ada"},"avatar":{"stringValue":"javascript:alert(1)"}}`, ""),
				`users/{uid} field "avatar"`},
			{"forged email", profile(`{"email":{"stringValue":"admin@example.com"}}`, `"email"`),
				`users/{uid} field "email": is set by the server and cannot be written`},
			{"unknown theme", profile(`{"preferences":{"mapValue":{"fields":{"theme":{"stringValue":"neon"}}}}}`, `"preferences"`),
				`users/{uid} field "preferences.theme": must be one of "auto", "light", "dark"`},
			// The patch is one nested setting; the merged document is what is checked.
			{"a merge that makes the document invalid", profile(`{"preferences":{"mapValue":{"fields":{"tools":{"mapValue":{"fields":{"area-calculator":{"mapValue":{"fields":{"unit":{"stringValue":"furlong"}}}}}}}}}}}`, `"preferences.tools.\u0060area-calculator\u0060.unit"`),
				`users/{uid} field "preferences.tools.area-calculator.unit": must be one of "mm", "cm"`},
			{"entry of an unknown tool", entry("bad", `{"tool":{"stringValue":"<img src=x>"},"at":{"timestampValue":"2026-11-27T09:00:00Z"},"title":{"stringValue":"x"}}`),
				`users/{uid}/history/{id} field "tool": must be one of "area", "speed", "flip"`},
			{"entry whose query is a URL", entry("bad", `{"tool":{"stringValue":"area"},"at":{"timestampValue":"2026-11-27T09:00:00Z"},"title":{"stringValue":"x"},"query":{"stringValue":"javascript:alert(1)"}}`),
				`users/{uid}/history/{id} field "query": must be "" or a query string starting with "?"`},
			{"entry without its time", entry("bad", `{"tool":{"stringValue":"area"},"title":{"stringValue":"x"}}`),
				`users/{uid}/history/{id} field "at": is required`},
		} {
			before := u.do("GET", "/api/v1/auth/me", "", "", nil)
			// One valid write first: the batch fails whole, so it is not stored either.
			a := u.commit(writes(okEntry, tt.write))
			if a.status != 400 || errCode(a) != "invalid-argument" || !strings.HasPrefix(errMessage(a), "write 1: "+tt.message) {
				t.Errorf("%s: %d %s, want 400 invalid-argument %q", tt.name, a.status, a.raw, "write 1: "+tt.message)
			}
			if a := u.get(u.path("history/ok")); a.status != 404 {
				t.Errorf("%s: the valid write of the refused batch: %d %s", tt.name, a.status, a.raw)
			}
			if after := u.do("GET", "/api/v1/auth/me", "", "", nil); after.raw != before.raw {
				t.Errorf("%s: /auth/me changed:\n%s\nto\n%s", tt.name, before.raw, after.raw)
			}
		}

		// The dedicated endpoint is held to the same rules: the store refuses what it would
		// leave (a theme the front end does not offer), with the same message.
		a := u.json("PATCH", "/api/v1/auth/me", `{"preferences":{"theme":"neon"}}`)
		if a.status != 400 || errCode(a) != "invalid-argument" || !strings.Contains(errMessage(a), `field "preferences.theme"`) {
			t.Errorf("PATCH /auth/me with an unknown theme: %d %s", a.status, a.raw)
		}

		// What the front end writes passes: the profile endpoint's avatar and name, the
		// preferences through the sync layer (a merge of the whole map), history entries.
		a = u.json("PATCH", "/api/v1/auth/me", `{"displayName":"  Ada Lovelace ","avatar":"`+schemaJPEG+`","locale":"fr"}`)
		if a.status != 200 {
			t.Fatalf("PATCH /auth/me: %d %s", a.status, a.raw)
		}
		commitOK(t, u.commit(writes(
			profile(`{"preferences":{"mapValue":{"fields":{"theme":{"stringValue":"dark"},"language":{"stringValue":"jp"},"tools":{"mapValue":{"fields":{
				"area-calculator":{"mapValue":{"fields":{"unit":{"stringValue":"cm"},"in":{"stringValue":""},"dp":{"stringValue":"3"}}}},
				"speed-calculator":{"mapValue":{"fields":{"vu":{"stringValue":"min-km"},"du":{"stringValue":"km"},"dp":{"stringValue":"6"}}}}}}}}}}}`, `"preferences"`),
			okEntry,
			entry("flip", `{"tool":{"stringValue":"flip"},"at":{"timestampValue":"2026-11-27T09:01:00.123Z"},"title":{"stringValue":"photo.jpeg"},"query":{"stringValue":""},"detail":{"stringValue":"1600 × 1200 · JPEG · flipped horizontally · 412 kB"}}`),
		)), 3)
		me2 := u.do("GET", "/api/v1/auth/me", "", "", nil)
		p, _ := me2.body["profile"].(map[string]any)
		if p == nil {
			p = me2.body
		}
		if p["displayName"] != "Ada Lovelace" || p["avatar"] != schemaJPEG || p["locale"] != "fr" ||
			!sameJSON(t, p["preferences"], `{"theme":"dark","language":"jp","tools":{"area-calculator":{"unit":"cm","in":"","dp":"3"},"speed-calculator":{"vu":"min-km","du":"km","dp":"6"}}}`) {
			t.Errorf("/auth/me after valid writes: %s", me2.raw)
		}
		// A sign-in in another language is a write too, and passes.
		c := &client{t: t, h: h}
		c.do("GET", "/api/v1/auth/xsrf", "", "", nil)
		if a := c.json("POST", "/api/v1/auth/signin", `{"email":"ada@example.com","password":"`+dbPassword+`","locale":"de"}`); a.status != 200 {
			t.Errorf("sign-in: %d %s", a.status, a.raw)
		}
	})
}
