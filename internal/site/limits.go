package site

import "fmt"

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

// Limits returns the account limits.
func (t *Table) Limits() Limits { return t.limits }

// MaxRedirectHops returns how many route rules Redirect chains into one answer at most.
func (t *Table) MaxRedirectHops() int { return t.maxRedirectHops }
