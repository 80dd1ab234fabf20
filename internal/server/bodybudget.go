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
//
// Small bodies (at most smallBody: a one-write commit, a sign-in, a beacon) reserve from a
// pool of their own, a quarter of the budget with an eighth of the per-owner share. A big body
// holds its reservation until it is read, which a client sending slowly stretches to the read
// timeout: without the second pool, a few accounts trickling 4 MiB commits filled the budget
// and every other user's small commit was refused (make bench PARTS=13, attack g).
type bodyBudget struct {
	small, large *bodyPool
}

// smallBody is the largest body that reserves from the small bodies' pool.
const smallBody = 64 << 10

func newBodyBudget(total, perOwner int64) *bodyBudget {
	return &bodyBudget{
		small: newBodyPool(total/4, max(smallBody, perOwner/8)),
		large: newBodyPool(total, perOwner),
	}
}

// reserve takes n bytes for owner from the pool of n's size, or refuses with
// resource-exhausted (429) when the owner's share or the whole pool would be exceeded.
func (b *bodyBudget) reserve(owner string, n int64) (release func(), err error) {
	if n <= smallBody {
		return b.small.reserve(owner, n)
	}
	return b.large.reserve(owner, n)
}

// held reports the bytes reserved in both pools, in all and by owner, for tests.
func (b *bodyBudget) held(owner string) (total, ofOwner int64) {
	st, so := b.small.held(owner)
	lt, lo := b.large.held(owner)
	return st + lt, so + lo
}

// bodyPool is one of the budget's pools: a reservation is given back, once, by the release it
// comes with.
type bodyPool struct{ *byteBudget }

func newBodyPool(total, perOwner int64) *bodyPool {
	return &bodyPool{newByteBudget(total, perOwner)}
}

// bodyRetryAfter is the Retry-After of a refusal: bodies are read and parsed in well under a
// second, so a reservation is usually back by then.
const bodyRetryAfter = time.Second

func (b *bodyPool) reserve(owner string, n int64) (release func(), err error) {
	switch which, ofOwner := b.take(owner, n); which {
	case overOwner:
		return nil, &Error{Status: http.StatusTooManyRequests, Code: "resource-exhausted", RetryAfter: bodyRetryAfter,
			Message: fmt.Sprintf("Your requests in progress already hold %d bytes of request bodies, of at most %d; retry when they have finished.", ofOwner, b.perOwner)}
	case overTotal:
		return nil, &Error{Status: http.StatusTooManyRequests, Code: "resource-exhausted", RetryAfter: bodyRetryAfter,
			Message: "The server is reading as many request bodies as it can hold; retry shortly."}
	}
	return sync.OnceFunc(func() { b.give(owner, n) }), nil
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
