package account

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

const testJPEG = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="

func testSchema() *Schema {
	t := site.Default()
	return NewSchema(t.Limits(), t.Locales(), t.History())
}

// newSchemaService is a Service whose document store keeps the schema on every commit, as
// cmd/handy wires them.
func newSchemaService(t *testing.T, st *store.Store) *Service {
	t.Helper()
	sc := testSchema()
	cfg := testDocsConfig()
	cfg.Check = sc.Check
	docs := docstore.New(st, cfg)
	t.Cleanup(func() { docs.Close() })
	s, err := New(st, docs, slog.New(slog.NewJSONHandler(io.Discard, nil)), site.Default().Limits(), WithParams(cheap), WithSchema(sc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// plainFields encodes plain JSON values, and top-level time.Time values as timestamps (which
// plain JSON has not).
func plainFields(t *testing.T, m map[string]any) value.Fields {
	t.Helper()
	plain, times := map[string]any{}, value.Fields{}
	for k, v := range m {
		if tm, ok := v.(time.Time); ok {
			times[k] = value.Value{Kind: value.Timestamp, Time: tm.UTC()}
		} else {
			plain[k] = v
		}
	}
	f, err := value.FieldsFromPlain(plain)
	if err != nil {
		t.Fatal(err)
	}
	maps.Copy(f, times)
	return f
}

// schemaCases are documents of users/{uid} and of its history with the field the schema
// refuses ("" when it accepts them): the attacks of issue 27 and what the front end writes.
var schemaCases = []struct {
	name  string
	path  string // under users/u1
	doc   map[string]any
	field string
}{
	{"the profile as sign-up writes it", "", map[string]any{"displayName": "", "avatar": nil, "locale": "", "preferences": map[string]any{}}, ""},
	{"a full profile", "", map[string]any{"displayName": "Ada Lovelace", "avatar": testJPEG, "locale": "jp", "preferences": map[string]any{"theme": "dark"}}, ""},
	{"emoji and joiners in a name", "", map[string]any{"displayName": "👩‍💻 Ada می‌خواهم"}, ""},
	{"javascript avatar", "", map[string]any{"avatar": "javascript:alert(1)//data:image/jpeg;base64,/9j/4AAQ"}, "avatar"},
	{"svg avatar", "", map[string]any{"avatar": "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="}, "avatar"},
	{"jpeg prefix, not a jpeg", "", map[string]any{"avatar": "data:image/jpeg;base64,PHN2Zz48L3N2Zz4="}, "avatar"},
	{"avatar too big", "", map[string]any{"avatar": testJPEG[:len(testJPEG)-2] + strings.Repeat("A", 200_000) + "=="}, "avatar"},
	{"empty avatar string", "", map[string]any{"avatar": ""}, "avatar"},
	{"avatar not a string", "", map[string]any{"avatar": 3.0}, "avatar"},
	{"right-to-left override in a name", "", map[string]any{"displayName": "Ada\u202Egnp.exe"}, "displayName"},
	{"NUL in a name", "", map[string]any{"displayName": "Ada\x00"}, "displayName"},
	{"name with surrounding spaces", "", map[string]any{"displayName": " Ada "}, "displayName"},
	{"name too long", "", map[string]any{"displayName": strings.Repeat("é", 101)}, "displayName"},
	{"name not a string", "", map[string]any{"displayName": 5.0}, "displayName"},
	{"locale breaking out of markup", "", map[string]any{"locale": `xx"><svg onload=alert(1)>`}, "locale"},
	{"locale not a site's", "", map[string]any{"locale": "ja"}, "locale"},
	{"email forged", "", map[string]any{"email": "admin@example.com"}, "email"},
	{"createdAt forged", "", map[string]any{"createdAt": "2020-01-01T00:00:00Z"}, "createdAt"},
	{"unknown field", "", map[string]any{"isAdmin": true}, "isAdmin"},
	{"preferences not a map", "", map[string]any{"preferences": "x"}, "preferences"},
	{"preferences too big", "", map[string]any{"preferences": map[string]any{"x": strings.Repeat("y", MaxPreferences)}}, "preferences"},
	{"unknown theme", "", map[string]any{"preferences": map[string]any{"theme": "</style>"}}, "preferences.theme"},
	{"unknown preferred language", "", map[string]any{"preferences": map[string]any{"language": "xx"}}, "preferences.language"},
	{"unknown unit", "", map[string]any{"preferences": map[string]any{"tools": map[string]any{"area-calculator": map[string]any{"unit": "furlong"}}}}, "preferences.tools.area-calculator.unit"},
	{"decimals as a number", "", map[string]any{"preferences": map[string]any{"tools": map[string]any{"speed-calculator": map[string]any{"dp": 3.0}}}}, "preferences.tools.speed-calculator.dp"},
	{"unknown setting of a tool", "", map[string]any{"preferences": map[string]any{"tools": map[string]any{"area-calculator": map[string]any{"r": "5"}}}}, "preferences.tools.area-calculator.r"},
	{"tools not a map", "", map[string]any{"preferences": map[string]any{"tools": []any{"x"}}}, "preferences.tools"},
	{"older preferences the server does not read", "", map[string]any{"preferences": map[string]any{"theme": "dark", "area": map[string]any{"unit": "m2", "decimals": 3.0}}}, ""},

	{"an entry as the front end writes it", "/history/h1", map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "12.566 m²", "query": "?shape=circle&r=2", "detail": ""}, ""},
	{"a flip entry", "/history/h2", map[string]any{"tool": "flip", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "photo.jpg", "query": "", "detail": "1600 × 1200 · JPEG · flipped horizontally · 412 kB"}, ""},
	{"a calculator's lines of working", "/history/h11", map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "Rectangle\nA = l × w = 2 × 3 = 6 m²\nP = 2 × (2 + 3) = 10 m", "query": "?shape=rect&l=2&w=3", "detail": ""}, ""},
	{"an entry without query and detail", "/history/h3", map[string]any{"tool": "speed", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "10 km/h"}, ""},
	{"unknown tool", "/history/h4", map[string]any{"tool": "<img>", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "x"}, "tool"},
	{"time as a string", "/history/h5", map[string]any{"tool": "area", "at": "yesterday", "title": "x"}, "at"},
	{"no title", "/history/h6", map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)}, "title"},
	{"query that is a URL", "/history/h7", map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "x", "query": "javascript:alert(1)"}, "query"},
	{"a carriage return in a title", "/history/h12", map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "a\rb"}, "title"},
	{"NUL in a detail", "/history/h8", map[string]any{"tool": "flip", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "x", "detail": "a\x00b"}, "detail"},
	{"title too long", "/history/h9", map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": strings.Repeat("x", MaxEntryTitle+1)}, "title"},
	{"unknown entry field", "/history/h10", map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "x", "pixels": "…"}, "pixels"},
	{"another collection is the client's own", "/notes/n1", map[string]any{"anything": "<svg>"}, ""},
}

