package account

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
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

// cheap keeps the tests fast; the timing test uses the real parameters.
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

func newServiceLogged(t *testing.T, st *store.Store, log io.Writer, limits site.Limits, opts ...Option) (*Service, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	if log == nil {
		log = io.Discard
	}
	docs := docstore.New(st)
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

func TestSignupRejects(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		if _, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"}); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			name, email, password string
			displayName           string
			want                  error
		}{
			{"taken", "A@EXAMPLE.com", "12345678", "", ErrEmailTaken},
			{"no at", "a.example.com", "12345678", "", ErrInvalidEmail},
			{"display name form", "Ada <b@example.com>", "12345678", "", ErrInvalidEmail},
			{"no dot in domain", "b@localhost", "12345678", "", ErrInvalidEmail},
			{"too long", strings.Repeat("x", 250) + "@e.com", "12345678", "", ErrInvalidEmail},
			{"short password", "b@example.com", "1234567", "", ErrInvalidPassword},
			{"long password", "b@example.com", strings.Repeat("x", 1025), "", ErrInvalidPassword},
			{"not UTF-8", "b@example.com", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", "", ErrInvalidPassword},
			// The display name follows the profile's rule (UpdateProfile) from the start.
			{"long display name", "b@example.com", "12345678", strings.Repeat("é", site.Default().Limits().DisplayNameMaxLength+1), ErrInvalidName},
			{"control in display name", "b@example.com", "12345678", "Ada\x07", ErrInvalidName},
		} {
			if _, _, err := s.Signup(ctx, Credentials{Email: tt.email, Password: tt.password, DisplayName: tt.displayName}); !errors.Is(err, tt.want) {
				t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
			}
		}
		// 8 and 1024 characters (not bytes) are both fine.
		if _, _, err := s.Signup(ctx, Credentials{Email: "c@example.com", Password: strings.Repeat("é", 1024)}); err != nil {
			t.Errorf("1024 characters: %v", err)
		}
		if _, _, err := s.Signup(ctx, Credentials{Email: "d@example.com", Password: "日本語のパスワード"}); err != nil {
			t.Errorf("9 CJK characters: %v", err)
		}
	})
}

func TestConcurrentSignupsWithOneAddress(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s, _ := newService(t, st, nil)
		var wg sync.WaitGroup
		codes := make([]string, 6)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, err := s.Signup(context.Background(), Credentials{Email: "same@example.com", Password: "12345678"})
				codes[i] = name(err)
			}()
		}
		wg.Wait()
		sort.Strings(codes)
		if taken := ErrEmailTaken.Error(); codes[0] != "" || codes[1] != taken || codes[5] != taken {
			t.Errorf("codes = %q, want one success and the rest email-taken", codes)
		}
	})
}

func TestTokenExpiry(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil)
		token, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"})
		if err != nil {
			t.Fatal(err)
		}
		// Used every 20 days, it never expires (sliding).
		for range 3 {
			c.advance(20 * 24 * time.Hour)
			if _, err := s.Authenticate(ctx, token); err != nil {
				t.Fatalf("used within 30 days: %v", err)
			}
		}
		c.advance(TokenLifetime + time.Second)
		if _, err := s.Authenticate(ctx, token); !errors.Is(err, ErrUnauthenticated) {
			t.Fatalf("unused for 30 days: %v", err)
		}
		for _, bad := range []string{"", "nope", token + "x"} {
			if _, err := s.Authenticate(ctx, bad); !errors.Is(err, ErrUnauthenticated) {
				t.Errorf("token %q: %v", bad, err)
			}
		}
		// Only a hash of the token is stored.
		var n int
		st.QueryRow(ctx, "SELECT COUNT(*) FROM sessions WHERE token_hash = ?", token).Scan(&n)
		if n != 0 {
			t.Error("a token is stored in clear")
		}
	})
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		var log strings.Builder
		var mu sync.Mutex
		s, c := newService(t, st, writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return log.Write(p) }),
			WithLimits(Limits{Window: 10 * time.Minute, PerAccount: 3, PerAddress: 5}))
		if _, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "right password"}); err != nil {
			t.Fatal(err)
		}
		signin := func(email, password, addr string) error {
			_, _, err := s.Signin(ctx, Credentials{Email: email, Password: password}, addr)
			return err
		}
		// Per account (from networks it never signed in from): 3 attempts at once, then one every
		// 10m/3 = 200 s. Three failures a minute apart leave the fourth 20 s to wait, even with
		// the right password.
		for range 3 {
			if err := signin("a@example.com", "wrong password", "198.51.100.1"); !errors.Is(err, ErrWrongSignIn) {
				t.Fatalf("failure: %v", err)
			}
			c.advance(time.Minute)
		}
		err := signin("a@example.com", "right password", "198.51.100.2")
		var e *RateLimitError
		if !errors.Is(err, ErrRateLimited) || !errors.As(err, &e) || e.RetryAfter != 20*time.Second {
			t.Fatalf("4th try: %+v, want rate-limited, retry after 20s", err)
		}
		c.advance(20 * time.Second)
		if err := signin("a@example.com", "right password", "198.51.100.2"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
		// Per address: 5 failures over different accounts, then that address waits.
		for i := range 5 {
			signin("nobody"+string(rune('a'+i))+"@example.com", "whatever1", "203.0.113.9")
		}
		if err := signin("a@example.com", "right password", "203.0.113.9"); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("6th try from one address: %v", err)
		}
		if err := signin("a@example.com", "right password", "203.0.113.10"); err != nil {
			t.Fatalf("another address: %v", err)
		}
		mu.Lock()
		defer mu.Unlock()
		out := log.String()
		if strings.Contains(out, "wrong password") || strings.Contains(out, "whatever1") {
			t.Error("a password was logged")
		}
		for _, want := range []string{`"msg":"sign-in failed"`, `"reason":"unknown-email"`, `"reason":"wrong-password"`, `"address":"203.0.113.9"`, `"msg":"sign-in refused"`} {
			if !strings.Contains(out, want) {
				t.Errorf("the log lacks %s", want)
			}
		}
	})
}

