package account

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

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
