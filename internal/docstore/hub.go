package docstore

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// hub wakes the listens waiting on an owner's documents. Commits on this instance wake it
// directly (commitGroup); on PostgreSQL, commits on other instances reach it through
// LISTEN/NOTIFY (relay).
type hub struct {
	mu      sync.Mutex
	waiting map[string]map[chan struct{}]struct{} // by owner
	held    int                                   // listens registered, of all owners
}

func newHub() *hub { return &hub{waiting: make(map[string]map[chan struct{}]struct{})} }

// wait registers a listen on owner's documents: woken receives after each change until stop.
// It refuses (ok false) past maxListeners for one owner.
func (h *hub) wait(owner string) (woken <-chan struct{}, stop func(), ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.waiting[owner]
	if len(set) >= maxListeners {
		return nil, nil, false
	}
	if set == nil {
		set = make(map[chan struct{}]struct{})
		h.waiting[owner] = set
	}
	ch := make(chan struct{}, 1) // one pending wake is enough: the listen reads everything
	set[ch] = struct{}{}
	h.held++
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := set[ch]; ok {
			h.held--
		}
		delete(set, ch)
		if len(set) == 0 {
			delete(h.waiting, owner)
		}
	}, true
}

// count returns how many listens are registered.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held
}

// wake wakes every listen on the owners' documents, without blocking.
func (h *hub) wake(owners ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, o := range owners {
		for ch := range h.waiting[o] {
			poke(ch)
		}
	}
}

// wakeAll wakes every listen: after notifications may have been lost, each reads again.
func (h *hub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, set := range h.waiting {
		for ch := range set {
			poke(ch)
		}
	}
}

// poke sends a wake-up unless one is already pending.
func poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// notifyChannel is the PostgreSQL channel of commits. A payload is the sending Store's id and
// the owners whose documents changed: "id owner1,owner2".
const notifyChannel = "handy_docs"

// maxNotifyPayload keeps a payload under PostgreSQL's 8000 bytes.
const maxNotifyPayload = 7000

// notifyPayloads returns the notifications that tell other instances of owners' changes, to run in
// the commit's transaction: PostgreSQL delivers them when, and only if, it commits.
func (s *Store) notifyPayloads(owners map[string]int64) []string {
	var payloads []string
	var b strings.Builder
	for o := range owners {
		if b.Len() > 0 && b.Len()+len(o)+1 > maxNotifyPayload {
			payloads = append(payloads, b.String())
			b.Reset()
		}
		if b.Len() == 0 {
			b.WriteString(s.id + " ")
		} else {
			b.WriteByte(',')
		}
		b.WriteString(o)
	}
	if b.Len() > 0 {
		payloads = append(payloads, b.String())
	}
	return payloads
}

// relay wakes this instance's listens on the owners that other instances' commits changed, on
// PostgreSQL, until ctx ends. It reconnects after losing its connection; each time it starts
// listening it wakes every listen, since a notification sent meanwhile was lost.
func (s *Store) relay(ctx context.Context) {
	for ctx.Err() == nil {
		err := s.st.Listen(ctx, notifyChannel, s.hub.wakeAll, func(payload string) {
			from, owners, _ := strings.Cut(payload, " ")
			if from != s.id { // this instance's own commits woke it already
				s.hub.wake(strings.Split(owners, ",")...)
			}
		})
		if ctx.Err() != nil {
			return
		}
		s.logger.Warn("docstore: listening for other instances' commits failed; retrying in 1s", slog.String("error", err.Error()))
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}
