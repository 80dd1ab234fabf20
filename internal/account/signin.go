package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/store"
)

// failureRetention is how long failed sign-ins are kept (as the privacy policy says).
const failureRetention = 30 * 24 * time.Hour

// Signin checks credentials from a client address and returns a new token.
func (s *Service) Signin(ctx context.Context, c Credentials, address string) (string, User, error) {
	token, u, err := s.signin(ctx, c, address)
	s.metrics.refused("signin", err)
	return token, u, err
}

// signin is Signin without its metrics.
func (s *Service) signin(ctx context.Context, c Credentials, address string) (string, User, error) {
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
		if errors.Is(err, status.ErrInvalidArgument) {
			// The stored document breaks the schema (written before it was enforced): the
			// locale stays as it was rather than the owner be locked out; their next profile
			// edit must mend the document. The refusal wrote nothing, so the sign-in commits.
			s.logger.Warn("sign-in left the user's document as it was", slog.String("user", u.ID), slog.String("reason", err.Error()))
			wake = func() {}
			return nil
		}
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
