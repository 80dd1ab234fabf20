package account

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestHashCap(t *testing.T) {
	t.Parallel()
	// A wait of an hour: a refusal that waited for the slot or for the timer would hang.
	c := newHashCap(Hashing{Slots: 1, Queue: 1, Wait: time.Hour})
	release := make(chan struct{})
	running := make(chan struct{})
	first := make(chan error, 1)
	go func() { first <- c.run(context.Background(), func() { close(running); <-release }) }()
	<-running

	// The slot is taken: the next request waits in the queue...
	second := make(chan error, 1)
	ran := make(chan struct{})
	go func() { second <- c.run(context.Background(), func() { close(ran) }) }()
	waitUntil(t, "the second request waits in the queue", func() bool { return len(c.waiting) == 1 })
	// ...and with the queue full too, one more is refused at once, without running: while the
	// slot is still held, so it did not wait for it.
	refused := make(chan error, 1)
	go func() { refused <- c.run(context.Background(), func() { t.Error("ran past a full queue") }) }()
	select {
	case err := <-refused:
		if !errors.Is(err, ErrBusy) {
			t.Fatalf("past a full queue: %v, want ErrBusy", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("past a full queue, a request waited instead of being refused")
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatalf("the waiting request: %v", err)
	}
	<-ran
}

func TestHashCapWaitAndCancel(t *testing.T) {
	t.Parallel()
	c := newHashCap(Hashing{Slots: 1, Queue: 4, Wait: 50 * time.Millisecond})
	release := make(chan struct{})
	running := make(chan struct{})
	go c.run(context.Background(), func() { close(running); <-release })
	<-running
	defer close(release)

	// A lower bound only: the timer cannot fire early, and a busy machine only makes it later.
	start := time.Now()
	if err := c.run(context.Background(), func() {}); !errors.Is(err, ErrBusy) {
		t.Fatalf("after the wait: %v, want ErrBusy", err)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("refused after %v, before the wait was over", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.run(ctx, func() {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request: %v", err)
	}
	if len(c.waiting) != 0 {
		t.Errorf("%d requests still counted as waiting", len(c.waiting))
	}
}

// Never more than Slots at once, however many ask.
func TestHashCapBound(t *testing.T) {
	t.Parallel()
	c := newHashCap(Hashing{Slots: 3, Queue: 1000, Wait: 10 * time.Second})
	var now, most atomic.Int64
	var wg sync.WaitGroup
	for range 200 {
		wg.Go(func() {
			err := c.run(context.Background(), func() {
				n := now.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(time.Millisecond)
				now.Add(-1)
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if most.Load() != 3 {
		t.Errorf("at most %d ran at once, want 3", most.Load())
	}
}

// TestSigninCanceledDuringCheck: a client that goes away while its password is being checked
// gets an error, never a sign-in without a user (the check counted, the session not made).
func TestSigninCanceledDuringCheck(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		slow := Params{Memory: 8 * 1024, Time: 40, Threads: 1, KeyLen: 32, SaltLen: 16} // about 0.2-1 s a hash
		s, _ := newService(t, st, nil, WithParams(slow))
		creds := Credentials{Email: "slow@example.com", Password: "correct horse battery", Address: "192.0.2.1"}
		if _, _, err := s.Signup(context.Background(), creds); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { // after the look-up, during the hash: once the check holds a hashing slot
			for len(s.hashing.slots) == 0 && ctx.Err() == nil {
				time.Sleep(100 * time.Microsecond)
			}
			cancel()
		}()
		token, u, err := s.Signin(ctx, creds, "192.0.2.1")
		cancel()
		if err == nil {
			t.Fatalf("Signin with its context canceled during the check: token %q, user %+v, no error", token, u)
		}
	})
}

// waitUntil polls cond until it holds; 30 s without it fails the test, so a hang fails too.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within 30 s: %s", what)
		}
	}
}
