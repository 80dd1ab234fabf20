package server

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// bodyBudget bounds the request-body bytes held at once, by all requests together and by each
// owner (a signed-in user, or an anonymous client's address): a request reserves its declared
// length, or its endpoint's limit when it declares none, before a byte of its body is read,
// and gives it back when the request ends. Parsing a body takes a bounded multiple of its size
// (docs/operations.md), so the budget bounds the memory bodies take.
type bodyBudget struct {
	total, perOwner int64

	mu      sync.Mutex
	used    int64
	byOwner map[string]int64
}

func newBodyBudget(total, perOwner int64) *bodyBudget {
	return &bodyBudget{total: total, perOwner: perOwner, byOwner: make(map[string]int64)}
}

// bodyRetryAfter is the Retry-After of a refusal: bodies are read and parsed in well under a
// second, so a reservation is usually back by then.
const bodyRetryAfter = time.Second

// reserve takes n bytes for owner, or refuses with resource-exhausted (429) when the owner's
// share or the whole budget would be exceeded. The reservation is atomic: parallel requests
// never hold more than either budget.
func (b *bodyBudget) reserve(owner string, n int64) (release func(), err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.byOwner[owner]+n > b.perOwner:
		return nil, &Error{Status: http.StatusTooManyRequests, Code: "resource-exhausted", RetryAfter: bodyRetryAfter,
			Message: fmt.Sprintf("Your requests in progress already hold %d bytes of request bodies, of at most %d; retry when they have finished.", b.byOwner[owner], b.perOwner)}
	case b.used+n > b.total:
		return nil, &Error{Status: http.StatusTooManyRequests, Code: "resource-exhausted", RetryAfter: bodyRetryAfter,
			Message: "The server is reading as many request bodies as it can hold; retry shortly."}
	}
	b.used += n
	b.byOwner[owner] += n
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.used -= n
			if b.byOwner[owner] -= n; b.byOwner[owner] == 0 {
				delete(b.byOwner, owner)
			}
		})
	}, nil
}

// held reports the bytes reserved, in all and by owner, for tests and the stats.
func (b *bodyBudget) held(owner string) (total, ofOwner int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.byOwner[owner]
}

// heldBody is a request body whose budget reservation, taken by readJSON, the middleware
// gives back when the request ends, however it ends: after the handler's parse of the body
// too, whose memory the reservation stands for, and on an error, a panic or a client that
// went away mid-body.
type heldBody struct {
	io.ReadCloser
	release func()
}

// keep records release to be called when the request ends.
func (h *heldBody) keep(release func()) {
	if h.release != nil {
		h.release() // a second readJSON on one request: only the latest reservation is held
	}
	h.release = release
}

func (h *heldBody) end() {
	if h.release != nil {
		h.release()
		h.release = nil
	}
}
