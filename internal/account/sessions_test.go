package account

import (
	"context"
	"errors"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestSignoutEverywhere(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		a, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "right password", Address: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		b, _, _ := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "right password"}, "192.0.2.1")
		other, _, _ := s.Signup(ctx, Credentials{Email: "b@example.com", Password: "right password", Address: "192.0.2.2"})
		if err := s.SignoutEverywhere(ctx, u); err != nil {
			t.Fatal(err)
		}
		for _, tok := range []string{a, b} {
			if _, err := s.Authenticate(ctx, tok); !errors.Is(err, ErrUnauthenticated) {
				t.Errorf("a session survived: %v", err)
			}
		}
		if _, err := s.Authenticate(ctx, other); err != nil {
			t.Errorf("another account's session ended: %v", err)
		}
	})
}

// At most 20 sessions: the 21st sign-in ends the oldest. And a session ends a year after its
// sign-in even when used every day.
func TestSessionLimits(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil)
		first, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "right password", Address: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		tokens := []string{first}
		for range MaxSessions {
			c.advance(time.Second)
			tok, _, err := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "right password"}, "192.0.2.1")
			if err != nil {
				t.Fatal(err)
			}
			tokens = append(tokens, tok)
		}
		if _, err := s.Authenticate(ctx, first); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("the oldest of 21 sessions: %v, want ended", err)
		}
		var n int
		st.QueryRow(ctx, "SELECT COUNT(*) FROM sessions").Scan(&n)
		if n != MaxSessions {
			t.Errorf("%d sessions kept, want %d", n, MaxSessions)
		}
		daily := tokens[1]
		for day := 1; day < 365; day++ {
			c.advance(24 * time.Hour)
			if _, err := s.Authenticate(ctx, daily); err != nil {
				t.Fatalf("day %d of daily use: %v", day, err)
			}
		}
		c.advance(24 * time.Hour)
		if _, err := s.Authenticate(ctx, daily); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("a year after the sign-in, used daily: %v, want ended", err)
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
