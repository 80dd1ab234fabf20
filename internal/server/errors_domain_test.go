package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"handy/internal/account"
	"handy/internal/analytics"
	"handy/internal/site"
)

// Every domain error of the account package has its status, stable code and message (the front
// end maps the codes; the messages are those the API has always given, built from site.json's
// limits): a new domain error without a row here, or without a mapping, fails.
func TestEveryDomainErrorIsMapped(t *testing.T) {
	t.Parallel()
	want := []struct {
		err           error
		status        int
		code, message string
	}{
		{account.ErrInvalidEmail, 400, "invalid-email", "This is not a valid email address."},
		{account.ErrInvalidPassword, 400, "invalid-password", "The password must be 8 to 1024 characters long."},
		{account.ErrEmailTaken, 409, "email-taken", "An account with this email address already exists."},
		{account.ErrWrongSignIn, 401, "wrong-credentials", "The email address or the password is wrong."},
		{account.ErrWrongPassword, 403, "wrong-password", "The password is wrong."},
		{account.ErrUnauthenticated, 401, "unauthenticated", "Sign in first: the token is missing, unknown or expired."},
		{account.ErrRateLimited, 429, "rate-limited", "Too many failed sign-ins. Try again later."},
		{account.ErrInvalidName, 400, "invalid-display-name", "The display name must be at most 100 characters, without control, invisible or text-direction characters."},
		{account.ErrInvalidAvatar, 400, "invalid-avatar", "The avatar must be a JPEG data URL of at most 200 kB."},
		{account.ErrInvalidPreferences, 400, "invalid-preferences", "The preferences must be an object of at most 16 kB."},
		{account.ErrTooManySignups, 429, "rate-limited", "Too many sign-ups from this network. Try again later."},
		{account.ErrBusy, 503, "unavailable", "The server is checking too many passwords at once; try again in a moment."},
	}
	s := &Server{domainErrors: newDomainErrorTable(site.Default().Limits())}
	for _, domain := range account.Errors() {
		i := -1
		for j, w := range want {
			if errors.Is(domain, w.err) {
				i = j
			}
		}
		if i < 0 {
			t.Errorf("%v: no expected status and code in this test", domain)
			continue
		}
		// Wrapped, as a caller may return it.
		e := s.publicError(fmt.Errorf("sign up: %w", domain))
		w := want[i]
		if e.Status != w.status || e.Code != w.code || e.Message != w.message || !errors.Is(e, domain) {
			t.Errorf("%v → %d %q %q, want %d %q %q, the cause kept", domain, e.Status, e.Code, e.Message, w.status, w.code, w.message)
		}
	}
	if e := s.publicError(fmt.Errorf("sign in: %w", account.ErrBusy)); e.RetryAfter != time.Second {
		t.Errorf("busy hashing: Retry-After %v, want 1s", e.RetryAfter)
	}
	if len(want) != len(account.Errors()) {
		t.Errorf("this test expects %d domain errors, account.Errors() has %d", len(want), len(account.Errors()))
	}
}

func TestDomainErrorDetails(t *testing.T) {
	t.Parallel()
	s := &Server{domainErrors: newDomainErrorTable(site.Limits{PasswordMinLength: 10, PasswordMaxLength: 64, DisplayNameMaxLength: 30, AvatarMaxBytes: 50_000, AvatarSize: 128})}
	// A rate limit keeps its wait (errors.As through the wrapping).
	e := s.publicError(fmt.Errorf("sign in: %w", &account.RateLimitError{RetryAfter: 90 * time.Second}))
	if e.Status != http.StatusTooManyRequests || e.Code != "rate-limited" || e.RetryAfter != 90*time.Second {
		t.Errorf("rate limit → %+v", e)
	}
	// Messages quoting a limit take it from the site's limits.
	for _, q := range []struct {
		err   error
		quote string
	}{
		{account.ErrInvalidPassword, "10 to 64 characters"},
		{account.ErrInvalidName, "at most 30 characters"},
		{account.ErrInvalidAvatar, "at most 50 kB"},
	} {
		if msg := s.publicError(q.err).Message; !strings.Contains(msg, q.quote) {
			t.Errorf("%v: message %q does not quote %q", q.err, msg, q.quote)
		}
	}
	// Anything else is a 500 that shows nothing of its cause.
	if e := s.publicError(errors.New("disk on fire")); e.Status != 500 || e.Code != "internal" || strings.Contains(e.Message, "fire") {
		t.Errorf("an unknown error → %+v", e)
	}
}

// The analytics' errors: a refused beacon keeps its message naming the field; a full buffer
// and a closing server are 503s without a cause, so that nothing is logged per request.
func TestAnalyticsErrors(t *testing.T) {
	t.Parallel()
	s := &Server{domainErrors: newDomainErrorTable(site.Default().Limits())}
	tests := []struct {
		err     error
		status  int
		code    string
		message string
	}{
		{&analytics.BeaconError{Field: "p", Message: `The field "p" is wrong.`}, 400, "invalid-field", `The field "p" is wrong.`},
		{&analytics.BeaconError{Message: "Not JSON."}, 400, "invalid-json", "Not JSON."},
		{analytics.ErrBusy, 503, "unavailable", errAnalyticsBusy.Message},
		{analytics.ErrClosed, 503, "unavailable", errAnalyticsClosed.Message},
	}
	for _, tt := range tests {
		e := s.publicError(fmt.Errorf("record: %w", tt.err))
		if e.Status != tt.status || e.Code != tt.code || e.Message != tt.message {
			t.Errorf("%v → %d %q %q, want %d %q %q", tt.err, e.Status, e.Code, e.Message, tt.status, tt.code, tt.message)
		}
		if tt.status == 503 && (e.Cause != nil || e.RetryAfter <= 0) {
			t.Errorf("%v: cause %v, Retry-After %v; want none and a wait", tt.err, e.Cause, e.RetryAfter)
		}
	}
}
