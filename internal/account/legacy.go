package account

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"handy/internal/docstore"
	"handy/internal/docstore/value"
	"handy/internal/store"
)

// Before the document store, each account's users/{uid} was a row of plain JSON in the
// documents table (migration 0001). MoveLegacyDocuments moves every such row into the
// document store, one account at a time, each in one transaction that writes the document and
// deletes the row: an interrupted move resumes where it stopped, and two instances starting
// at once write the same content twice at worst. Converting plain JSON to the store's values
// takes Go (value.FieldsFromPlain), hence this step at start-up rather than a migration;
// the emptied table can go in a later migration.
func (s *Service) MoveLegacyDocuments(ctx context.Context) (moved int, err error) {
	for {
		var path, owner, data string
		err := s.store.QueryRow(ctx, "SELECT path, owner, data FROM documents ORDER BY path LIMIT 1").Scan(&path, &owner, &data)
		if errors.Is(err, sql.ErrNoRows) {
			if moved > 0 {
				s.logger.Info("moved user documents into the document store", slog.Int("documents", moved))
			}
			return moved, nil
		}
		if err != nil {
			return moved, fmt.Errorf("account: read the legacy documents: %w", err)
		}
		if err := s.moveLegacy(ctx, path, owner, data); err != nil {
			return moved, err
		}
		moved++
	}
}

func (s *Service) moveLegacy(ctx context.Context, path, owner, data string) error {
	var content map[string]any
	if err := json.Unmarshal([]byte(data), &content); err != nil || content == nil {
		return fmt.Errorf("account: legacy document %s is not a JSON object: %v", path, err)
	}
	// Documents written before the account's fields were kept apart still hold them.
	delete(content, "email")
	delete(content, "createdAt")
	delete(content, "lastSignInAt")
	fields, err := value.FieldsFromPlain(content)
	if err != nil {
		return fmt.Errorf("account: legacy document %s: %w", path, err)
	}
	p, err := value.ParseDocumentPath(path)
	if err != nil {
		return fmt.Errorf("account: legacy document %s: %w", path, err)
	}
	if p.Len() == 2 {
		// A row from before the schema may hold a field it refuses: that field stays behind
		// (logged) rather than the start-up fail on it; the rest of the profile moves.
		for _, name := range sortedKeys(fields) {
			if fe := s.schema.checkUserField(name, fields[name]); fe != nil {
				s.logger.Warn("legacy document field left out", slog.String("path", path), slog.String("reason", fe.Error()))
				delete(fields, name)
			}
		}
	}
	wake := func() {}
	err = s.store.InTx(ctx, func(tx *store.Tx) error {
		req := docstore.CommitRequest{Writes: []docstore.Write{{Path: p, Fields: fields}}}
		var err error
		if _, wake, err = s.docs.CommitInTx(ctx, tx, owner, req); err != nil {
			return fmt.Errorf("account: move legacy document %s: %w", path, err)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM documents WHERE path = ?", path); err != nil {
			return fmt.Errorf("account: move legacy document %s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	wake()
	return nil
}
