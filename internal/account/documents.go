package account

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"handy/internal/store"
)

// userDocPath is the path of a user's own document.
func userDocPath(uid string) string { return "users/" + uid }

// writeUserDoc sets (merges) the user's document users/{uid}: the given fields win, existing
// fields stay, and every field the document promises (email, display name, avatar, preferred
// locale, preferences, created and last-sign-in times) is there.
func writeUserDoc(ctx context.Context, tx *store.Tx, u User, fields map[string]any) error {
	path := userDocPath(u.ID)
	doc := map[string]any{"displayName": "", "avatar": nil, "locale": "", "preferences": map[string]any{}}
	var raw string
	var version int64
	err := tx.QueryRow(ctx, "SELECT data, version FROM documents WHERE path = ?", path).Scan(&raw, &version)
	exists := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("account: read %s: %w", path, err)
	}
	if exists {
		var old map[string]any
		if err := json.Unmarshal([]byte(raw), &old); err != nil {
			return fmt.Errorf("account: %s is not a JSON object: %w", path, err)
		}
		for k, v := range old {
			doc[k] = v
		}
	}
	for k, v := range fields {
		doc[k] = v
	}
	doc["email"] = u.Email
	doc["createdAt"] = u.CreatedAt.UTC().Format(time.RFC3339Nano)
	doc["lastSignInAt"] = u.LastSignInAt.UTC().Format(time.RFC3339Nano)
	data, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("account: encode %s: %w", path, err)
	}
	now := ms(u.LastSignInAt)
	if exists {
		_, err = tx.Exec(ctx, "UPDATE documents SET data = ?, version = ?, updated_at = ? WHERE path = ?", string(data), version+1, now, path)
	} else {
		_, err = tx.Exec(ctx, "INSERT INTO documents (path, owner, data, version, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)", path, u.ID, string(data), now, now)
	}
	if err != nil {
		return fmt.Errorf("account: write %s: %w", path, err)
	}
	return nil
}

// Document is one stored document, as exported.
type Document struct {
	Path      string          `json:"path"`
	Data      json.RawMessage `json:"data"`
	Version   int64           `json:"version"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// Export is everything stored for an account.
type Export struct {
	ExportedAt time.Time  `json:"exportedAt"`
	User       User       `json:"user"`
	Documents  []Document `json:"documents"`
}

// UserDoc returns the user's document users/{uid}.
func (s *Service) UserDoc(ctx context.Context, u User) (json.RawMessage, error) {
	var raw string
	if err := s.store.QueryRow(ctx, "SELECT data FROM documents WHERE path = ?", userDocPath(u.ID)).Scan(&raw); err != nil {
		return nil, fmt.Errorf("account: read users/%s: %w", u.ID, err)
	}
	return json.RawMessage(raw), nil
}

// Export returns all of the account's data.
func (s *Service) Export(ctx context.Context, u User) (Export, error) {
	out := Export{ExportedAt: s.now().UTC(), User: u, Documents: []Document{}}
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		rows, err := tx.Query(ctx, "SELECT path, data, version, created_at, updated_at FROM documents WHERE owner = ? ORDER BY path", u.ID)
		if err != nil {
			return fmt.Errorf("account: export: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var d Document
			var data string
			var created, updated int64
			if err := rows.Scan(&d.Path, &data, &d.Version, &created, &updated); err != nil {
				return fmt.Errorf("account: export: %w", err)
			}
			d.Data, d.CreatedAt, d.UpdatedAt = json.RawMessage(data), time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
			out.Documents = append(out.Documents, d)
		}
		return rows.Err()
	})
	return out, err
}

// MaxPreferences bounds the preferences, in bytes of JSON: a handful of settings. Unlike the
// display name and avatar limits (site.json), the front end has no use for it.
const MaxPreferences = 16_384

const avatarURLPrefix = "data:image/jpeg;base64,"

// ProfileUpdate changes some fields of users/{uid}; nil fields stay as they are.
type ProfileUpdate struct {
	DisplayName *string
	// Avatar is a data:image/jpeg;base64 URL, or "" to remove it.
	Avatar      *string
	Locale      *string
	Preferences map[string]any
}

// UpdateProfile merges changes into the user's document and returns it.
func (s *Service) UpdateProfile(ctx context.Context, u User, p ProfileUpdate) (json.RawMessage, error) {
	fields := map[string]any{}
	if p.DisplayName != nil {
		name := strings.TrimSpace(*p.DisplayName)
		if utf8.RuneCountInString(name) > s.bounds.DisplayNameMaxLength || !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) {
			return nil, ErrInvalidName
		}
		fields["displayName"] = name
	}
	if p.Avatar != nil {
		switch a := *p.Avatar; {
		case a == "":
			fields["avatar"] = nil
		case len(a) > s.bounds.AvatarMaxBytes || !strings.HasPrefix(a, avatarURLPrefix) || !isJPEG(a[len(avatarURLPrefix):]):
			return nil, ErrInvalidAvatar
		default:
			fields["avatar"] = a
		}
	}
	if p.Locale != nil {
		fields["locale"] = *p.Locale
	}
	if p.Preferences != nil {
		raw, err := json.Marshal(p.Preferences)
		if err != nil || len(raw) > MaxPreferences {
			return nil, ErrInvalidPreferences
		}
		fields["preferences"] = p.Preferences
	}
	var out json.RawMessage
	err := s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := writeUserDoc(ctx, tx, u, fields); err != nil {
			return err
		}
		var raw string
		if err := tx.QueryRow(ctx, "SELECT data FROM documents WHERE path = ?", userDocPath(u.ID)).Scan(&raw); err != nil {
			return fmt.Errorf("account: read users/%s: %w", u.ID, err)
		}
		out = json.RawMessage(raw)
		return nil
	})
	return out, err
}

// isJPEG reports whether base64 text decodes to bytes that start like a JPEG (SOI, then a marker).
func isJPEG(b64text string) bool {
	head := b64text[:min(len(b64text), 8)]
	raw, err := base64.StdEncoding.DecodeString(head)
	if err != nil || len(raw) < 3 {
		return false
	}
	if _, err := base64.StdEncoding.DecodeString(b64text); err != nil {
		return false
	}
	return raw[0] == 0xFF && raw[1] == 0xD8 && raw[2] == 0xFF
}
