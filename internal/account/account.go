// Package account is optional accounts: sign-up and sign-in with an email address and a
// password (argon2id), sign-in tokens of 256 random bits kept only as SHA-256 hashes with a
// sliding 30-day expiry, the user's document users/{uid}, export and deletion. Sign-in costs the
// same for an unknown address as for a wrong password, never says which of the two failed, and
// is rate limited per client address and per account from the recorded failures, so that the
// limit holds across server instances.
package account

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"handy/internal/docstore"
	"handy/internal/site"
	"handy/internal/store"
)

// TokenLifetime is how long a sign-in token lives without use; each use extends it.
const TokenLifetime = 30 * 24 * time.Hour

// tokenRefresh is how stale an expiry may get before a use writes a new one: refreshing at
// most hourly keeps reads from writing on every request.
const tokenRefresh = time.Hour

// failureRetention is how long failed sign-ins are kept (as the privacy policy says).
const failureRetention = 30 * 24 * time.Hour

// Limits bound password guesses and sign-ups (throttle.go): so many at once, then the rest of
// the window's worth spread evenly over it. An address counts by its network (an IPv4 address,
// an IPv6 /64). A sign-in that succeeds gives back what it took.
type Limits struct {
	Window     time.Duration
	PerAddress int // password checks from one network (sign-ins, deletions, password changes)
	PerAccount int // password checks of one account from networks it has not signed in from
	// Sign-ups, per network and in all.
	SignupWindow      time.Duration
	SignupsPerAddress int
	Signups           int
}

// DefaultLimits allow a person a few typos and stop guessing; a household or an office may
// open a few accounts an hour, and a flood of sign-ups from everywhere stops at 1,000 an hour
// (the sign-up limits are -signup-limit's default and 100 times it).
var DefaultLimits = Limits{Window: 15 * time.Minute, PerAddress: 30, PerAccount: 5,
	SignupWindow: time.Hour, SignupsPerAddress: 10, Signups: 1000}

// User is an account.
type User struct {
	ID           string    `json:"id"`
	Email        string    `json:"email"`
	CreatedAt    time.Time `json:"createdAt"`
	LastSignInAt time.Time `json:"lastSignInAt"`
}

// Service manages accounts in a store.
type Service struct {
	store  *store.Store
	docs   *docstore.Store // users/{uid} and below
	logger *slog.Logger
	bounds site.Limits // what a password, a display name and an avatar may be
	params Params
	limits Limits
	// hashing caps the argon2id work running at once (hashcap.go).
	hashing *hashCap
	now     func() time.Time
	// dummy is a hash no password matches: an unknown address is checked against it, so that
	// it costs what a wrong password costs.
	dummy string
	// refusals logs refused attempts without letting a guesser flood the log.
	refusals refusalLog
}

// Option changes a Service's defaults (tests use cheaper hashing and a fake clock).
type Option func(*Service)

// WithParams sets the argon2id costs.
func WithParams(p Params) Option { return func(s *Service) { s.params = p } }

// WithLimits sets the limits; a field left zero keeps its default.
func WithLimits(l Limits) Option {
	return func(s *Service) {
		d := DefaultLimits
		s.limits = Limits{
			Window: cmp.Or(l.Window, d.Window), PerAddress: cmp.Or(l.PerAddress, d.PerAddress), PerAccount: cmp.Or(l.PerAccount, d.PerAccount),
			SignupWindow: cmp.Or(l.SignupWindow, d.SignupWindow), SignupsPerAddress: cmp.Or(l.SignupsPerAddress, d.SignupsPerAddress), Signups: cmp.Or(l.Signups, d.Signups),
		}
	}
}

// WithHashing sets the cap on password hashing.
func WithHashing(h Hashing) Option { return func(s *Service) { s.hashing = newHashCap(h) } }

