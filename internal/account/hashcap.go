package account

import (
	"context"
	"errors"
	"runtime"
	"time"
)

// Hashing bounds the password hashing a server does at once. Each argon2id hash holds
// Params.Memory (19 MiB) while it runs, so a burst of sign-ups or sign-ins hashing all at once
// would take memory without bound; under the cap the burst costs Slots × 19 MiB, the waiting
// requests almost nothing, and the rest are refused with ErrBusy (503, Retry-After).
type Hashing struct {
	Slots int           // hashes that run at once
	Queue int           // requests that may wait for a slot
	Wait  time.Duration // how long a request waits before ErrBusy
}

// DefaultHashing runs one hash per core, lets 64 requests wait up to 2 s (about 130 hashes of
// 30 ms on 2 cores: a burst of 200 is mostly served), and refuses the rest at once.
func DefaultHashing() Hashing {
	return Hashing{Slots: runtime.GOMAXPROCS(0), Queue: 64, Wait: 2 * time.Second}
}

// hashCap runs work under a Hashing cap.
type hashCap struct {
	slots   chan struct{}
	waiting chan struct{}
	wait    time.Duration
}

func newHashCap(h Hashing) *hashCap {
	return &hashCap{slots: make(chan struct{}, max(1, h.Slots)), waiting: make(chan struct{}, max(0, h.Queue)), wait: h.Wait}
}

// run calls work in a slot, after waiting for one if the queue has room; else, or when the
// wait runs out, it returns ErrBusy without calling work. The context's end stops the wait.
func (c *hashCap) run(ctx context.Context, work func()) error {
	select {
	case c.slots <- struct{}{}:
	default:
		select {
		case c.waiting <- struct{}{}:
		default:
			return ErrBusy
		}
		defer func() { <-c.waiting }()
		timer := time.NewTimer(c.wait)
		defer timer.Stop()
		select {
		case c.slots <- struct{}{}:
		case <-timer.C:
			return ErrBusy
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	defer func() { <-c.slots }()
	work()
	return nil
}

// hash returns the PHC string of password, under the cap.
func (s *Service) hash(ctx context.Context, password string) (encoded string, err error) {
	if capErr := s.hashing.run(ctx, func() { encoded, err = hashPassword(s.params, password) }); capErr != nil {
		return "", capErr
	}
	return encoded, err
}

// verify reports whether password matches the PHC string, under the cap.
func (s *Service) verify(ctx context.Context, encoded, password string) (match bool, err error) {
	if capErr := s.hashing.run(ctx, func() { match, err = verifyPassword(encoded, password) }); capErr != nil {
		return false, capErr
	}
	return match, err
}

// unchecked reports whether verify's error means the password was never checked: no slot in
// time (ErrBusy), or the request ended while it waited. Such an attempt is refunded. A check
// that ran is an attempt even if the client has gone since: it is counted, and the request then
// fails on its own canceled context.
func unchecked(err error) bool {
	return errors.Is(err, ErrBusy) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
