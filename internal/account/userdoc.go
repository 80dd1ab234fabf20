package account

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"handy/internal/docstore"
	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

// The user's document users/{uid} lives in the document store: its content is the display
// name, avatar, preferred locale and preferences, which the account's endpoints write with
// merges and the client may write itself through the document API. A merge that changes
// nothing leaves the document as it was, updateTime and version included, so a sign-in in the
// same language does not make it look edited. The account's own fields (email, createdAt,
// lastSignInAt) are not content: they come from the users row and are added to every answer.

// userDocPath is the path of a user's own document.
func userDocPath(uid string) value.Path {
	p, err := value.ParseDocumentPath("users/" + uid)
	if err != nil {
		panic(fmt.Sprintf("account: user id %q makes no document path: %v", uid, err)) // ids are hex
	}
	return p
}

// newUserDoc is the commit that creates a new account's document, every promised field
// present.
func newUserDoc(uid, displayName, locale string) (docstore.CommitRequest, error) {
	fields, err := value.FieldsFromPlain(map[string]any{"displayName": displayName, "avatar": nil, "locale": locale, "preferences": map[string]any{}})
	if err != nil {
		return docstore.CommitRequest{}, fmt.Errorf("account: encode users/%s: %w", uid, err)
	}
	return docstore.CommitRequest{Writes: []docstore.Write{{Path: userDocPath(uid), Fields: fields}}}, nil
}

// mergeUserDoc is the commit that sets the given top-level fields of the user's document.
func mergeUserDoc(uid string, set map[string]any) (docstore.CommitRequest, error) {
	fields, err := value.FieldsFromPlain(set)
	if err != nil {
		return docstore.CommitRequest{}, fmt.Errorf("account: encode users/%s: %w", uid, err)
	}
	mask := make([]value.FieldPath, 0, len(set))
	for k := range set {
		mask = append(mask, value.FieldPath{k})
	}
	slices.SortFunc(mask, value.FieldPath.Compare)
	return docstore.CommitRequest{Writes: []docstore.Write{{Path: userDocPath(uid), Fields: fields, Merge: true, Mask: mask}}}, nil
}

// UserDoc returns the user's document users/{uid} as clients see it: its content as plain
// JSON with the account's email and times.
func (s *Service) UserDoc(ctx context.Context, u User) (json.RawMessage, error) {
	content := map[string]any{}
	d, err := s.docs.Get(ctx, u.ID, userDocPath(u.ID))
	switch {
	case err == nil:
		content = value.PlainJSON(d.Fields).(map[string]any)
	case !errors.Is(err, status.ErrNotFound): // deleted by its owner: shown empty
		return nil, fmt.Errorf("account: read users/%s: %w", u.ID, err)
	}
	promise(content)
	// Read afresh: u may predate the last sign-in.
	var email string
	var created, lastSignIn int64
	if err := s.store.QueryRow(ctx, "SELECT email, created_at, last_sign_in_at FROM users WHERE id = ?", u.ID).Scan(&email, &created, &lastSignIn); err != nil {
		return nil, fmt.Errorf("account: read user %s: %w", u.ID, err)
	}
	content["email"] = email
	content["createdAt"] = time.UnixMilli(created).UTC().Format(time.RFC3339Nano)
	content["lastSignInAt"] = time.UnixMilli(lastSignIn).UTC().Format(time.RFC3339Nano)
	out, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("account: encode users/%s: %w", u.ID, err)
	}
	return out, nil
}

// profileFields are the fields every profile answer promises, with their default and their
// type: the client may write users/{uid} through the document API, and the profile must still
// read.
var profileFields = []struct {
	key   string
	zero  func() any
	valid func(any) bool
}{
	{"displayName", func() any { return "" }, isString},
	{"locale", func() any { return "" }, isString},
	{"avatar", func() any { return nil }, func(v any) bool { return v == nil || isString(v) }},
	{"preferences", func() any { return map[string]any{} }, func(v any) bool { _, ok := v.(map[string]any); return ok }},
}

// promise puts each promised field's default where it is missing or of another type.
func promise(content map[string]any) {
	for _, f := range profileFields {
		if v, ok := content[f.key]; !ok || !f.valid(v) {
			content[f.key] = f.zero()
		}
	}
}

func isString(v any) bool { _, ok := v.(string); return ok }
