package account

import (
	"context"
	"fmt"

	"handy/internal/docstore"
)

// Storage returns the bytes the user's documents take and the storage quota (0: none), which
// the account's data panel shows: GET /auth/me has them.
func (s *Service) Storage(ctx context.Context, u User) (docstore.Usage, error) {
	usage, err := s.docs.Usage(ctx, u.ID)
	if err != nil {
		return docstore.Usage{}, fmt.Errorf("account: storage: %w", err)
	}
	return usage, nil
}
