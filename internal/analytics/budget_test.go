package analytics

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// burst records n views of h at once and returns how many were counted, and the errors of
// the others.
func burst(in *Ingester, h Hit, n int) (counted int, refused []error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			err := in.Record(h)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				counted++
			} else {
				refused = append(refused, err)
			}
		})
	}
	wg.Wait()
	return counted, refused
}

// A burst of parallel views from one visitor counts exactly the budget; the rest are refused
// with the wait until the minute ends and are not written. The next minute, and the next day
// (a new key), the visitor has a budget again, and the table of visitors never holds more
// than its capacity.
func TestViewBudget(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		const perMinute, capacity = 30, 5
		clock := newFakeClock(time.Date(2026, 11, 24, 23, 58, 20, 0, time.UTC))
		in := newIngester(t, st, WithClock(clock.now), WithBudget(perMinute, capacity))
		attacker := visit("203.0.113.7", browserAgents[0])

		counted, refused := burst(in, attacker, 100)
		if counted != perMinute || len(refused) != 100-perMinute {
			t.Fatalf("a burst of 100: %d counted, %d refused, want %d and %d", counted, len(refused), perMinute, 100-perMinute)
		}
		for _, err := range refused {
			var be *BudgetError
			if !errors.As(err, &be) || !errors.Is(err, ErrOverBudget) || be.Full || be.RetryAfter != 40*time.Second {
				t.Fatalf("refused with %v, want a BudgetError to retry after 40s", err)
			}
		}

		// Other visitors have budgets of their own, up to the table's capacity.
		for i := range capacity - 1 {
			record(t, in, visit(fmt.Sprintf("198.51.100.%d", i), browserAgents[0]))
		}
		var be *BudgetError
		if err := in.Record(visit("198.51.100.99", browserAgents[0])); !errors.As(err, &be) || !be.Full {
			t.Fatalf("a visitor past the table's capacity: %v, want a full table", err)
		}
		if n := in.budget.visitors(); n != capacity {
			t.Errorf("the table holds %d visitors, want %d", n, capacity)
		}

		// The next minute: a budget again.
		clock.set(time.Date(2026, 11, 24, 23, 59, 0, 0, time.UTC))
		if counted, refused := burst(in, attacker, 40); counted != perMinute || len(refused) != 10 {
			t.Errorf("the next minute: %d counted, %d refused, want %d and 10", counted, len(refused), perMinute)
		}
		if n := in.budget.visitors(); n != 1 {
			t.Errorf("the next minute's table holds %d visitors, want 1", n)
		}
		flush(t, in)
		today := dayOf(clock.now())
		if got := readCounts(t, st, today); got.views != 2*perMinute+capacity-1 || got.visitors != capacity {
			t.Errorf("written %+v, want %d views of %d visitors", got, 2*perMinute+capacity-1, capacity)
		}

		// The next day: a new salt, a new key, a new budget.
		clock.set(time.Date(2026, 11, 25, 0, 0, 5, 0, time.UTC))
		if err := in.maintain(context.Background()); err != nil {
			t.Fatal(err)
		}
		counted, refused = burst(in, attacker, 40)
		if counted != perMinute || len(refused) != 10 {
			t.Errorf("the next day: %d counted, %d refused, want %d and 10", counted, len(refused), perMinute)
		}
		if n := in.budget.takeRefused(); n != 70+1+10+10 {
			t.Errorf("%d refusals to report, want 91", n)
		}
		flush(t, in)
		if got := readCounts(t, st, today+1); got.views != perMinute || got.visitors != 1 {
			t.Errorf("the next day written %+v, want %d views of 1 visitor", got, perMinute)
		}
	})
}

// A budget of 0 is no budget.
func TestViewBudgetOff(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	in := newIngester(t, st, WithBudget(0, 1))
	if counted, refused := burst(in, visit("203.0.113.7", browserAgents[0]), 100); counted != 100 {
		t.Errorf("without a budget: %d counted, refused %v", counted, refused[:min(len(refused), 1)])
	}
}

// A bot's views spend the same budget: past it they are refused, and not counted as bots.
func TestViewBudgetCountsBots(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	clock := newFakeClock(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
	in := newIngester(t, st, WithClock(clock.now), WithBudget(5, 10))
	counted, refused := burst(in, visit("203.0.113.7", "curl/8.5.0"), 8)
	if counted != 5 || len(refused) != 3 || !errors.Is(refused[0], ErrOverBudget) {
		t.Fatalf("8 bot views: %d counted, refused %v, want 5 and 3 over budget", counted, refused)
	}
	flush(t, in)
	if got := readCounts(t, st, dayOf(clock.now())); got != (counts{bots: 5}) {
		t.Errorf("written %+v, want 5 bots", got)
	}
}
