package analytics

import (
	"sync"
	"time"
)

// Defaults of the per-visitor budget.
const (
	// DefaultViewsPerMinute is how many page views one visitor may send in a minute: a person
	// reading the site sends a few, and thirty is one every two seconds for a whole minute.
	DefaultViewsPerMinute = 30
	// DefaultBudgetVisitors bounds the visitors whose views of the current minute are held in
	// memory: 100,000 entries take at most about 5 MB (docs/operations.md).
	DefaultBudgetVisitors = 100_000
)

// viewBudget counts each visitor's page views of the current minute, by the visitor's daily
// key: a view past perMinute is refused until the minute ends. The minute is a clock minute,
// so the table is emptied at every minute's turn, and with it at midnight, when the keys
// change with the salt: an entry never outlives its minute, nor its key, and nothing else of
// the visitor is held. The table holds at most capacity visitors; when it is full, a visitor
// not in it is refused until the minute ends, so that memory is bounded by configuration,
// never by the number of clients (docs/decisions.md).
type viewBudget struct {
	mu        sync.Mutex
	perMinute int // 0: no budget
	capacity  int
	minute    int64 // Unix time / 60 of the counts held
	spent     map[visitor]int32
	refused   int64 // views refused since the last report
}

func newViewBudget(perMinute, capacity int) *viewBudget {
	return &viewBudget{perMinute: perMinute, capacity: capacity, spent: make(map[visitor]int32)}
}

// spend counts one view of v at now against v's budget, or refuses it with a *BudgetError
// saying when the minute ends. One lock makes it exact under parallel views: N views count N.
func (b *viewBudget) spend(v visitor, now time.Time) error {
	if b.perMinute <= 0 {
		return nil
	}
	minute := now.Unix() / 60
	b.mu.Lock()
	defer b.mu.Unlock()
	if minute != b.minute {
		// clear keeps the table's memory for the next minute: at most what capacity allows.
		clear(b.spent)
		b.minute = minute
	}
	n, ok := b.spent[v]
	switch {
	case !ok && len(b.spent) >= b.capacity:
		b.refused++
		return &BudgetError{RetryAfter: time.Unix((minute+1)*60, 0).Sub(now), Full: true}
	case int(n) >= b.perMinute:
		b.refused++
		return &BudgetError{RetryAfter: time.Unix((minute+1)*60, 0).Sub(now)}
	}
	b.spent[v] = n + 1
	return nil
}

// visitors returns how many visitors the table holds.
func (b *viewBudget) visitors() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.spent)
}

// takeRefused returns how many views were refused since the last call.
func (b *viewBudget) takeRefused() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.refused
	b.refused = 0
	return n
}
