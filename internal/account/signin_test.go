package account

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

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
	docs := docstore.New(st, testDocsConfig())
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
