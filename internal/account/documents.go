package account

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"

	"handy/internal/docstore"
)

// Export is everything stored for an account.
type Export struct {
	ExportedAt time.Time            `json:"exportedAt"`
	User       User                 `json:"user"`
	Documents  []docstore.ExportDoc `json:"documents"`
}

// Export returns all of the account's data: the account, and every document of the user's,
// decoded to plain JSON. It collects ExportEach's documents.
func (s *Service) Export(ctx context.Context, u User) (Export, error) {
	var docs []docstore.ExportDoc
	ex, err := s.ExportEach(ctx, u, func(d docstore.ExportDoc) error {
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		return Export{}, err
	}
	if docs != nil {
		ex.Documents = docs
	}
	return ex, nil
}

// ExportEach hands the account's documents to yield one at a time, in path order, as they are
// read (docstore.Store.ExportEach), then returns the export's other fields (Documents empty,
// not nil): the HTTP server spools the documents and writes the whole answer afterwards, so
// that it never holds more than one. An error from yield stops the export and comes back
// wrapped.
func (s *Service) ExportEach(ctx context.Context, u User, yield func(docstore.ExportDoc) error) (Export, error) {
	if err := s.docs.ExportEach(ctx, u.ID, yield); err != nil {
		return Export{}, fmt.Errorf("account: export: %w", err)
	}
	return Export{ExportedAt: s.now().UTC(), User: u, Documents: []docstore.ExportDoc{}}, nil
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

// UpdateProfile merges changes into the user's document and returns it. The display name, the
// avatar and the preferences' size are checked here, with the schema's rules (schema.go), so
// that the front end gets the error it has a message for; the whole document the merge leaves
// is then checked by the store with the same Schema (docstore.Config.Check, as cmd/handy wires
// it), which refuses with invalid-argument naming the field: a preference value the front end
// does not offer, or a stored field written before the rules that the update leaves as it was.
func (s *Service) UpdateProfile(ctx context.Context, u User, p ProfileUpdate) (json.RawMessage, error) {
	fields := map[string]any{}
	if p.DisplayName != nil {
		name, err := s.displayName(*p.DisplayName)
		if err != nil {
			return nil, err
		}
		fields["displayName"] = name
	}
	if p.Avatar != nil {
		switch a := *p.Avatar; {
		case a == "":
			fields["avatar"] = nil
		case !s.schema.validAvatar(a):
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
	if len(fields) > 0 {
		req, err := mergeUserDoc(u.ID, fields)
		if err != nil {
			return nil, err
		}
		if _, err := s.docs.Commit(ctx, u.ID, req); err != nil {
			return nil, fmt.Errorf("account: update users/%s: %w", u.ID, err)
		}
	}
	return s.UserDoc(ctx, u)
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

// displayName is a display name as it is kept: trimmed, then held to the schema's rule (at
// most the site's limit in characters, valid UTF-8 that shows what it is: visibleName), which
// sign-up, profile edits and clients' commits all meet.
func (s *Service) displayName(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	if !s.schema.validDisplayName(name) {
		return "", ErrInvalidName
	}
	return name, nil
}

// visibleName reports whether a display name shows what it is: no control characters, no
// line or paragraph separators, no bidirectional controls (which reorder what follows: a name
// could make the text after it read backwards), and no invisible characters (zero-width
// spaces, soft hyphens, word joiners, tags, Hangul fillers), which let two names that look
// alike differ. Zero-width joiners and non-joiners stay allowed between two visible
// characters: emoji sequences and Persian and Indic scripts need them.
func visibleName(name string) bool {
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case r == '\u200c' || r == '\u200d':
			if i == 0 || i == len(runes)-1 || joiner(runes[i-1]) || joiner(runes[i+1]) {
				return false
			}
		case unicode.IsControl(r), unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp), invisible(r):
			return false
		}
	}
	return true
}

func joiner(r rune) bool { return r == '\u200c' || r == '\u200d' }

// invisible reports letters and symbols that draw nothing, outside the format characters
// (Cf) that visibleName refuses as a class.
func invisible(r rune) bool {
	switch r {
	case '\u115f', '\u1160', '\u3164', '\uffa0', // Hangul fillers
		'\u2800', // braille pattern blank
		'\u034f': // combining grapheme joiner
		return true
	}
	return false
}