func TestSchemaCheck(t *testing.T) {
	t.Parallel()
	sc := testSchema()
	for _, tt := range schemaCases {
		err := sc.Check(valuetest.MustPath(t, "users/u1"+tt.path), plainFields(t, tt.doc))
		var fe *FieldError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.name, err)
		case tt.field != "" && (!errors.As(err, &fe) || fe.Field != tt.field):
			t.Errorf("%s: %v, want field %q refused", tt.name, err, tt.field)
		}
	}
	err := sc.Check(valuetest.MustPath(t, "users/u1"), plainFields(t, map[string]any{"avatar": "javascript:alert(1)"}))
	if want := `users/{uid} field "avatar": must be null or a data:image/jpeg;base64 URL of a JPEG image of at most 200000 bytes`; err == nil || err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// TestSchemaAcceptsTheFrontEnd: what the front end writes through the sync layer
// (testdata/frontend_writes.json: users/{uid}.preferences as preferencesOf makes it, history
// entries as entryFields makes them, in Firestore's JSON) passes the schema.
func TestSchemaAcceptsTheFrontEnd(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/frontend_writes.json")
	if err != nil {
		t.Fatal(err)
	}
	var writes []struct {
		Path   string          `json:"path"`
		Fields json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal(raw, &writes); err != nil {
		t.Fatal(err)
	}
	sc := testSchema()
	for _, w := range writes {
		f, err := value.DecodeFields(w.Fields)
		if err != nil {
			t.Fatalf("%s: %v", w.Path, err)
		}
		if err := sc.Check(valuetest.MustPath(t, w.Path), f); err != nil {
			t.Errorf("%s: %v", w.Path, err)
		}
	}
}

// TestSchemaOnCommits: through the store, as a client's /db/commit, each refused document
// fails its batch whole with invalid-argument naming the field, and the profile is unchanged;
// the account's own writes pass the same rules.
func TestSchemaOnCommits(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := newSchemaService(t, st)
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678", DisplayName: "Ada", Locale: "fr"})
		if err != nil {
			t.Fatal(err)
		}
		for i, tt := range schemaCases {
			before, _ := userDocJSON(t, s, u)
			p := valuetest.MustPath(t, "users/"+u.ID+tt.path)
			okPath := valuetest.MustPath(t, fmt.Sprintf("users/%s/history/ok%d", u.ID, i))
			valid := docstore.Write{Path: okPath, Fields: plainFields(t, map[string]any{"tool": "area", "at": time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC), "title": "1 m²"})}
			// users/{uid} by merges, as the front end writes it; entries by replaces.
			w := docstore.Write{Path: p, Fields: plainFields(t, tt.doc)}
			if tt.path == "" {
				w.Merge, w.Mask = true, maskOf(tt.doc)
			}
			_, err := s.docs.Commit(ctx, u.ID, docstore.CommitRequest{Writes: []docstore.Write{valid, w}})
			if tt.field == "" {
				if err != nil {
					t.Errorf("%s: %v", tt.name, err)
				}
				continue
			}
			var se *status.Error
			if !errors.As(err, &se) || !errors.Is(err, status.ErrInvalidArgument) || !strings.HasPrefix(se.Message, "write 1: ") || !strings.Contains(se.Message, `field "`+tt.field+`"`) {
				t.Errorf("%s: %v, want invalid-argument naming write 1 and field %q", tt.name, err, tt.field)
			}
			if _, err := s.docs.Get(ctx, u.ID, okPath); !errors.Is(err, status.ErrNotFound) {
				t.Fatalf("%s: the valid write of a refused batch was stored (%v)", tt.name, err)
			}
			if tt.path == "" {
				if got, raw := userDocJSON(t, s, u); !sameJSON(got, before) {
					t.Errorf("%s: the profile changed: %s", tt.name, raw)
				}
			}
		}

		// A merge is checked as the document it leaves: a replace that drops nothing invalid
		// passes, and a merge of preferences beside a stored avatar the rules refuse fails.
		cfg := testDocsConfig()
		loose := docstore.New(st, cfg) // a store before the schema, as the data may predate it
		defer loose.Close()
		bad := plainFields(t, map[string]any{"displayName": "Ada", "avatar": "javascript:alert(1)", "locale": "fr", "preferences": map[string]any{}})
		if _, err := loose.Commit(ctx, u.ID, docstore.CommitRequest{Writes: []docstore.Write{{Path: userDocPath(u.ID), Fields: bad}}}); err != nil {
			t.Fatal(err)
		}
		prefs := docstore.Write{Path: userDocPath(u.ID), Fields: plainFields(t, map[string]any{"preferences": map[string]any{"theme": "dark"}}), Merge: true, Mask: []value.FieldPath{{"preferences"}}}
		if _, err := s.docs.Commit(ctx, u.ID, docstore.CommitRequest{Writes: []docstore.Write{prefs}}); !errors.Is(err, status.ErrInvalidArgument) || !strings.Contains(err.Error(), `field "avatar"`) {
			t.Errorf("merge beside a stored bad avatar: %v, want invalid-argument naming avatar", err)
		}
		// The dedicated endpoint is held to the same: refused until the avatar is set anew.
		theme := map[string]any{"theme": "light"}
		if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{Preferences: theme}); !errors.Is(err, status.ErrInvalidArgument) {
			t.Errorf("profile update beside a stored bad avatar: %v, want invalid-argument", err)
		}
		none := ""
		if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{Preferences: theme, Avatar: &none}); err != nil {
			t.Errorf("profile update that mends the avatar: %v", err)
		}
		// A sign-in in another language still works beside a stored document the rules
		// refuse, and leaves the document as it was.
		if _, err := loose.Commit(ctx, u.ID, docstore.CommitRequest{Writes: []docstore.Write{{Path: userDocPath(u.ID), Fields: bad}}}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "12345678", Locale: "de"}, "192.0.2.1"); err != nil {
			t.Errorf("sign-in beside a stored bad document: %v", err)
		}
		if d := userDocRow(t, s, u); d.Fields["locale"].Str != "fr" {
			t.Errorf("locale after that sign-in: %q, want fr as it was", d.Fields["locale"].Str)
		}
	})
}

// maskOf is the updateMask of a merge that sets doc's top-level fields.
func maskOf(doc map[string]any) []value.FieldPath {
	var mask []value.FieldPath
	for k := range doc {
		mask = append(mask, value.FieldPath{k})
	}
	return mask
}

func sameJSON(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
