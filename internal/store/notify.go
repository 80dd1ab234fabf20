package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Listen (PostgreSQL only) takes a connection of its own, LISTENs on channel, calls listening
// once it does, then fn with each notification's payload, until ctx ends or the connection
// fails; it returns that error. The connection is closed afterwards, never put back in the pool
// still listening. channel must be a plain identifier.
func (s *Store) Listen(ctx context.Context, channel string, listening func(), fn func(payload string)) error {
	if s.engine != Postgres {
		return errors.New("store: LISTEN needs PostgreSQL")
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: listen on %s: %w", channel, err)
	}
	defer conn.Close()
	var failed error
	conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		failed = listen(ctx, pc, channel, listening, fn)
		return driver.ErrBadConn // discards the connection
	})
	return failed
}

func listen(ctx context.Context, pc *pgx.Conn, channel string, listening func(), fn func(string)) error {
	if _, err := pc.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return fmt.Errorf("store: listen on %s: %w", channel, err)
	}
	listening()
	for {
		n, err := pc.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("store: wait for a notification on %s: %w", channel, err)
		}
		fn(n.Payload)
	}
}