// A token holder cannot guess the password through deletion: wrong passwords count as failed
// sign-ins of the account, and past the limit even the right one waits.
func TestDeletePasswordGuessesAreLimited(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil, WithLimits(Limits{Window: 10 * time.Minute, PerAccount: 3, PerAddress: 50}))
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "right password"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := s.Delete(ctx, u, "guess"+strconv.Itoa(i), "198.51.100.1"); !errors.Is(err, ErrWrongPassword) {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		var limited *RateLimitError
		// Three at once, then one every 10m/3 = 200 s.
		if err := s.Delete(ctx, u, "right password", "198.51.100.1"); !errors.As(err, &limited) || limited.RetryAfter != 200*time.Second {
			t.Fatalf("after 3 guesses: %v, want rate-limited for 200s", err)
		}
		if _, _, err := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "right password"}, "198.51.100.2"); !errors.Is(err, ErrRateLimited) {
			t.Errorf("sign-in after 3 deletion guesses: %v, want rate-limited (one budget per account)", err)
		}
		c.advance(200 * time.Second)
		if err := s.Delete(ctx, u, "right password", "198.51.100.1"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestDeleteAndExport(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		token, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678", DisplayName: "A"})
		if err != nil {
			t.Fatal(err)
		}
		other, otherUser, _ := s.Signup(ctx, Credentials{Email: "b@example.com", Password: "12345678"})
		for _, uid := range []string{u.ID, otherUser.ID} {
			h, _ := docstore.ParseDocumentPath("users/" + uid + "/history/h1")
			if _, err := s.docs.Commit(ctx, uid, docstore.CommitRequest{Writes: []docstore.Write{
				{Path: h, Fields: docstore.Fields{"tool": {Kind: docstore.String, Str: "area"}}},
			}}); err != nil {
				t.Fatal(err)
			}
		}
		ex, err := s.Export(ctx, u)
		if err != nil || ex.User.ID != u.ID || len(ex.Documents) != 2 || ex.Documents[0].Path != "users/"+u.ID ||
			ex.Documents[1].Path != "users/"+u.ID+"/history/h1" || ex.Documents[1].Fields.(map[string]any)["tool"] != "area" {
			t.Fatalf("Export = %+v, %v", ex, err)
		}
		if err := s.Delete(ctx, u, "wrong pass", "192.0.2.1"); !errors.Is(err, ErrWrongPassword) {
			t.Fatalf("delete with a wrong password: %v", err)
		}
		if err := s.Delete(ctx, u, "12345678", "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, token); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("the deleted account's token: %v", err)
		}
		for table, column := range map[string]string{"users": "id", "sessions": "user_id", "docs": "owner", "doc_rate": "owner"} {
			var n int
			st.QueryRow(ctx, "SELECT COUNT(*) FROM "+table+" WHERE "+column+" = ?", u.ID).Scan(&n)
			if n != 0 {
				t.Errorf("%s keeps %d rows of the deleted account", table, n)
			}
		}
		if ex, err := s.Export(ctx, otherUser); err != nil || len(ex.Documents) != 2 {
			t.Errorf("another account's documents suffered: %+v, %v", ex, err)
		}
		if _, err := s.Authenticate(ctx, other); err != nil {
			t.Errorf("another account suffered: %v", err)
		}
		if _, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"}); err != nil {
			t.Errorf("the address is free again: %v", err)
		}
	})
}

