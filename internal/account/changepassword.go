package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"handy/internal/store"
)

// ChangePassword sets a new password after checking the current one again (a check that counts
// as a sign-in attempt from address, under the same limits), and ends every session but the
// one of keepToken: whoever else held a token must sign in again with the new password.
func (s *Service) ChangePassword(ctx context.Context, u User, current, next, keepToken, address string) error {
	if !s.validPassword(next) {
		return ErrInvalidPassword
	}
	now := s.now()
	att, err := s.begin(ctx, u.Email, u.ID, address, now)
	var limited *RateLimitError
	if errors.As(err, &limited) {
		s.refusals.log(s.logger, now, "password change refused", u.ID+" "+network(address), slog.String("reason", "rate-limited"), slog.String("user", u.ID), slog.String("address", address), slog.Duration("retry_after", limited.RetryAfter))
	}
	if err != nil {
		return err
	}
	var hash string
	if err := s.store.QueryRow(ctx, "SELECT password_hash FROM users WHERE id = ?", u.ID).Scan(&hash); err != nil {
		return errors.Join(ErrUnauthenticated, att.refund(ctx))
	}
	match, err := s.verify(ctx, hash, current)
	if unchecked(err) {
		return errors.Join(err, att.refund(context.WithoutCancel(ctx)))
	}
	if err != nil {
		return fmt.Errorf("account: stored hash of %s: %w", u.ID, err)
	}
	if !match {
		s.logger.Warn("password change refused", slog.String("reason", "wrong-password"), slog.String("user", u.ID), slog.String("address", address))
		if err := s.recordFailure(ctx, u.Email, address, now); err != nil {
			return err
		}
		return ErrWrongPassword
	}
	if err := att.refund(ctx); err != nil {
		return err
	}
	newHash, err := s.hash(ctx, next)
	if err != nil {
		return err
	}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.Exec(ctx, "UPDATE users SET password_hash = ? WHERE id = ?", newHash, u.ID); err != nil {
			return fmt.Errorf("account: set password: %w", err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?", u.ID, hashToken(keepToken)); err != nil {
			return fmt.Errorf("account: end the other sessions: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.logger.Info("password changed", slog.String("user", u.ID))
	return nil
}
