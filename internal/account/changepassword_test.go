package account

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestChangePassword(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil, WithLimits(Limits{PerAccount: 3, PerAddress: 30}))
		here, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "old password", Address: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		there, _, err := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "old password"}, "198.51.100.1")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ChangePassword(ctx, u, "old password", "short", here, "192.0.2.1"); !errors.Is(err, ErrInvalidPassword) {
			t.Errorf("a new password too short: %v", err)
		}
		if err := s.ChangePassword(ctx, u, "not the password", "new password", here, "192.0.2.1"); !errors.Is(err, ErrWrongPassword) {
			t.Errorf("a wrong current password: %v", err)
		}
		if err := s.ChangePassword(ctx, u, "old password", "new password", here, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, here); err != nil {
			t.Errorf("the session that changed the password ended: %v", err)
		}
		if _, err := s.Authenticate(ctx, there); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("another session survived the change: %v", err)
		}
		if _, _, err := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "old password"}, "192.0.2.1"); !errors.Is(err, ErrWrongSignIn) {
			t.Errorf("the old password: %v", err)
		}
		if _, _, err := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "new password"}, "192.0.2.1"); err != nil {
			t.Errorf("the new password: %v", err)
		}
		// The current password's re-entry counts as a sign-in attempt: a token thief elsewhere
		// gets three guesses, then waits like anyone.
		for i := range 3 {
			if err := s.ChangePassword(ctx, u, fmt.Sprintf("guess %d", i), "stolen password", here, "203.0.113.5"); !errors.Is(err, ErrWrongPassword) {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		if err := s.ChangePassword(ctx, u, "guess 3", "stolen password", here, "203.0.113.5"); !errors.Is(err, ErrRateLimited) {
			t.Errorf("a fourth guess: %v, want rate-limited", err)
		}
	})
}
