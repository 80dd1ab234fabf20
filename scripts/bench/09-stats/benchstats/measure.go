package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// statsClient asks a running handy for reports, as the /admin dashboard does: one GET with the
// admin token, the body read whole (gzip accepted, like a browser).
type statsClient struct {
	http  *http.Client
	base  string
	token string
}

// report is what the benchmark checks of an answer: that it covers the range asked and counts
// every view seeded in it.
type report struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Days   []any  `json:"days"`
	Totals struct {
		Views int64 `json:"views"`
	} `json:"totals"`
	Pages []any `json:"pages"`
	Refs  []any `json:"referrers"`
}

// get asks for the report from..to and returns how long the answer took, body included.
func (c *statsClient) get(from, to string) (time.Duration, []byte, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+"/api/v1/stats?from="+from+"&to="+to, nil)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("GET /api/v1/stats: %w", err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	took := time.Since(start)
	if err != nil {
		return 0, nil, fmt.Errorf("GET /api/v1/stats: read the answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return 0, nil, fmt.Errorf("GET /api/v1/stats?from=%s&to=%s: %d %s", from, to, res.StatusCode, body)
	}
	return took, body, nil
}

// span is a report's range and the views it must count.
type span struct {
	label    string // "30 days"
	from, to string
	days     int
	views    int64
}

// check reads an answer and says what is wrong with it, if anything.
func (s span) check(body []byte) error {
	var r report
	if err := json.Unmarshal(body, &r); err != nil {
		return fmt.Errorf("the report of %s is not JSON: %w", s.label, err)
	}
	if r.From != s.from || r.To != s.to || len(r.Days) != s.days || r.Totals.Views != s.views || len(r.Pages) == 0 || len(r.Refs) == 0 {
		return fmt.Errorf("the report of %s (%s to %s) has %d days and %d views, %d pages, %d referrers; want %d days and %d views",
			s.label, r.From, r.To, len(r.Days), r.Totals.Views, len(r.Pages), len(r.Refs), s.days, s.views)
	}
	return nil
}

// run asks for s's report n times from each of clients clients at once (sequentially when
// clients is 1) and returns every answer's time. Every answer is checked, after its time is
// taken.
func (c *statsClient) run(s span, n, clients int) ([]time.Duration, error) {
	var mu sync.Mutex
	var all []time.Duration
	var first error
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for range n {
				took, body, err := c.get(s.from, s.to)
				if err == nil {
					err = s.check(body)
				}
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				all = append(all, took)
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	return all, first
}

// latencies are the percentiles of a run, nearest rank.
type latencies struct {
	n             int
	p50, p95, max time.Duration
}

func summarise(d []time.Duration) latencies {
	s := slices.Clone(d)
	slices.Sort(s)
	rank := func(q float64) time.Duration {
		i := int(q*float64(len(s))+0.999999) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return latencies{n: len(s), p50: rank(0.50), p95: rank(0.95), max: s[len(s)-1]}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
