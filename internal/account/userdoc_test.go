package account

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// userDocRow returns the user's document as the store holds it.
func userDocRow(t *testing.T, s *Service, u User) value.Doc {
	t.Helper()
	d, err := s.docs.Get(context.Background(), u.ID, userDocPath(u.ID))
	if err != nil {
		t.Fatalf("users/%s: %v", u.ID, err)
	}
	return d
}

// A sign-in is not an edit of the document, unless it changes the preferred language; an edit
// that changes nothing is not one either.
func TestSigninKeepsUpdateTime(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil)
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678", Locale: "de"})
		if err != nil {
			t.Fatal(err)
		}
		created := userDocRow(t, s, u)
		for _, locale := range []string{"", "de"} {
			c.advance(time.Hour)
			if _, u, err = s.Signin(ctx, Credentials{Email: "a@example.com", Password: "12345678", Locale: locale}, "192.0.2.1"); err != nil {
				t.Fatal(err)
			}
			if d := userDocRow(t, s, u); !d.UpdateTime.Equal(created.UpdateTime) || d.Version != created.Version {
				t.Errorf("after a sign-in with locale %q: updateTime %v, version %d; want %v, %d", locale, d.UpdateTime, d.Version, created.UpdateTime, created.Version)
			}
		}
		// The answer still shows the last sign-in.
		doc, raw := userDocJSON(t, s, u)
		if doc["lastSignInAt"] != c.now().UTC().Format(time.RFC3339Nano) || doc["email"] != "a@example.com" || doc["locale"] != "de" {
			t.Errorf("users/{uid} = %s, want lastSignInAt %v", raw, c.now())
		}

		name := "Ada"
		if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: &name}); err != nil {
			t.Fatal(err)
		}
		edited := userDocRow(t, s, u)
		if !edited.UpdateTime.After(created.UpdateTime) || edited.Version <= created.Version {
			t.Errorf("after a profile edit: updateTime %v, version %d; want later than %v, %d", edited.UpdateTime, edited.Version, created.UpdateTime, created.Version)
		}
		if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: &name}); err != nil {
			t.Fatal(err)
		}
		if d := userDocRow(t, s, u); !d.UpdateTime.Equal(edited.UpdateTime) || d.Version != edited.Version {
			t.Errorf("after an edit that changes nothing: updateTime %v, version %d", d.UpdateTime, d.Version)
		}
		if _, u, err = s.Signin(ctx, Credentials{Email: "a@example.com", Password: "12345678", Locale: "jp"}, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if d := userDocRow(t, s, u); d.Version <= edited.Version || d.Fields["locale"].Str != "jp" {
			t.Errorf("after a sign-in in another language: version %d, locale %v", d.Version, d.Fields["locale"])
		}
	})
}

// Accounts made before the document store keep their document: MoveLegacyDocuments moves it,
// numbers and nested preferences exact, the account's fields it once held left out, and a
// second run finds nothing to do.
func TestMoveLegacyDocuments(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		legacy := map[string]string{
			"u1aa": `{"displayName":"Ada","avatar":null,"locale":"de","preferences":{"area":{"unit":"m2","decimals":3},"theme":"dark"},"email":"old@example.com"}`,
			"u2bb": `{"displayName":"","avatar":"data:image/jpeg;base64,/9j/4A==","locale":"jp","preferences":{"speed":{"ratio":1.5}}}`,
		}
		for uid, data := range legacy {
			if _, err := st.Exec(ctx, "INSERT INTO users (id, email, password_hash, created_at, last_sign_in_at) VALUES (?, ?, 'x', 1, 1)", uid, uid+"@example.com"); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Exec(ctx, "INSERT INTO documents (path, owner, data, version, created_at, updated_at) VALUES (?, ?, ?, 1, 1, 1)", "users/"+uid, uid, data); err != nil {
				t.Fatal(err)
			}
		}
		if n, err := s.MoveLegacyDocuments(ctx); err != nil || n != 2 {
			t.Fatalf("MoveLegacyDocuments = %d, %v; want 2", n, err)
		}
		if n, err := s.MoveLegacyDocuments(ctx); err != nil || n != 0 {
			t.Fatalf("a second run = %d, %v; want 0", n, err)
		}
		for uid, data := range legacy {
			var want map[string]any
			json.Unmarshal([]byte(data), &want)
			delete(want, "email")
			got, _ := json.Marshal(value.PlainJSON(userDocRow(t, s, User{ID: uid}).Fields))
			wantJSON, _ := json.Marshal(want)
			if string(got) != string(wantJSON) {
				t.Errorf("users/%s = %s, want %s", uid, got, wantJSON)
			}
		}
		if d := userDocRow(t, s, User{ID: "u1aa"}); d.Fields["preferences"].Map["area"].Map["decimals"].Kind != value.Integer {
			t.Errorf("a whole number became %v, want an integer", d.Fields["preferences"].Map["area"].Map["decimals"].Kind)
		}
	})
}

