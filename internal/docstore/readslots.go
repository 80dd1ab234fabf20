package docstore

import (
	"context"
	"sync"
)

// Reads that hand their documents on one at a time (QueryEach, ExportEach, a listen's answer:
// ListenTo) each hold a pool connection and one decoded document until their last row, and
// their caller decides how fast that goes: the HTTP server spools the answer (to memory, then
// to a temporary file) at the database's speed and writes it to the client only afterwards, so
// a read lasts as long as the database takes, never as long as a client takes to read. They
// are bounded all the same, so that many at once (32 listens of one user woken by one commit,
// a burst of exports) neither hold a document each nor take the pool from the committer: at
// most readSlotsTotal on this instance and readSlotsPerUser of one user run; the others wait
// for a slot (their request's context ends the wait), they are not refused.
const (
	// DefaultReadSlots is half of SQLite's pool of 8 (internal/store), so that commits and
	// the other reads always find a connection.
	DefaultReadSlots = 4
	// DefaultReadSlotsPerUser: one account cannot hold more than a quarter of the slots,
	// however many requests it sends; its own reads run one after the other.
	DefaultReadSlotsPerUser = 1
)

// WithReadSlots sets how many streamed reads may run at once in total and for one user
// (DefaultReadSlots, DefaultReadSlotsPerUser). Keep total below the database's pool.
func WithReadSlots(total, perUser int) Option {
	return func(s *Store) { s.reads = newReadSlots(total, perUser) }
}

// readSlots is a semaphore with a per-user bound: a user waits for one of its own slots first,
// holding nothing, then for one of the instance's, so that one user's queue of reads never
// takes the slots others wait for.
type readSlots struct {
	total chan struct{}
	per   int

	mu    sync.Mutex
	users map[string]*userSlots
}

type userSlots struct {
	slots chan struct{}
	refs  int // acquires holding or waiting for this entry
}

func newReadSlots(total, perUser int) *readSlots {
	return &readSlots{total: make(chan struct{}, max(total, 1)), per: max(perUser, 1), users: make(map[string]*userSlots)}
}

// acquire waits for a slot of uid's and one of the instance's, or for ctx to end (its error is
// returned); release gives both back.
func (r *readSlots) acquire(ctx context.Context, uid string) (release func(), err error) {
	r.mu.Lock()
	u := r.users[uid]
	if u == nil {
		u = &userSlots{slots: make(chan struct{}, r.per)}
		r.users[uid] = u
	}
	u.refs++
	r.mu.Unlock()
	unref := func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if u.refs--; u.refs == 0 {
			delete(r.users, uid)
		}
	}
	select {
	case u.slots <- struct{}{}:
	case <-ctx.Done():
		unref()
		return nil, ctx.Err()
	}
	select {
	case r.total <- struct{}{}:
	case <-ctx.Done():
		<-u.slots
		unref()
		return nil, ctx.Err()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-r.total
			<-u.slots
			unref()
		})
	}, nil
}
