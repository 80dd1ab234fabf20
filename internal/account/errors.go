package account

import (
	"errors"
	"fmt"
	"time"
)

// Domain errors: what went wrong, in the account's own terms. They carry no HTTP status; the
// server's one table (internal/server/errors_domain.go) decides what a client is told.
var (
	ErrInvalidEmail       = errors.New("account: not a valid email address")
	ErrInvalidPassword    = errors.New("account: password length out of bounds")
	ErrEmailTaken         = errors.New("account: email address taken")
	ErrWrongSignIn        = errors.New("account: wrong email address or password")
	ErrWrongPassword      = errors.New("account: wrong password")
	ErrUnauthenticated    = errors.New("account: token missing, unknown or expired")
	ErrRateLimited        = errors.New("account: too many failed sign-ins")
	ErrInvalidName        = errors.New("account: invalid display name")
	ErrInvalidAvatar      = errors.New("account: invalid avatar")
	ErrInvalidPreferences = errors.New("account: invalid preferences")
	ErrBusy               = errors.New("account: too many passwords being checked at once")
	ErrTooManySignups     = errors.New("account: too many sign-ups")
)

// Errors returns every domain error, so that a test can check that each has a mapping.
func Errors() []error {
	return []error{
		ErrInvalidEmail, ErrInvalidPassword, ErrEmailTaken, ErrWrongSignIn, ErrWrongPassword,
		ErrUnauthenticated, ErrRateLimited, ErrInvalidName, ErrInvalidAvatar, ErrInvalidPreferences, ErrBusy,
		ErrTooManySignups,
	}
}

// RateLimitError is ErrRateLimited (errors.Is), or Err when set (ErrTooManySignups), with how
// long the client must wait (errors.As).
type RateLimitError struct {
	RetryAfter time.Duration
	Err        error
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("%v: retry after %v", e.Unwrap(), e.RetryAfter)
}

// Unwrap makes errors.Is(err, ErrRateLimited), or Err, hold.
func (e *RateLimitError) Unwrap() error {
	if e.Err != nil {
		return e.Err
	}
	return ErrRateLimited
}
