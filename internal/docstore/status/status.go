// Package status holds the document store's error codes (Firestore's, as sentinels for
// errors.Is) and Error, a failure with a public message; the server maps each code to an HTTP
// status. It sits below the pure packages and the engine alike.
package status

import (
	"errors"
	"fmt"
	"time"
)

// Sentinels for errors.Is; the server maps each to a status and a stable code.
var (
	ErrInvalidArgument    = errors.New("invalid-argument")    // 400
	ErrUnauthenticated    = errors.New("unauthenticated")     // 401
	ErrNotFound           = errors.New("not-found")           // 404
	ErrPermissionDenied   = errors.New("permission-denied")   // 403
	ErrFailedPrecondition = errors.New("failed-precondition") // 412
	ErrAborted            = errors.New("aborted")             // 409
	ErrResourceExhausted  = errors.New("resource-exhausted")  // 429
	ErrUnavailable        = errors.New("unavailable")         // 503
)

// Error is a failure with a public message that names the offending part
// ("field path \"a..b\" has an empty segment"); errors.Is(err, ErrInvalidArgument) holds.
// The message is safe to show to the client, which is why it carries no
// internal cause: Code says which sentinel (and so which status) applies.
type Error struct {
	Code    error
	Message string
	// RetryAfter is, for resource-exhausted, how long to wait before the request can succeed
	// (the HTTP API's Retry-After); zero when unknown.
	RetryAfter time.Duration
}

// Error returns the public message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the sentinel so that errors.Is matches the code.
func (e *Error) Unwrap() error { return e.Code }

// invalidf builds an invalid-argument Error with a formatted public message.
func Invalidf(format string, args ...any) error {
	return &Error{Code: ErrInvalidArgument, Message: fmt.Sprintf(format, args...)}
}
