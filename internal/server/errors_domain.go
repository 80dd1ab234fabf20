package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"handy/internal/account"
	"handy/internal/analytics"
	"handy/internal/docstore/status"
	"handy/internal/site"
)

// domainError is what a client is told about one domain error.
type domainError struct {
	err     error
	status  int
	code    string
	message string
}

// domainErrorTable maps domain errors (errors.Is) to public errors.
type domainErrorTable []domainError

// newDomainErrorTable is the one table from the account's domain errors to a status, a stable
// code and a public message. The front end maps the codes to its own words, so they never
// change. Messages quoting a limit are built from the site's limits.
func newDomainErrorTable(l site.Limits) domainErrorTable {
	return domainErrorTable{
		{account.ErrInvalidEmail, http.StatusBadRequest, "invalid-email", "This is not a valid email address."},
		{account.ErrInvalidPassword, http.StatusBadRequest, "invalid-password",
			fmt.Sprintf("The password must be %d to %d characters long.", l.PasswordMinLength, l.PasswordMaxLength)},
		{account.ErrEmailTaken, http.StatusConflict, "email-taken", "An account with this email address already exists."},
		// One answer for a wrong password and an unknown address: it must not tell them apart.
		{account.ErrWrongSignIn, http.StatusUnauthorized, "wrong-credentials", "The email address or the password is wrong."},
		{account.ErrWrongPassword, http.StatusForbidden, "wrong-password", "The password is wrong."},
		{account.ErrUnauthenticated, http.StatusUnauthorized, "unauthenticated", "Sign in first: the token is missing, unknown or expired."},
		{account.ErrRateLimited, http.StatusTooManyRequests, "rate-limited", "Too many failed sign-ins. Try again later."},
		{account.ErrInvalidName, http.StatusBadRequest, "invalid-display-name",
			fmt.Sprintf("The display name must be at most %d characters, without control, invisible or text-direction characters.", l.DisplayNameMaxLength)},
		{account.ErrInvalidAvatar, http.StatusBadRequest, "invalid-avatar",
			fmt.Sprintf("The avatar must be a JPEG data URL of at most %d kB.", l.AvatarMaxBytes/1000)},
		{account.ErrInvalidPreferences, http.StatusBadRequest, "invalid-preferences",
			fmt.Sprintf("The preferences must be an object of at most %d kB.", account.MaxPreferences/1024)},
		{account.ErrTooManySignups, http.StatusTooManyRequests, "rate-limited", "Too many sign-ups from this network. Try again later."},
		{account.ErrBusy, http.StatusServiceUnavailable, "unavailable", "The server is checking too many passwords at once; try again in a moment."},
	}
}

// docstoreStatus is the HTTP status of each of the document store's error codes; its errors
// carry their own public messages, which name the offending part.
var docstoreStatus = map[error]int{
	status.ErrInvalidArgument:    http.StatusBadRequest,
	status.ErrUnauthenticated:    http.StatusUnauthorized,
	status.ErrPermissionDenied:   http.StatusForbidden,
	status.ErrNotFound:           http.StatusNotFound,
	status.ErrAborted:            http.StatusConflict,
	status.ErrFailedPrecondition: http.StatusPreconditionFailed,
	status.ErrResourceExhausted:  http.StatusTooManyRequests,
	status.ErrUnavailable:        http.StatusServiceUnavailable,
}

// The answers to a page view the analytics cannot take now. They carry no cause: a full
// buffer is logged once a minute by the analytics, never once per request.
var (
	errAnalyticsBusy = &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", RetryAfter: 5 * time.Second,
		Message: "Too many page views are waiting to be written; try again in a few seconds."}
	errAnalyticsClosed = &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", RetryAfter: time.Second,
		Message: "The server is restarting; the page view was not counted."}
)

// analyticsError returns the public error for the analytics' domain errors: a refused beacon
// keeps its message, which names the field at fault.
func analyticsError(err error) (*Error, bool) {
	var be *analytics.BeaconError
	var over *analytics.BudgetError
	switch {
	case errors.As(err, &over):
		// The tracker's sendBeacon never reads the answer; the status is for other clients,
		// and the view is not counted either way.
		msg := "Too many page views from this client this minute; the view was not counted."
		if over.Full {
			msg = "Too many visitors this minute; the view was not counted."
		}
		return &Error{Status: http.StatusTooManyRequests, Code: "resource-exhausted", Message: msg, RetryAfter: over.RetryAfter, Cause: err}, true
	case errors.As(err, &be) && be.Field == "":
		return &Error{Status: http.StatusBadRequest, Code: "invalid-json", Message: be.Message, Cause: err}, true
	case errors.As(err, &be):
		return &Error{Status: http.StatusBadRequest, Code: "invalid-field", Message: be.Message, Cause: err}, true
	case errors.Is(err, analytics.ErrBusy):
		return errAnalyticsBusy, true
	case errors.Is(err, analytics.ErrClosed):
		return errAnalyticsClosed, true
	}
	return nil, false
}

// lookup returns the public error for err, if err is (or wraps) a domain error of the table,
// of the document store or of the analytics. A rate limit also carries its wait.
func (t domainErrorTable) lookup(err error) (*Error, bool) {
	if e, ok := analyticsError(err); ok {
		return e, true
	}
	var de *status.Error
	if errors.As(err, &de) {
		status, ok := docstoreStatus[de.Code]
		if !ok {
			return nil, false
		}
		return &Error{Status: status, Code: de.Code.Error(), Message: de.Message, RetryAfter: de.RetryAfter, Cause: err}, true
	}
	for _, d := range t {
		if !errors.Is(err, d.err) {
			continue
		}
		e := &Error{Status: d.status, Code: d.code, Message: d.message, Cause: err}
		var limited *account.RateLimitError
		if errors.As(err, &limited) {
			e.RetryAfter = limited.RetryAfter
		}
		if errors.Is(err, account.ErrBusy) {
			e.RetryAfter = time.Second // a hash takes about 30 ms: a slot frees up soon
		}
		return e, true
	}
	return nil, false
}
