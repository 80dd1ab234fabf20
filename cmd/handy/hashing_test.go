package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPasswordBurstMemory sends 200 sign-ups at once, then 200 sign-ins at once, to the real
// binary: each argon2id hash holds 19 MiB, so without the hashing cap the burst would take
// gigabytes. Every answer must be a success or a 503 with Retry-After, and the process's peak
// resident memory must stay under 300 MB.
func TestPasswordBurstMemory(t *testing.T) {
	bin := buildHandy(t)
	p := startHandy(t, bin, []string{"-data-dir", t.TempDir(), "-client-ip-header", "X-Forwarded-For"})
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 200}}
	const burst = 200
	send := func(path string, i int, body string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, p.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Cookie", "XSRF-TOKEN="+xsrfValue)
		req.Header.Set("X-XSRF-TOKEN", xsrfValue)
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i%250))
		res, err := client.Do(req)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return 0, ""
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Retry-After")
	}
	var created []int // the sign-ups that went through
	run := func(name, path string, ok int, body func(i int) string) {
		var mu sync.Mutex
		counts := map[int]int{}
		var wg sync.WaitGroup
		for i := range burst {
			wg.Go(func() {
				status, retry := send(path, i, body(i))
				if status == http.StatusServiceUnavailable && retry == "" {
					t.Errorf("%s: 503 without Retry-After", name)
				}
				mu.Lock()
				counts[status]++
				if status == http.StatusCreated {
					created = append(created, i)
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		if counts[ok]+counts[http.StatusServiceUnavailable] != burst || counts[ok] == 0 {
			t.Errorf("%s: answers %v, want only %d and 503", name, counts, ok)
		}
		t.Logf("%s: %v", name, counts)
	}
	run("sign-ups", "/api/v1/auth/signup", http.StatusCreated, func(i int) string {
		return fmt.Sprintf(`{"email":"burst-%d@example.com","password":"correct horse battery"}`, i)
	})
	run("sign-ins", "/api/v1/auth/signin", http.StatusOK, func(i int) string {
		return fmt.Sprintf(`{"email":"burst-%d@example.com","password":"correct horse battery"}`, created[i%len(created)])
	})
	peak := peakRSS(t, p.Cmd.Process.Pid)
	t.Logf("peak RSS %d MB", peak>>20)
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MB, want under 300 MB", peak>>20)
	}
}

// peakRSS reads a process's peak resident set size (VmHWM) from /proc.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range bytes.Lines(status) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(string(rest)), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/pid/status")
	return 0
}