// An unknown address costs what a wrong password costs: the same argon2id work. Each sign-in
// waits for a hashing slot (held here), so each checks a password, and the hash an unknown
// address is checked against has the real hashes' form and costs. How long each takes is
// BenchmarkSigninWrongPassword's to measure: without the dummy hash an unknown address would be
// some 30 times faster.
func TestSigninCostsTheSameForUnknownAddresses(t *testing.T) {
	st := storetest.Engines()[0].Open(t)
	ctx := context.Background()
	s, _ := newService(t, st, nil, WithParams(DefaultParams), WithLimits(Limits{Window: time.Minute, PerAccount: 1000, PerAddress: 1000}),
		WithHashing(Hashing{Slots: 1, Queue: 1, Wait: time.Hour}))
	if _, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"}); err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"a@example.com", "zz@example.com"} {
		held, release, holder := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() { holder <- s.hashing.run(ctx, func() { close(held); <-release }) }()
		<-held
		done := make(chan error, 1)
		go func() {
			_, _, err := s.Signin(ctx, Credentials{Email: email, Password: "wrong one"}, "192.0.2.7")
			done <- err
		}()
		waitUntil(t, email+"'s sign-in waits for a hashing slot", func() bool {
			select {
			case err := <-done:
				t.Fatalf("%s: answered %v without checking a password", email, err)
			default:
			}
			return len(s.hashing.waiting) == 1
		})
		close(release)
		if err := <-holder; err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			if !errors.Is(err, ErrWrongSignIn) {
				t.Fatalf("%s: %v, want ErrWrongSignIn", email, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no answer 30 s after its hashing slot was free", email)
		}
	}
	made, err := hashPassword(s.params, "12345678")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hashShape(t, s.dummy), hashShape(t, made); got != want {
		t.Errorf("the hash an unknown address is checked against: %s, a real hash: %s", got, want)
	}
	if match, err := verifyPassword(s.dummy, "wrong one"); match || err != nil {
		t.Errorf("checking a password against the dummy hash: %v, %v, want a mismatch after the work", match, err)
	}
}

// hashShape is what of a PHC string sets the cost of checking a password against it: the
// algorithm, version and parameters, and the lengths of the salt and the key.
func hashShape(t *testing.T, encoded string) string {
	t.Helper()
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 {
		t.Fatalf("not a PHC string: %q", encoded)
	}
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil {
		t.Fatalf("not a PHC string: %q", encoded)
	}
	return fmt.Sprintf("%s salt %d key %d", strings.Join(parts[1:4], "$"), len(salt), len(key))
}

// BenchmarkSigninWrongPassword measures a wrong sign-in to a known and to an unknown address,
// with the real parameters: the two should cost the same (the figure the test above cannot
// hold against a wall clock on a busy machine).
func BenchmarkSigninWrongPassword(b *testing.B) {
	st := storetest.Engines()[0].Open(b)
	ctx := context.Background()
	docs := docstore.New(st)
	defer docs.Close()
	s, err := New(st, docs, slog.New(slog.NewTextHandler(io.Discard, nil)), site.Default().Limits(),
		WithLimits(Limits{Window: time.Minute, PerAccount: 1 << 30, PerAddress: 1 << 30}))
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"}); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, email string }{{"known", "a@example.com"}, {"unknown", "zz@example.com"}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.Signin(ctx, Credentials{Email: c.email, Password: "wrong one"}, "192.0.2.7"); !errors.Is(err, ErrWrongSignIn) {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestUpdateProfile(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678", DisplayName: "A", Locale: "en"})
		if err != nil {
			t.Fatal(err)
		}
		str := func(v string) *string { return &v }
		jpeg := "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="
		raw, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: str("  Ada Lovelace "), Avatar: str(jpeg), Preferences: map[string]any{"theme": "dark", "area": map[string]any{"unit": "m2", "decimals": 3.0}}})
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		json.Unmarshal(raw, &doc)
		if doc["displayName"] != "Ada Lovelace" || doc["avatar"] != jpeg || doc["locale"] != "en" || doc["preferences"].(map[string]any)["theme"] != "dark" {
			t.Fatalf("after the update: %s", raw)
		}
		raw, _ = s.UpdateProfile(ctx, u, ProfileUpdate{Avatar: str("")})
		json.Unmarshal(raw, &doc)
		if doc["avatar"] != nil || doc["displayName"] != "Ada Lovelace" {
			t.Errorf("avatar removed: %s", raw)
		}
		limits := site.Default().Limits()
		for _, tt := range []struct {
			name string
			p    ProfileUpdate
			want error
		}{
			{"long name", ProfileUpdate{DisplayName: str(strings.Repeat("é", limits.DisplayNameMaxLength+1))}, ErrInvalidName},
			{"control in name", ProfileUpdate{DisplayName: str("a\x07b")}, ErrInvalidName},
			{"png avatar", ProfileUpdate{Avatar: str("data:image/png;base64,iVBORw0KGgo=")}, ErrInvalidAvatar},
			{"not base64", ProfileUpdate{Avatar: str("data:image/jpeg;base64,/9j/!!!")}, ErrInvalidAvatar},
			{"huge avatar", ProfileUpdate{Avatar: str("data:image/jpeg;base64,/9j/" + strings.Repeat("A", limits.AvatarMaxBytes))}, ErrInvalidAvatar},
			{"huge prefs", ProfileUpdate{Preferences: map[string]any{"x": strings.Repeat("y", MaxPreferences)}}, ErrInvalidPreferences},
		} {
			if _, err := s.UpdateProfile(ctx, u, tt.p); !errors.Is(err, tt.want) {
				t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
			}
		}
		// The limits are the ones given: the longest name allowed passes.
		if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: str(strings.Repeat("é", limits.DisplayNameMaxLength))}); err != nil {
			t.Errorf("a name of %d characters: %v", limits.DisplayNameMaxLength, err)
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
