package account

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// A display name shows what it is: sign-up and a profile edit take and refuse the same names.
func TestDisplayNameRules(t *testing.T) {
	t.Parallel()
	ok := []string{
		"Ada", "José Ñúñez", "山田 太郎", "김민준", "Zoë-Ann O'Neil",
		"👨\u200d👩\u200d👧 family", // emoji joined by zero-width joiners
		"می\u200cخواهم",          // Persian, with a zero-width non-joiner
		"  trimmed  ",
	}
	refused := map[string]string{
		"right-to-left override":   "\u202eevil.exe",
		"left-to-right isolate":    "a\u2066b\u2069",
		"right-to-left mark":       "Ada\u200f",
		"arabic letter mark":       "Ada\u061c",
		"zero-width space":         "Ad\u200ba",
		"zero-width no-break":      "\ufeffAda",
		"word joiner":              "Ad\u2060a",
		"soft hyphen":              "Ad\u00ada",
		"tag characters":           "Ada\U000E0041\U000E007F",
		"a leading joiner":         "\u200dAda",
		"a trailing non-joiner":    "Ada\u200c",
		"two joiners":              "a\u200d\u200db",
		"hangul filler":            "\u3164",
		"halfwidth hangul filler":  "Ada\uffa0",
		"braille blank":            "\u2800\u2800",
		"combining grapheme joint": "A\u034fda",
		"line separator":           "Ada\u2028Lovelace",
		"control character":        "Ada\x07",
		"newline":                  "Ada\nLovelace",
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		_, u, err := s.Signup(ctx, Credentials{Email: "owner@example.com", Password: "correct horse"})
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range ok {
			if _, _, err := s.Signup(ctx, Credentials{Email: fmt.Sprintf("ok%d@example.com", i), Password: "correct horse", DisplayName: n}); err != nil {
				t.Errorf("sign-up with %q: %v", n, err)
			}
			if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: &n}); err != nil {
				t.Errorf("profile edit to %q: %v", n, err)
			}
		}
		for why, n := range refused {
			if _, _, err := s.Signup(ctx, Credentials{Email: "no-" + strings.ReplaceAll(why, " ", "-") + "@example.com", Password: "correct horse", DisplayName: n}); !errors.Is(err, ErrInvalidName) {
				t.Errorf("sign-up with a %s (%q): %v, want ErrInvalidName", why, n, err)
			}
			if _, err := s.UpdateProfile(ctx, u, ProfileUpdate{DisplayName: &n}); !errors.Is(err, ErrInvalidName) {
				t.Errorf("profile edit with a %s (%q): %v, want ErrInvalidName", why, n, err)
			}
		}
	})
}

// A sign-in with an address that cannot be an account's is refused as invalid before anything
// is recorded or logged: not counted against the limits, not written to the log.
func TestSigninRefusesInvalidEmailFirst(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		var log bytes.Buffer
		s, _ := newService(t, st, &log)
		for _, email := range []string{"not an address", "a@b", "<script>@example.com", strings.Repeat("x", 300) + "@example.com", ""} {
			if _, _, err := s.Signin(ctx, Credentials{Email: email, Password: "whatever password"}, "192.0.2.1"); !errors.Is(err, ErrInvalidEmail) {
				t.Errorf("sign-in as %q: %v, want ErrInvalidEmail", email, err)
			}
		}
		var n int
		if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM signin_failures").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 || log.Len() != 0 {
			t.Errorf("%d failures recorded, log %q: want none", n, log.String())
		}
	})
}
