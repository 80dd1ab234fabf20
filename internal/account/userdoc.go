package account

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"
)

// The user's document users/{uid} stores its content (display name, avatar, preferred locale,
// preferences). Its version and updatedAt move only when that content changes: a sign-in that
// changes nothing writes nothing. The account's own fields (email, createdAt, lastSignInAt) are
// not content: they come from the users row and are added to every answer, so a sign-in does
// not make the document look edited.

// userDocPath is the path of a user's own document.
func userDocPath(uid string) string { return "users/" + uid }

// maxEditAttempts bounds the read-modify-write loop of editUserDoc. An attempt fails only when
// another writer committed in between, so the bound is reached only under a storm of writers.
const maxEditAttempts = 64

// querier is a store or a transaction: the user document is written within a sign-up or a
// sign-in, and on its own by a profile update.
type querier interface {
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// createUserDoc writes a new account's document, every promised field present.
func createUserDoc(ctx context.Context, q querier, uid string, now time.Time, displayName, locale string) error {
	doc := map[string]any{"displayName": displayName, "avatar": nil, "locale": locale, "preferences": map[string]any{}}
	data, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("account: encode %s: %w", userDocPath(uid), err)
	}
	if _, err := q.Exec(ctx, "INSERT INTO documents (path, owner, data, version, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)",
		userDocPath(uid), uid, string(data), ms(now), ms(now)); err != nil {
		return fmt.Errorf("account: create %s: %w", userDocPath(uid), err)
	}
	return nil
}

// editUserDoc applies edit to the content of the user's document and stores the result, unless
// it changed nothing. The write is a compare-and-set on the version read: when another writer
// got in between, the document is read again and edit applied to the new content, so that no
// writer's change is lost (two profile edits at once on PostgreSQL, whose transactions do not
// serialise them as SQLite's do). edit may run more than once.
func editUserDoc(ctx context.Context, q querier, uid string, now time.Time, edit func(doc map[string]any)) error {
	path := userDocPath(uid)
	for range maxEditAttempts {
		var raw string
		var version int64
		if err := q.QueryRow(ctx, "SELECT data, version FROM documents WHERE path = ?", path).Scan(&raw, &version); err != nil {
			return fmt.Errorf("account: read %s: %w", path, err)
		}
		old, err := decodeContent(raw)
		if err != nil {
			return fmt.Errorf("account: read %s: %w", path, err)
		}
		doc := maps.Clone(old)
		edit(doc)
		before, err := json.Marshal(old)
		if err != nil {
			return fmt.Errorf("account: encode %s: %w", path, err)
		}
		after, err := json.Marshal(doc)
		if err != nil {
			return fmt.Errorf("account: encode %s: %w", path, err)
		}
		// Maps marshal with sorted keys, so equal content gives equal bytes.
		if string(before) == string(after) {
			return nil
		}
		res, err := q.Exec(ctx, "UPDATE documents SET data = ?, version = version + 1, updated_at = ? WHERE path = ? AND version = ?",
			string(after), ms(now), path, version)
		if err != nil {
			return fmt.Errorf("account: write %s: %w", path, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("account: write %s: %w", path, err)
		}
		if n == 1 {
			return nil
		}
	}
	return fmt.Errorf("account: write %s: still changing after %d attempts", path, maxEditAttempts)
}

// decodeContent reads a stored user document, leaving out the account's fields that documents
// written before they were kept apart still hold.
func decodeContent(raw string) (map[string]any, error) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if doc == nil {
		return nil, errors.New("not a JSON object: null")
	}
	delete(doc, "email")
	delete(doc, "createdAt")
	delete(doc, "lastSignInAt")
	return doc, nil
}

// UserDoc returns the user's document users/{uid} as clients see it: its content with the
// account's email and times.
func (s *Service) UserDoc(ctx context.Context, u User) (json.RawMessage, error) {
	return userDoc(ctx, s.store, u.ID)
}

func userDoc(ctx context.Context, q querier, uid string) (json.RawMessage, error) {
	path := userDocPath(uid)
	var raw, email string
	var created, lastSignIn int64
	err := q.QueryRow(ctx, `SELECT d.data, u.email, u.created_at, u.last_sign_in_at
		FROM documents d JOIN users u ON u.id = d.owner WHERE d.path = ?`, path).Scan(&raw, &email, &created, &lastSignIn)
	if err != nil {
		return nil, fmt.Errorf("account: read %s: %w", path, err)
	}
	return withAccountFields(raw, email, time.UnixMilli(created), time.UnixMilli(lastSignIn))
}

// withAccountFields adds the account's fields to a stored user document.
func withAccountFields(raw, email string, created, lastSignIn time.Time) (json.RawMessage, error) {
	doc, err := decodeContent(raw)
	if err != nil {
		return nil, fmt.Errorf("account: read user document: %w", err)
	}
	doc["email"] = email
	doc["createdAt"] = created.UTC().Format(time.RFC3339Nano)
	doc["lastSignInAt"] = lastSignIn.UTC().Format(time.RFC3339Nano)
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("account: encode user document: %w", err)
	}
	return out, nil
}
