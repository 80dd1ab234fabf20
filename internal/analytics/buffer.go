package analytics

import "sync"

// event is one page view acknowledged and waiting to be written.
type event struct {
	day    day
	minute int64 // Unix time / 60
	view   view
	// visitor is set when the day's salt was known; otherwise the view counts, the visitor not.
	visitor visitor
	hashed  bool
}

// buffer holds acknowledged page views and bot counts until the writer has written them. It is
// bounded: past capacity a view is refused (ErrBusy) rather than memory growing while the
// database is away. Views taken by a flush still count against the bound until the flush
// succeeds, and come back if it fails, so nothing acknowledged is lost.
type buffer struct {
	mu       sync.Mutex
	events   []event
	bots     map[day]int64
	inflight int // events taken by the flush being written
	capacity int
	refused  int64 // views refused as over capacity since the last report
	closed   bool
}

func newBuffer(capacity int) *buffer {
	return &buffer{capacity: capacity, bots: make(map[day]int64)}
}

// add queues e and returns how many events wait now.
func (b *buffer) add(e event) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, ErrClosed
	}
	if len(b.events)+b.inflight >= b.capacity {
		b.refused++
		return 0, ErrBusy
	}
	b.events = append(b.events, e)
	return len(b.events), nil
}

// addBot counts a bot's page view on d.
func (b *buffer) addBot(d day) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	b.bots[d]++
	return nil
}

// batch is what one flush writes.
type batch struct {
	events []event
	bots   map[day]int64
}

func (b batch) empty() bool { return len(b.events) == 0 && len(b.bots) == 0 }

// take hands the writer up to limit of the oldest events and every bot count.
func (b *buffer) take(limit int) batch {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := min(len(b.events), limit)
	// The full slice expression keeps add from writing into the batch's array.
	out := batch{events: b.events[:n:n], bots: b.bots}
	b.events = b.events[n:]
	if len(b.events) == 0 {
		b.events = nil
	}
	b.bots = make(map[day]int64)
	b.inflight = n
	return out
}

// done ends the flush of out: written, it is forgotten; not written, it is put back in front.
func (b *buffer) done(out batch, written bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inflight = 0
	if written {
		return
	}
	b.events = append(out.events, b.events...)
	for d, n := range b.bots {
		out.bots[d] += n
	}
	b.bots = out.bots
}

// pending returns how many events wait, the flush's included.
func (b *buffer) pending() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.events) + b.inflight
}

// waiting returns how many events wait besides the flush's.
func (b *buffer) waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.events)
}

// takeRefused returns how many views were refused since the last call.
func (b *buffer) takeRefused() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.refused
	b.refused = 0
	return n
}

// close refuses every later view.
func (b *buffer) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
}
