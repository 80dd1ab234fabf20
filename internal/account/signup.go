package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"handy/internal/store"
)

// Signup creates an account and signs it in, returning its token.
func (s *Service) Signup(ctx context.Context, c Credentials) (string, User, error) {
	token, u, err := s.signup(ctx, c)
	s.metrics.refused("signup", err)
	return token, u, err
}

// signup is Signup without its metrics.
func (s *Service) signup(ctx context.Context, c Credentials) (string, User, error) {
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
