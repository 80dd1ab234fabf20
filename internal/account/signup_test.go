package account

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
	"testing"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

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
