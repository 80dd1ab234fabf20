package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"

	"handy/internal/docstore"
	"handy/internal/store"
)

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