// WithClock sets the clock.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns a Service over a migrated store, whose users' documents are in docs, that holds
// accounts to the site's limits (site.json, which the front end checks too).
func New(st *store.Store, docs *docstore.Store, logger *slog.Logger, bounds site.Limits, opts ...Option) (*Service, error) {
	s := &Service{store: st, docs: docs, logger: logger, bounds: bounds, params: DefaultParams, limits: DefaultLimits,
		hashing: newHashCap(DefaultHashing()), now: nowMillis}
	for _, o := range opts {
		o(s)
	}
	dummy, err := dummyHash(s.params)
	if err != nil {
		return nil, err
	}
	s.dummy = dummy
	return s, nil
}

// Credentials are what sign-up and sign-in take.
type Credentials struct {
	Email    string
	Password string
	// Locale is the visitor's language code when they signed up or in (stored as preferred).
	Locale string
	// DisplayName is optional, at sign-up.
	DisplayName string
	// Address is the client's address, at sign-up: the limits count sign-ups by its network,
	// and the account knows the network from then on.
	Address string
}

// Signup creates an account and signs it in, returning its token.
func (s *Service) Signup(ctx context.Context, c Credentials) (string, User, error) {
	email, ok := NormalizeEmail(c.Email)
	if !ok {
		return "", User{}, ErrInvalidEmail
	}
	if !s.validPassword(c.Password) {
		return "", User{}, ErrInvalidPassword
	}
	displayName, err := s.displayName(c.DisplayName)
	if err != nil {
		return "", User{}, err
	}
	now := s.now()
	for _, l := range []struct {
		key  string
		rate rate
	}{{"signup:" + network(c.Address), rate{s.limits.SignupsPerAddress, s.limits.SignupWindow}}, {"signup", rate{s.limits.Signups, s.limits.SignupWindow}}} {
		if wait, err := s.take(ctx, l.key, l.rate, now); err != nil {
			return "", User{}, err
		} else if wait > 0 {
			s.refusals.log(s.logger, now, "sign-up refused", l.key, slog.String("reason", "rate-limited"), slog.String("limit", l.key), slog.Duration("retry_after", wait))
			return "", User{}, &RateLimitError{RetryAfter: wait, Err: ErrTooManySignups}
		}
	}
	hash, err := s.hash(ctx, c.Password)
	if err != nil {
		return "", User{}, err
	}
	u := User{ID: randomHex(16), Email: email, CreatedAt: now, LastSignInAt: now}
	var token string
	wake := func() {}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		var exists int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM users WHERE email = ?", email).Scan(&exists); err != nil {
			return fmt.Errorf("account: look up email: %w", err)
		}
		if exists > 0 {
			return ErrEmailTaken
		}
		if _, err := tx.Exec(ctx, "INSERT INTO users (id, email, password_hash, created_at, last_sign_in_at) VALUES (?, ?, ?, ?, ?)",
			u.ID, email, hash, ms(now), ms(now)); err != nil {
			return fmt.Errorf("account: create user: %w", err)
		}
		if token, err = s.newSession(ctx, tx, u.ID, now); err != nil {
			return err
		}
		if err := rememberNetwork(ctx, tx, u.ID, c.Address, now); err != nil {
			return err
		}
		req, err := newUserDoc(u.ID, displayName, c.Locale)
		if err != nil {
			return err
		}
		_, wake, err = s.docs.CommitInTx(ctx, tx, u.ID, req)
		return err
	})
	if err != nil {
		// Two sign-ups with one address at once: the loser hits the unique index.
		var taken int
		if !errors.Is(err, ErrEmailTaken) && s.store.QueryRow(ctx, "SELECT COUNT(*) FROM users WHERE email = ?", email).Scan(&taken) == nil && taken > 0 {
			return "", User{}, ErrEmailTaken
		}
		return "", User{}, err
	}
	wake()
	return token, u, nil
}

