package docstore

import (
	"fmt"
	"math"
	"time"

	"handy/internal/docstore/status"
)

// checkRate checks that owner's token bucket holds n writes at time now (Unix microseconds),
// or refuses them with resource-exhausted and the time until they would pass; charge then
// takes them. The bucket is a row written in the commit's transaction (writeBookkeeping), so
// the rate holds across instances and restarts. A rate of zero or less disables the limit.
func (s *Store) checkRate(g *groupReads, owner string, n int, now int64) (charge func(), err error) {
	if s.rate <= 0 {
		return func() {}, nil
	}
	b, ok := g.buckets[owner]
	if !ok {
		b = bucket{tokens: s.burst, at: now}
	}
	elapsed := float64(max(0, now-b.at)) / 1e6
	tokens := min(s.burst, b.tokens+elapsed*s.rate)
	if need := float64(n); tokens < need {
		// Whole milliseconds, rounded up: a client that waits exactly this long passes.
		wait := time.Duration(math.Ceil((need-tokens)/s.rate*1e3)) * time.Millisecond
		return nil, &status.Error{
			Code:       status.ErrResourceExhausted,
			Message:    fmt.Sprintf("too many writes: at most %g per second; try again in %s", s.rate, wait),
			RetryAfter: wait,
		}
	}
	return func() {
		g.buckets[owner] = bucket{tokens: tokens - float64(n), at: now}
		g.charged[owner] = true
	}, nil
}
