// Command benchlisten measures what long-poll listens cost a running handy: it starts the binary
// on SQLite in a temporary directory, holds -listeners listens open (spread over -users
// accounts: a user may hold at most 32), reads the server's resident memory, then commits one
// document per user, all at once, and times how long until every listen has answered. It
// repeats that -rounds times and prints the medians. `make bench` runs it (scripts/bench/bench.sh, part 6).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"handy/internal/handytest"
)

func main() {
	bin := flag.String("handy", "./handy", "the handy binary")
	listeners := flag.Int("listeners", 1000, "listens held open")
	users := flag.Int("users", 40, "accounts the listens are spread over (at most 32 listens each)")
	rounds := flag.Int("rounds", 3, "commit rounds")
	flag.Parse()
	if err := run(*bin, *listeners, *users, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "benchlisten:", err)
		os.Exit(1)
	}
}

type bench struct {
	base   string
	client *http.Client
	xsrf   string
}

func run(bin string, listeners, users, rounds int) error {
	// Every user signs up from loopback: lift the per-network sign-up limit.
	h, err := handytest.Start(handytest.Options{Bin: bin, Args: []string{"-log-level", "warn", "-signup-limit", "1000000"}, Output: os.Stderr})
	if err != nil {
		return err
	}
	defer h.Close()
	jar, _ := cookiejar.New(nil)
	b := &bench{base: h.URL, client: &http.Client{Jar: jar, Timeout: time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: listeners + users, MaxConnsPerHost: 0}}}
	if err := b.waitReady(); err != nil {
		return err
	}
	rssIdle, err := rssMiB(h.Cmd.Process.Pid)
	if err != nil {
		return err
	}

	tokens := make([]string, users)
	versions := make([]string, users)
	for u := range users {
		var out struct{ Token string }
		body := fmt.Sprintf(`{"email":"bench%d@example.com","password":"correct horse battery"}`, u)
		if err := b.post("/api/v1/auth/signup", "", body, &out); err != nil {
			return err
		}
		tokens[u] = out.Token
	}
	uid := make([]string, users)
	for u := range users {
		var me struct{ User struct{ ID string } }
		if err := b.get("/api/v1/auth/me", tokens[u], &me); err != nil {
			return err
		}
		uid[u] = me.User.ID
		var ch struct{ Version string }
		if err := b.get("/api/v1/db/listen?since=0&timeout=5s", tokens[u], &ch); err != nil {
			return err
		}
		versions[u] = ch.Version
	}

	fmt.Printf("benchlisten: %d listens over %d users, handy RSS %.1f MiB before\n", listeners, users, rssIdle)
	var rssHeld, fanout []float64
	for r := range rounds {
		type result struct {
			user    int
			version string
			at      time.Time
			err     error
		}
		results := make(chan result, listeners)
		since := slices.Clone(versions)
		for i := range listeners {
			u := i % users
			go func() {
				var ch struct {
					Version string
					Reset   bool
					Changes []json.RawMessage
				}
				err := b.get("/api/v1/db/listen?timeout=30s&since="+since[u], tokens[u], &ch)
				if err == nil && ch.Version == since[u] {
					err = fmt.Errorf("answered without the change: %+v", ch)
				}
				results <- result{u, ch.Version, time.Now(), err}
			}()
		}
		time.Sleep(3 * time.Second) // every listen reaches the server and waits
		rss, err := rssMiB(h.Cmd.Process.Pid)
		if err != nil {
			return err
		}
		rssHeld = append(rssHeld, rss)
		start := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, users)
		for u := range users {
			wg.Go(func() {
				body := fmt.Sprintf(`{"writes":[{"update":{"name":"users/%s/history/r%d","fields":{"round":{"integerValue":"%d"}}}}]}`, uid[u], r, r)
				if err := b.post("/api/v1/db/commit", tokens[u], body, nil); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			return err
		}
		var last time.Time
		for range listeners {
			res := <-results
			if res.err != nil {
				return fmt.Errorf("a listen of user %d: %w", res.user, res.err)
			}
			if res.at.After(last) {
				last = res.at
			}
			versions[res.user] = res.version
		}
		took := last.Sub(start)
		fanout = append(fanout, float64(took.Microseconds())/1000)
		fmt.Printf("  round %d: RSS %.1f MiB with %d listens held; %d commits answered all of them in %.1f ms\n",
			r+1, rss, listeners, users, float64(took.Microseconds())/1000)
	}
	fmt.Printf("benchlisten: median RSS %.1f MiB (goal ≤ 150), median time to answer every listen %.1f ms (goal ≤ 1000)\n",
		median(rssHeld), median(fanout))
	return nil
}

// waitReady fetches the XSRF cookie (handytest.Start has waited for /readyz).
func (b *bench) waitReady() error { return b.get("/api/v1/auth/xsrf", "", nil) }

func (b *bench) get(path, token string, out any) error {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, b.base+path, nil)
	return b.do(req, token, out)
}

func (b *bench) post(path, token, body string, out any) error {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, b.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-XSRF-TOKEN", b.xsrf)
	return b.do(req, token, out)
}

func (b *bench) do(req *http.Request, token string, out any) error {
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := b.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == "XSRF-TOKEN" {
			b.xsrf = c.Value
		}
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, res.StatusCode, bytes.TrimSpace(body))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(body, out)
}

// rssMiB reads a process's resident set size.
func rssMiB(pid int) (float64, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024, err
		}
	}
	return 0, errors.New("no VmRSS in /proc/pid/status")
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
