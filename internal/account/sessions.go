package account

import (
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

	"handy/internal/store"
)

// TokenLifetime is how long a sign-in token lives without use; each use extends it.
const TokenLifetime = 30 * 24 * time.Hour

// tokenRefresh is how stale an expiry may get before a use writes a new one: refreshing at
// most hourly keeps reads from writing on every request.
const tokenRefresh = time.Hour

// SessionLifetime is how long a session lives at most, however often it is used: a token that
// leaked keeps working no longer than this, even in steady use.
const SessionLifetime = 365 * 24 * time.Hour

// MaxSessions is how many sessions an account keeps; signing in once more ends the oldest.
const MaxSessions = 20

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

// SignoutEverywhere ends every session of the account, this one included.
func (s *Service) SignoutEverywhere(ctx context.Context, u User) error {
	if _, err := s.store.Exec(ctx, "DELETE FROM sessions WHERE user_id = ?", u.ID); err != nil {
		return fmt.Errorf("account: sign out everywhere: %w", err)
	}
	s.logger.Info("signed out everywhere", slog.String("user", u.ID))
	return nil
}

// endOldestSessions keeps the account's newest MaxSessions sessions (the one just made among
// them) and ends the rest.
func endOldestSessions(ctx context.Context, tx *store.Tx, userID string) error {
	_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE user_id = ? AND token_hash NOT IN
		(SELECT token_hash FROM sessions WHERE user_id = ? ORDER BY created_at DESC, token_hash LIMIT ?)`, userID, userID, MaxSessions)
	if err != nil {
		return fmt.Errorf("account: end the oldest sessions: %w", err)
	}
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
