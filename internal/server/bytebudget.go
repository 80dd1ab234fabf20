package server

import "sync"

// byteBudget counts the bytes held against a total and a bound per owner (a user, or an
// anonymous client's address), atomically: parallel reservations never hold more than either.
// The request bodies' pools (bodybudget.go) and the answer spools' memory and disk (spool.go)
// are such budgets; each says a refusal in its own words.
type byteBudget struct {
	mu              sync.Mutex
	total, perOwner int64
	used            int64
	byOwner         map[string]int64
}

func newByteBudget(total, perOwner int64) *byteBudget {
	return &byteBudget{total: total, perOwner: perOwner, byOwner: make(map[string]int64)}
}

// Which bound refused a reservation.
const (
	fits = iota
	overOwner
	overTotal
)

// take reserves n bytes for owner, or refuses them: which is fits, overOwner or overTotal, and
// ofOwner the bytes owner held before.
func (b *byteBudget) take(owner string, n int64) (which int, ofOwner int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ofOwner = b.byOwner[owner]
	switch {
	case ofOwner+n > b.perOwner:
		return overOwner, ofOwner
	case b.used+n > b.total:
		return overTotal, ofOwner
	}
	b.used += n
	b.byOwner[owner] += n
	return fits, ofOwner
}

// give returns n of owner's bytes.
func (b *byteBudget) give(owner string, n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	if b.byOwner[owner] -= n; b.byOwner[owner] <= 0 {
		delete(b.byOwner, owner)
	}
}

// held reports the bytes reserved, in all and by owner.
func (b *byteBudget) held(owner string) (total, ofOwner int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.byOwner[owner]
}