// Signin checks credentials from a client address and returns a new token.
func (s *Service) Signin(ctx context.Context, c Credentials, address string) (string, User, error) {
	// An address that cannot be an account's is refused before anything is recorded or
	// logged: the failure log and the limits hold only addresses that could sign in.
	email, ok := NormalizeEmail(c.Email)
	if !ok {
		return "", User{}, ErrInvalidEmail
	}
	now := s.now()
	var u User
	var hash string
	var created, last int64
	err := s.store.QueryRow(ctx, "SELECT id, password_hash, created_at, last_sign_in_at FROM users WHERE email = ?", email).Scan(&u.ID, &hash, &created, &last)
	known := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", User{}, fmt.Errorf("account: look up user: %w", err)
	}
	if !known {
		hash = s.dummy // the same work as for a known address
	}
	att, err := s.begin(ctx, email, u.ID, address, now)
	var limited *RateLimitError
	if errors.As(err, &limited) {
		s.refusals.log(s.logger, now, "sign-in refused", email+" "+network(address), slog.String("reason", "rate-limited"), slog.String("email", email), slog.String("address", address), slog.Duration("retry_after", limited.RetryAfter))
	}
	if err != nil {
		return "", User{}, err
	}
	match, err := s.verify(ctx, hash, c.Password)
	if unchecked(err) {
		return "", User{}, errors.Join(err, att.refund(context.WithoutCancel(ctx))) // never checked
	}
	if err != nil {
		return "", User{}, fmt.Errorf("account: stored hash of %s: %w", u.ID, err)
	}
	if !known || !match || !s.validPassword(c.Password) {
		reason := "wrong-password"
		if !known {
			reason = "unknown-email"
		}
		s.logger.Warn("sign-in failed", slog.String("reason", reason), slog.String("email", email), slog.String("address", address))
		if err := s.recordFailure(ctx, email, address, now); err != nil {
			return "", User{}, err
		}
		return "", User{}, ErrWrongSignIn
	}
	u.Email, u.CreatedAt, u.LastSignInAt = email, time.UnixMilli(created), now
	if err := att.refund(ctx); err != nil {
		return "", User{}, err
	}
	var token string
	wake := func() {}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE users SET last_sign_in_at = ? WHERE id = ?", ms(now), u.ID); err != nil {
			return fmt.Errorf("account: record sign-in: %w", err)
		}
		if err := rememberNetwork(ctx, tx, u.ID, address, now); err != nil {
			return err
		}
		if token, err = s.newSession(ctx, tx, u.ID, now); err != nil {
			return err
		}
		if c.Locale == "" {
			return nil
		}
		// The language signed in with becomes the preferred one: a change to the document only
		// when it differs.
		req, err := mergeUserDoc(u.ID, map[string]any{"locale": c.Locale})
		if err != nil {
			return err
		}
		_, wake, err = s.docs.CommitInTx(ctx, tx, u.ID, req)
		return err
	})
	if err != nil {
		return "", User{}, err
	}
	wake()
	return token, u, nil
}

func (s *Service) recordFailure(ctx context.Context, email, address string, now time.Time) error {
	return s.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "INSERT INTO signin_failures (email, address, at) VALUES (?, ?, ?)", email, address, ms(now)); err != nil {
			return fmt.Errorf("account: record failed sign-in: %w", err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM signin_failures WHERE at < ?", ms(now.Add(-failureRetention))); err != nil {
			return fmt.Errorf("account: forget old failed sign-ins: %w", err)
		}
		return nil
	})
}

