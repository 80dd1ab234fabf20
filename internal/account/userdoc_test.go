package account

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// userDocRow returns the stored version and updatedAt of the user's document, as exported.
func userDocRow(t *testing.T, s *Service, u User) Document {
	t.Helper()
	ex, err := s.Export(context.Background(), u)
	if err != nil || len(ex.Documents) != 1 {
		t.Fatalf("Export = %+v, %v", ex, err)
	}
	return ex.Documents[0]
}

// updatedAt is the time of the last change to the document's content: a sign-in is not one,
// unless it changes the preferred language.
func TestSigninKeepsUpdatedAt(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil)
		created := c.now()
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678", Locale: "de"})
		if err != nil {
			t.Fatal(err)
		}
		for _, locale := range []string{"", "de"} {
			c.advance(time.Hour)
			if _, u, err = s.Signin(ctx, Credentials{Email: "a@example.com", Password: "12345678", Locale: locale}, "192.0.2.1"); err != nil {
				t.Fatal(err)
			}
			if d := userDocRow(t, s, u); !d.UpdatedAt.Equal(created) || d.Version != 1 {
				t.Errorf("after a sign-in with locale %q: updatedAt %v, version %d; want %v, 1", locale, d.UpdatedAt, d.Version, created)
			}
		}
		// The answer still shows the last sign-in.
		var doc map[string]any
		raw, err := s.UserDoc(ctx, u)
		if err != nil || json.Unmarshal(raw, &doc) != nil {
			t.Fatalf("UserDoc = %s, %v", raw, err)
		}
		if doc["lastSignInAt"] != c.now().UTC().Format(time.RFC3339Nano) || doc["email"] != "a@example.com" {
			t.Errorf("users/{uid} = %s, want lastSignInAt %v", raw, c.now())
		}

		c.advance(time.Hour)
		name := "Ada"
		if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: &name}); err != nil {
			t.Fatal(err)
		}
		if d := userDocRow(t, s, u); !d.UpdatedAt.Equal(c.now()) || d.Version != 2 {
			t.Errorf("after a profile edit: updatedAt %v, version %d; want %v, 2", d.UpdatedAt, d.Version, c.now())
		}
		// The same edit again changes nothing.
		c.advance(time.Hour)
		if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: &name}); err != nil {
			t.Fatal(err)
		}
		if d := userDocRow(t, s, u); !d.UpdatedAt.Equal(c.now().Add(-time.Hour)) || d.Version != 2 {
			t.Errorf("after an edit that changes nothing: updatedAt %v, version %d", d.UpdatedAt, d.Version)
		}
		// A sign-in in another language changes the preferred locale: that is an edit.
		if _, u, err = s.Signin(ctx, Credentials{Email: "a@example.com", Password: "12345678", Locale: "jp"}, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if d := userDocRow(t, s, u); !d.UpdatedAt.Equal(c.now()) || d.Version != 3 {
			t.Errorf("after a sign-in in another language: updatedAt %v, version %d", d.UpdatedAt, d.Version)
		}
	})
}

// Concurrent writers each change a different field: every change survives, each one a version.
func TestConcurrentEditsLoseNothing(t *testing.T) {
	t.Parallel()
	const writers = 16
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil)
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"})
		if err != nil {
			t.Fatal(err)
		}
		concurrently(t, writers, func(i int) error {
			key := "field" + strconv.Itoa(i)
			return editUserDoc(ctx, st, u.ID, c.now(), func(doc map[string]any) { doc[key] = float64(i) })
		})
		doc, raw := userDocJSON(t, s, u)
		for i := range writers {
			if doc["field"+strconv.Itoa(i)] != float64(i) {
				t.Errorf("writer %d's field was lost: %s", i, raw)
			}
		}
		if d := userDocRow(t, s, u); d.Version != 1+writers {
			t.Errorf("version %d after %d edits, want %d", d.Version, writers, 1+writers)
		}
	})
}

// The same through UpdateProfile, as concurrent PATCH /auth/me requests: 16 edits of the four
// profile fields, each writing a value of its own.
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
		if d := userDocRow(t, s, u); d.Version != 1+writers {
			t.Errorf("version %d after %d edits, want %d", d.Version, writers, 1+writers)
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
