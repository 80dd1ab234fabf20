package account

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// cheap keeps the tests fast; TestSigninCostsTheSameForUnknownAddresses and
// BenchmarkSigninWrongPassword use the real parameters.
var cheap = Params{Memory: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newService(t *testing.T, st *store.Store, log io.Writer, opts ...Option) (*Service, *clock) {
	t.Helper()
	return newServiceLogged(t, st, log, site.Default().Limits(), opts...)
}

func newServiceWith(t *testing.T, st *store.Store, limits site.Limits) (*Service, *clock) {
	t.Helper()
	return newServiceLogged(t, st, nil, limits)
}

// testDocsConfig is the document store's configuration as cmd/handy gives it: 500 writes per
// commit, the history capped at 10,000 entries.
func testDocsConfig() docstore.Config {
	return docstore.Config{MaxWrites: 500, Capped: []docstore.Capped{{Collection: "history", Max: 10000}}}
}

func newServiceLogged(t *testing.T, st *store.Store, log io.Writer, limits site.Limits, opts ...Option) (*Service, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	if log == nil {
		log = io.Discard
	}
	docs := docstore.New(st, testDocsConfig())
	t.Cleanup(func() { docs.Close() })
	s, err := New(st, docs, slog.New(slog.NewJSONHandler(log, nil)), limits, append([]Option{WithParams(cheap), WithClock(c.now)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s, c
}

// name says which domain error err is, for test tables and messages: "" for nil.
func name(err error) string {
	for _, d := range Errors() {
		if errors.Is(err, d) {
			return d.Error()
		}
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestSignupAndSignin(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil)
		token, u, err := s.Signup(ctx, Credentials{Email: "  Ada@Example.COM ", Password: "correct horse", Locale: "de", DisplayName: "Ada"})
		if err != nil {
			t.Fatal(err)
		}
		if u.Email != "ada@example.com" || len(u.ID) != 32 || len(token) < 43 {
			t.Fatalf("user %+v, token %q", u, token)
		}
		if got, err := s.Authenticate(ctx, token); err != nil || got.ID != u.ID {
			t.Fatalf("Authenticate = %+v, %v", got, err)
		}
		var doc map[string]any
		raw, err := s.UserDoc(ctx, u)
		if err != nil || json.Unmarshal(raw, &doc) != nil {
			t.Fatalf("UserDoc = %s, %v", raw, err)
		}
		for _, k := range []string{"email", "displayName", "avatar", "locale", "preferences", "createdAt", "lastSignInAt"} {
			if _, ok := doc[k]; !ok {
				t.Errorf("users/{uid} lacks %s: %s", k, raw)
			}
		}
		if doc["displayName"] != "Ada" || doc["locale"] != "de" {
			t.Errorf("users/{uid} = %s", raw)
		}

		tests := []struct {
			name, email, password string
			want                  error
		}{
			{"same address, other case", "ADA@example.com", "correct horse", nil},
			{"wrong password", "ada@example.com", "wrong horse!", ErrWrongSignIn},
			{"unknown address", "bob@example.com", "correct horse", ErrWrongSignIn},
			{"not an address: refused before anything is checked", "nope", "correct horse", ErrInvalidEmail},
			{"empty password", "ada@example.com", "", ErrWrongSignIn},
		}
		for _, tt := range tests {
			c.advance(time.Minute)
			tok, got, err := s.Signin(ctx, Credentials{Email: tt.email, Password: tt.password, Locale: "jp"}, "192.0.2.1")
			if !errors.Is(err, tt.want) {
				t.Errorf("%s: Signin error %v, want %v", tt.name, err, tt.want)
			}
			if tt.want == nil && (tok == "" || tok == token || got.ID != u.ID || !got.LastSignInAt.Equal(c.now())) {
				t.Errorf("%s: token %q, user %+v", tt.name, tok, got)
			}
		}
		// The sign-in merged into the document: locale changed, display name kept.
		raw, _ = s.UserDoc(ctx, u)
		json.Unmarshal(raw, &doc)
		if doc["locale"] != "jp" || doc["displayName"] != "Ada" || doc["lastSignInAt"] == doc["createdAt"] {
			t.Errorf("after sign-in users/{uid} = %s", raw)
		}
		// Both tokens work until signed out.
		if err := s.Signout(ctx, token); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, token); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("a signed-out token: %v", err)
		}
	})
}

// The limits are the site table's, not constants of this package.
func TestLimitsAreTheGivenOnes(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	strict := site.Limits{PasswordMinLength: 12, PasswordMaxLength: 20, DisplayNameMaxLength: 3, AvatarMaxBytes: 40, AvatarSize: 8}
	s, _ := newServiceWith(t, st, strict)
	ctx := context.Background()
	for _, tt := range []struct {
		password string
		want     error
	}{{"elevenchars", ErrInvalidPassword}, {strings.Repeat("x", 21), ErrInvalidPassword}, {"twelve chars", nil}} {
		if _, _, err := s.Signup(ctx, Credentials{Email: "a" + strconv.Itoa(len(tt.password)) + "@example.com", Password: tt.password}); !errors.Is(err, tt.want) {
			t.Errorf("password of %d characters: %v, want %v", len(tt.password), err, tt.want)
		}
	}
	_, u, err := s.Signup(ctx, Credentials{Email: "b@example.com", Password: "twelve chars"})
	if err != nil {
		t.Fatal(err)
	}
	str := func(v string) *string { return &v }
	if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: str("Abcd")}); !errors.Is(err, ErrInvalidName) {
		t.Errorf("a 4-character name over a limit of 3: %v", err)
	}
	if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{Avatar: str("data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==")}); !errors.Is(err, ErrInvalidAvatar) {
		t.Errorf("a 43-byte avatar over a limit of 40: %v", err)
	}
}