// Authenticate returns the user a token belongs to, extending its expiry.
func (s *Service) Authenticate(ctx context.Context, token string) (User, error) {
	if token == "" {
		return User{}, ErrUnauthenticated
	}
	now := s.now()
	var u User
	var created, last, expires, began int64
	err := s.store.QueryRow(ctx, `SELECT u.id, u.email, u.created_at, u.last_sign_in_at, s.expires_at, s.created_at
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`, hashToken(token)).Scan(&u.ID, &u.Email, &created, &last, &expires, &began)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrUnauthenticated
	}
	if err != nil {
		return User{}, fmt.Errorf("account: look up token: %w", err)
	}
	// Sliding: 30 days without use. Absolute: a year after the sign-in, however used.
	expires = min(expires, began+SessionLifetime.Milliseconds())
	if expires <= ms(now) {
		if _, err := s.store.Exec(ctx, "DELETE FROM sessions WHERE token_hash = ?", hashToken(token)); err != nil {
			return User{}, fmt.Errorf("account: drop expired token: %w", err)
		}
		return User{}, ErrUnauthenticated
	}
	if next := min(ms(now.Add(TokenLifetime)), began+SessionLifetime.Milliseconds()); next-expires >= tokenRefresh.Milliseconds() {
		if _, err := s.store.Exec(ctx, "UPDATE sessions SET expires_at = ? WHERE token_hash = ?", next, hashToken(token)); err != nil {
			return User{}, fmt.Errorf("account: extend token: %w", err)
		}
	}
	u.CreatedAt, u.LastSignInAt = time.UnixMilli(created), time.UnixMilli(last)
	return u, nil
}

// Signout ends the token's session (an unknown token is already signed out).
func (s *Service) Signout(ctx context.Context, token string) error {
	if _, err := s.store.Exec(ctx, "DELETE FROM sessions WHERE token_hash = ?", hashToken(token)); err != nil {
		return fmt.Errorf("account: sign out: %w", err)
	}
	return nil
}

// Delete erases the account and everything of it, after checking its password again. A wrong
// password counts as a failed sign-in of the account from address, and the sign-in limits hold
// here too: a stolen token must not become a way to guess the password.
func (s *Service) Delete(ctx context.Context, u User, password, address string) error {
	now := s.now()
	att, err := s.begin(ctx, u.Email, u.ID, address, now)
	var limited *RateLimitError
	if errors.As(err, &limited) {
		s.refusals.log(s.logger, now, "deletion refused", u.ID+" "+network(address), slog.String("reason", "rate-limited"), slog.String("user", u.ID), slog.String("address", address), slog.Duration("retry_after", limited.RetryAfter))
	}
	if err != nil {
		return err
	}
	var hash string
	if err := s.store.QueryRow(ctx, "SELECT password_hash FROM users WHERE id = ?", u.ID).Scan(&hash); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return ErrUnauthenticated
		}
		return fmt.Errorf("account: look up user: %w", err)
	}
	match, err := s.verify(ctx, hash, password)
	if unchecked(err) {
		return errors.Join(err, att.refund(context.WithoutCancel(ctx))) // never checked
	}
	if err != nil {
		return fmt.Errorf("account: stored hash of %s: %w", u.ID, err)
	}
	if !match {
		s.logger.Warn("deletion refused", slog.String("reason", "wrong-password"), slog.String("user", u.ID), slog.String("address", address))
		if err := s.recordFailure(ctx, u.Email, address, now); err != nil {
			return err
		}
		return ErrWrongPassword
	}
	if err := att.refund(ctx); err != nil {
		return err
	}
	// The documents, then the user with its sessions (ON DELETE CASCADE), in one transaction:
	// no session outlives the documents to write them again.
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if err := docstore.DeleteOwner(ctx, tx, u.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM users WHERE id = ?", u.ID); err != nil {
			return fmt.Errorf("account: delete user: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.logger.Info("account deleted", slog.String("user", u.ID))
	return nil
}

func (s *Service) newSession(ctx context.Context, tx *store.Tx, userID string, now time.Time) (string, error) {
	raw := make([]byte, 32) // 256 bits
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("account: token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	if _, err := tx.Exec(ctx, "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
		hashToken(token), userID, ms(now), ms(now.Add(TokenLifetime))); err != nil {
		return "", fmt.Errorf("account: create session: %w", err)
	}
	return token, endOldestSessions(ctx, tx, userID)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics rather than return an error since Go 1.24)
	return hex.EncodeToString(b)
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// nowMillis is the service's clock: times are stored in milliseconds, so they are answered in
// milliseconds too, the same whether they come from a sign-in or from a later read.
func nowMillis() time.Time { return time.Now().Truncate(time.Millisecond) }
