package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// memory reads handy's VmRSS and VmHWM (peak) from /proc, in MB (2^20 bytes).
func memory(pid int) (rss, hwm float64, err error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for line := range strings.Lines(string(status)) {
		for key, into := range map[string]*float64{"VmRSS:": &rss, "VmHWM:": &hwm} {
			if rest, ok := strings.CutPrefix(line, key); ok {
				kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
				if err != nil {
					return 0, 0, fmt.Errorf("/proc/%d/status: %s: %w", pid, key, err)
				}
				*into = float64(kb) / 1024
			}
		}
	}
	return rss, hwm, nil
}

// sampler reads handy's memory every 100 ms: the largest VmRSS seen. Past capMB it kills handy
// (SIGKILL), so that a server that runs away cannot push the machine's other work out of memory:
// the row then says so.
type sampler struct {
	pid   int
	capMB float64

	mu     sync.Mutex
	maxRSS float64
	killed bool
	gone   bool
}

func (s *sampler) run(ctx context.Context) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		rss, _, err := memory(s.pid)
		s.mu.Lock()
		if err != nil {
			s.gone = true
		} else {
			s.maxRSS = max(s.maxRSS, rss)
			if s.capMB > 0 && rss > s.capMB && !s.killed {
				s.killed = true
				fmt.Fprintf(os.Stderr, "benchattack: handy at %.0f MB RSS, over the safety cap of %.0f MB: killed\n", rss, s.capMB)
				_ = syscall.Kill(s.pid, syscall.SIGKILL)
			}
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// latencies collects request latencies (ms) and failures.
type latencies struct {
	mu       sync.Mutex
	ms       []float64
	failures int
	refused  int            // 429s met on the way (the light user retries them)
	why      map[string]int // their messages
}

func (l *latencies) add(d time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ms = append(l.ms, float64(d.Microseconds())/1000)
	if !ok {
		l.failures++
	}
}

// percentile is the nearest-rank percentile p (0..100) of the samples; -1 without any.
func (l *latencies) percentile(p float64) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.ms) == 0 {
		return -1
	}
	s := slices.Clone(l.ms)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// probe asks /healthz rate times a second until ctx ends, each request on its own goroutine
// (open loop: a stalled server does not slow the probing), and waits for the last answer.
func probe(ctx context.Context, base string, rate int, lat *latencies) {
	c := newClient(0)
	c.Timeout = 10 * time.Second
	paced(ctx, rate, func() {
		start := time.Now()
		status, _, _, err := do(context.Background(), c, http.MethodGet, base+"/healthz", "", nil)
		lat.add(time.Since(start), err == nil && status == http.StatusOK)
	})
}

// paced runs fn on a goroutine of its own rate times a second until ctx ends (open loop: a
// stalled server does not slow the pace), then waits for the last to return.
func paced(ctx context.Context, rate int, fn func()) {
	var wg sync.WaitGroup
	t := time.NewTicker(time.Second / time.Duration(rate))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-t.C:
		}
		wg.Go(fn)
	}
}

// lightUser commits one small history entry rate times a second until ctx ends, as the site's
// outbox would: a 429 is sent again after its Retry-After (at most 1 s), and the latency is
// from the first try to the acknowledgement. Every acknowledged entry goes to acked.
func lightUser(ctx context.Context, base string, a *account, rate int, lat *latencies, acked *acks) {
	c := newClient(0)
	c.Timeout = 60 * time.Second
	var n atomic.Int64
	paced(ctx, rate, func() {
		i := n.Add(1)
		path := fmt.Sprintf("users/%s/history/light%06d", a.UID, i)
		body := fmt.Appendf(nil, `{"writes":[{"update":{"name":%q,"fields":{"tool":{"stringValue":"area"},`+
			`"at":{"timestampValue":%q},"title":{"stringValue":"light %d"},"query":{"stringValue":""},"detail":{"stringValue":""}}}}]}`,
			path, time.Now().UTC().Format(time.RFC3339Nano), i)
		start := time.Now()
		giveUp := start.Add(60 * time.Second)
		for {
			status, data, wait, err := do(context.Background(), c, http.MethodPost, base+"/api/v1/db/commit", a.Token, body)
			if err == nil && status == http.StatusTooManyRequests && time.Now().Before(giveUp) {
				lat.mu.Lock()
				lat.refused++
				if lat.why == nil {
					lat.why = map[string]int{}
				}
				lat.why[errorMessage(data)]++
				lat.mu.Unlock()
				time.Sleep(min(max(wait, 100*time.Millisecond), time.Second))
				continue
			}
			ok := err == nil && status == http.StatusOK
			lat.add(time.Since(start), ok)
			if ok {
				acked.add(ack{Token: a.Token, Path: path, Marker: -i})
			} else if err == nil {
				fmt.Fprintf(os.Stderr, "benchattack: the light user's commit %d answered %d\n", i, status)
			}
			return
		}
	})
}

// verify reads every acknowledged write back (4 at a time) and returns how many are missing or
// hold something else. Marker > 0: the field m holds it; Marker < 0: the history entry's title
// is "light -Marker"; 0: the document exists.
func verify(base string, list []ack) (missing int) {
	c := newClient(0)
	c.Timeout = 2 * time.Minute
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for _, a := range list {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := check(c, base, a); err != nil {
				mu.Lock()
				missing++
				if missing <= 5 {
					fmt.Fprintf(os.Stderr, "benchattack: acknowledged write missing: %s: %v\n", a.Path, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return missing
}

func check(c *http.Client, base string, a ack) error {
	var status int
	var data []byte
	var err error
	for try := 0; try < 5; try++ { // a server still busy with the attack may refuse a read or two
		status, data, _, err = do(context.Background(), c, http.MethodGet, base+"/api/v1/db/documents/"+a.Path, a.Token, nil)
		if err == nil && status != http.StatusTooManyRequests && status != http.StatusServiceUnavailable {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("GET answered %d: %.200s", status, data)
	}
	var doc struct {
		Fields struct {
			M     struct{ IntegerValue string }
			Title struct{ StringValue string }
		}
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("the document: %w", err)
	}
	switch {
	case a.Marker > 0 && doc.Fields.M.IntegerValue != strconv.FormatInt(a.Marker, 10):
		return fmt.Errorf("m is %q, not %d", doc.Fields.M.IntegerValue, a.Marker)
	case a.Marker < 0 && doc.Fields.Title.StringValue != fmt.Sprintf("light %d", -a.Marker):
		return fmt.Errorf("title is %q, not \"light %d\"", doc.Fields.Title.StringValue, -a.Marker)
	}
	return nil
}