// Concurrent PATCH /auth/me requests: 16 edits of the four profile fields, each writing a
// value of its own, none lost (each is a merge of its field in the document store).
func TestConcurrentProfileUpdates(t *testing.T) {
	t.Parallel()
	const writers = 16
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"})
		if err != nil {
			t.Fatal(err)
		}
		concurrently(t, writers, func(i int) error {
			v := fmt.Sprintf("v%d", i)
			var p ProfileUpdate
			switch i % 4 {
			case 0:
				p.DisplayName = &v
			case 1:
				jpeg := "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ" + strconv.Itoa(i%10) + "="
				p.Avatar = &jpeg
			case 2:
				p.Locale = &v
			case 3:
				p.Preferences = map[string]any{"theme": v}
			}
			_, err := s.UpdateProfile(ctx, u, p)
			return err
		})
		doc, raw := userDocJSON(t, s, u)
		if doc["displayName"] == "" || doc["avatar"] == nil || doc["locale"] == "" || len(doc["preferences"].(map[string]any)) == 0 {
			t.Errorf("an edited field was lost: %s", raw)
		}
		if d := userDocRow(t, s, u); d.Version < 1+writers {
			t.Errorf("version %d after %d edits, want at least %d", d.Version, writers, 1+writers)
		}
	})
}

// concurrently runs fn(0) … fn(n-1) at once, released together, and fails t for each error.
func concurrently(t *testing.T, n int, fn func(i int) error) {
	t.Helper()
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = fn(i)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
}

// userDocJSON is the user's document as the API gives it, decoded, and its JSON.
func userDocJSON(t *testing.T, s *Service, u User) (map[string]any, []byte) {
	t.Helper()
	raw, err := s.UserDoc(context.Background(), u)
	var doc map[string]any
	if err == nil {
		err = json.Unmarshal(raw, &doc)
	}
	if err != nil {
		t.Fatalf("UserDoc = %s, %v", raw, err)
	}
	return doc, raw
}

// A client may write users/{uid} itself (the document API): the profile still has every
// promised field, of its type, whatever the document holds, even when it was deleted.
func TestProfileKeepsItsPromises(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678", DisplayName: "Ada"})
		if err != nil {
			t.Fatal(err)
		}
		odd, _ := value.FieldsFromPlain(map[string]any{"displayName": 5.0, "preferences": "x", "theme": "dark"})
		for _, w := range []docstore.Write{{Path: userDocPath(u.ID), Fields: odd}, {Path: userDocPath(u.ID), Delete: true}} {
			if _, err := s.docs.Commit(ctx, u.ID, docstore.CommitRequest{Writes: []docstore.Write{w}}); err != nil {
				t.Fatal(err)
			}
			doc, raw := userDocJSON(t, s, u)
			if doc["displayName"] != "" || doc["locale"] != "" || doc["avatar"] != nil || doc["email"] != "a@example.com" {
				t.Errorf("profile after a client's write (delete %v): %s", w.Delete, raw)
			}
			if _, ok := doc["preferences"].(map[string]any); !ok {
				t.Errorf("preferences after a client's write (delete %v): %s", w.Delete, raw)
			}
		}
	})
}
