package site

import (
	"fmt"
	"strings"
)

// Limits bound what an account holds and sends. They live in site.json because the front end
// checks the same numbers before it sends anything, and quotes them in its messages.
type Limits struct {
	// PasswordMinLength and PasswordMaxLength are in characters: long enough to resist
	// guessing, short enough that hashing cannot be used to tie up the server.
	PasswordMinLength int `json:"passwordMinLength"`
	PasswordMaxLength int `json:"passwordMaxLength"`
	// DisplayNameMaxLength is in characters.
	DisplayNameMaxLength int `json:"displayNameMaxLength"`
	// AvatarMaxBytes bounds the avatar's data: URL, in bytes.
	AvatarMaxBytes int `json:"avatarMaxBytes"`
	// AvatarSize is the side, in pixels, of the square JPEG the front end's cropper makes.
	AvatarSize int `json:"avatarSize"`
	// MaxWritesPerCommit bounds the writes of one document store commit: the store refuses more
	// (it takes the number through its configuration) and the front end's sync groups its
	// outbox into commits of at most this many.
	MaxWritesPerCommit int `json:"maxWritesPerCommit"`
}

func (l Limits) validate() error {
	if l.PasswordMinLength < 1 || l.PasswordMaxLength < l.PasswordMinLength || l.DisplayNameMaxLength < 1 ||
		l.AvatarMaxBytes < 1 || l.AvatarSize < 1 || l.MaxWritesPerCommit < 1 {
		return fmt.Errorf("limits %+v: each must be positive, the password's maximum at least its minimum", l)
	}
	return nil
}

// History is the history feature's place in each user's documents: its collection
// (users/{uid}/{Collection}) and how many entries a user keeps there. The document store is
// given both as configuration (a commit past MaxEntries prunes the oldest); the front end
// writes its entries there.
type History struct {
	Collection string `json:"collection"`
	MaxEntries int    `json:"maxEntries"`
}

func (h History) validate() error {
	if h.Collection == "" || strings.ContainsAny(h.Collection, "/") || h.MaxEntries < 1 {
		return fmt.Errorf("history %+v: a collection name without a slash and a positive number of entries", h)
	}
	return nil
}

// History returns the history feature's collection and entry cap.
func (t *Table) History() History { return t.history }

// Limits returns the account limits.
func (t *Table) Limits() Limits { return t.limits }

// MaxRedirectHops returns how many route rules Redirect chains into one answer at most.
func (t *Table) MaxRedirectHops() int { return t.maxRedirectHops }
