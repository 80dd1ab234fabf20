// Command benchstart times handy's start-up (`make bench`): from exec until it answers a page
// compressed, then checks that every page is served compressed at that moment. It alternates
// with a reference, this program started with -serve (a bare net/http server answering at
// once: the cost of exec, the Go runtime and the polling), and prints medians and the ratio.
//
//	go run ./scripts/bench/11-start/benchstart -handy ./handy -n 15
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"handy/internal/handytest"
	"handy/internal/site"
)

func main() {
	serve := flag.String("serve", "", "run as the reference server on this address (internal)")
	bin := flag.String("handy", "./handy", "the handy binary")
	n := flag.Int("n", 15, "start-ups of each, alternating")
	flag.Parse()
	if *serve != "" {
		http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "br")
			w.Write([]byte{0x0b, 0x02, 0x80, 0x68, 0x69, 0x03}) // "hi"
		})
		fmt.Fprintln(os.Stderr, http.ListenAndServe(*serve, nil))
		os.Exit(1)
	}
	if err := run(*bin, *n); err != nil {
		fmt.Fprintln(os.Stderr, "benchstart:", err)
		os.Exit(1)
	}
}

// page is the one polled: the largest document (the Japanese FAQ), compressed last or first,
// no matter: start-up compresses everything before it listens.
const page = "/jp/faq"

func run(bin string, n int) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "benchstart")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	// A first start on an empty data directory creates and migrates the database: timed on its
	// own, and left running until it has compressed the pages at the best levels, which it keeps
	// in the data directory. The others start as a restart does, on what that one left.
	fresh, err := startOnce(handyArgs(bin, dir, "info"), true, compressedLine)
	if err != nil {
		return err
	}
	fmt.Printf("  handy, first start (creates the database; then left to compress the pages): %s\n", ms(fresh))
	var handy, ref []time.Duration
	for range n {
		d, err := startOnce(handyArgs(bin, dir, "warn"), true, "")
		if err != nil {
			return err
		}
		handy = append(handy, d)
		if d, err = startOnce(func(addr string) *exec.Cmd { return exec.Command(self, "-serve", addr) }, false, ""); err != nil {
			return err
		}
		ref = append(ref, d)
	}
	hm, rm := median(handy), median(ref)
	fmt.Printf("  handy     exec → %s compressed: median %s, p90 %s, max %s (%d starts)\n", page, ms(hm), ms(pct(handy, 0.9)), ms(slices.Max(handy)), n)
	fmt.Printf("  reference exec → first answer:      median %s, p90 %s, max %s (bare net/http)\n", ms(rm), ms(pct(ref, 0.9)), ms(slices.Max(ref)))
	fmt.Printf("start-up: handy %s median (goal ≤ 500 ms), %.1f× the bare reference's %s; every page compressed at that moment\n",
		ms(hm), float64(hm)/float64(rm), ms(rm))
	return nil
}

// compressedLine is what handy logs once every page is at the best levels.
const compressedLine = "pages compressed at the best levels"

// handyArgs starts bin on addr over the data directory dir, logging at level.
func handyArgs(bin, dir, level string) func(addr string) *exec.Cmd {
	return func(addr string) *exec.Cmd {
		cmd := exec.Command(bin, "-addr", addr, "-public-url", "http://"+addr, "-data-dir", dir, "-log-level", level)
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "HANDY_") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		return cmd
	}
}

// startOnce starts the command on a free port, polls page every millisecond until it answers
// 200 in brotli, and returns the time since exec. With allPages, it then checks that every
// page of the site is served compressed; with settle, it waits (up to 60 s) until the process
// logs that line. It stops the process before returning.
func startOnce(command func(addr string) *exec.Cmd, allPages bool, settle string) (time.Duration, error) {
	addr, err := handytest.FreeAddr()
	if err != nil {
		return 0, err
	}
	cmd := command(addr)
	log := &handytest.Log{}
	cmd.Stderr = log
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 5 * time.Second}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}()
	var took time.Duration
	for {
		if ok, _ := compressed(client, "http://"+addr+page); ok {
			took = time.Since(start)
			break
		}
		select {
		case err := <-exited:
			exited <- err // for the deferred stop
			return 0, fmt.Errorf("%s exited at start-up: %v\n%s", cmd.Path, err, log.String())
		case <-time.After(time.Millisecond):
		}
		if time.Since(start) > 30*time.Second {
			return 0, fmt.Errorf("%s does not answer %s after 30 s\n%s", cmd.Path, page, log.String())
		}
	}
	if allPages {
		for _, r := range site.Default().Routes() {
			ok, err := compressed(client, "http://"+addr+r.Path)
			if err != nil || !ok {
				return 0, fmt.Errorf("%s is not served compressed right after start-up (%v)", r.Path, err)
			}
		}
	}
	for settle != "" && !strings.Contains(log.String(), settle) {
		if time.Since(start) > 60*time.Second {
			return 0, fmt.Errorf("%s did not log %q within 60 s\n%s", cmd.Path, settle, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return took, nil
}

// compressed reports whether url answers 200 in brotli.
func compressed(client *http.Client, url string) (bool, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept-Encoding", "br")
	res, err := client.Do(req)
	if err != nil {
		return false, err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return false, err
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "br" {
		return false, errors.New(res.Status + ", Content-Encoding " + res.Header.Get("Content-Encoding"))
	}
	return true, nil
}

func median(d []time.Duration) time.Duration { return pct(d, 0.5) }

// pct is the q-quantile of d (nearest rank).
func pct(d []time.Duration, q float64) time.Duration {
	s := slices.Sorted(slices.Values(d))
	i := int(q*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }
