package docstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"handy/internal/docstore/status"
	"handy/internal/store"
)

// DefaultStorageQuota is the bytes (storedSize) one owner's documents may take, 64 MiB: a full
// account (10,000 calculator entries of about 1.2 KB with their index rows, and a profile with
// a 200 kB avatar: about 12 MB) fits five times over, and 10,000 entries of up to 6.6 KB each
// fit; docs/operations.md has the figures.
const DefaultStorageQuota = 64 << 20

// WithStorageQuota sets the bytes each owner's documents may take (storedSize); a commit that
// would take an owner past it is refused as resource-exhausted. Zero or less: no quota (the
// usage is kept all the same).
func WithStorageQuota(bytes int64) Option { return func(s *Store) { s.quota = bytes } }

// usageBook is what a group knows of its owners' stored bytes (doc_usage): read when the group
// begins, changed as each batch is applied and as pruning frees space, and written when the
// group ends.
type usageBook struct {
	bytes   map[string]int64 // by owner; absent: 0
	changed map[string]int64 // the group's net change, by owner
	order   []string
}

func newUsageBook() usageBook {
	return usageBook{bytes: map[string]int64{}, changed: map[string]int64{}}
}

func (u *usageBook) read(ctx context.Context, tx *store.Tx, owners []string) error {
	err := selectIn(ctx, tx, "SELECT owner, bytes FROM doc_usage WHERE owner IN ", owners, nil,
		func(rows *sql.Rows) error {
			var owner string
			var n int64
			if err := rows.Scan(&owner, &n); err != nil {
				return err
			}
			u.bytes[owner] = n
			return nil
		})
	if err != nil {
		return fmt.Errorf("read the storage used: %w", err)
	}
	return nil
}

// add counts a change of d bytes of owner's.
func (u *usageBook) add(owner string, d int64) {
	if d == 0 {
		return
	}
	if _, ok := u.changed[owner]; !ok {
		u.order = append(u.order, owner)
	}
	u.changed[owner] += d
	u.bytes[owner] += d
}

// checkQuota refuses a batch that would take owner's stored bytes up by delta past quota. A
// batch that frees space (or takes none) always passes, so that an owner over the quota (it
// was lowered) can delete.
func (s *Store) checkQuota(u *usageBook, owner string, delta int64) error {
	if s.quota <= 0 || delta <= 0 || u.bytes[owner]+delta <= s.quota {
		return nil
	}
	return &status.Error{Code: status.ErrResourceExhausted, Message: fmt.Sprintf(
		"storage quota exceeded: your documents take %s of %s and this commit needs %s more; delete some (older history entries, for example) and send it again",
		formatBytes(u.bytes[owner]), formatBytes(s.quota), formatBytes(delta))}
}

// write adds the group's changes to doc_usage.
func (u *usageBook) write(ctx context.Context, tx *store.Tx) error {
	const chunk = 200
	owners := u.order
	for len(owners) > 0 {
		part := owners[:min(len(owners), chunk)]
		owners = owners[len(part):]
		q := "INSERT INTO doc_usage (owner, bytes) VALUES " + strings.Repeat("(?, ?), ", len(part)-1) +
			"(?, ?) ON CONFLICT (owner) DO UPDATE SET bytes = doc_usage.bytes + excluded.bytes"
		args := make([]any, 0, 2*len(part))
		for _, o := range part {
			args = append(args, o, u.changed[o])
		}
		if _, err := tx.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("count the storage used: %w", err)
		}
	}
	return nil
}

// Usage is an owner's stored bytes and the quota (0: none).
type Usage struct {
	Used  int64 `json:"used"`
	Quota int64 `json:"quota"`
}

// Usage returns uid's stored bytes and the quota, for the account's data panel.
func (s *Store) Usage(ctx context.Context, uid string) (Usage, error) {
	var used int64
	err := s.st.QueryRow(ctx, "SELECT bytes FROM doc_usage WHERE owner = ?", uid).Scan(&used)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Usage{}, fmt.Errorf("docstore: usage of %s: %w", uid, err)
	}
	return Usage{Used: used, Quota: max(0, s.quota)}, nil
}

// formatBytes writes n as MB with one decimal (or kB, or bytes), for messages.
func formatBytes(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}
