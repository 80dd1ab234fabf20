package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// result is one attack's figures: a line of run's -out.
type result struct {
	Attack        string         `json:"attack"`
	What          string         `json:"what"`
	PeakRSSMB     float64        `json:"peakRssMB"`     // VmHWM when the attack ended (over handy's life)
	MaxRSSMB      float64        `json:"maxRssMB"`      // the largest VmRSS sampled
	IdleRSSMB     float64        `json:"idleRssMB"`     // VmRSS before the attack began
	HealthzP99    float64        `json:"healthzP99"`    // ms
	HealthzN      int            `json:"healthzN"`      // probes
	HealthzFailed int            `json:"healthzFailed"` // probes without a 200
	LightP50      float64        `json:"lightP50"`      // ms, first try to acknowledgement
	LightP95      float64        `json:"lightP95"`      // ms
	LightN        int            `json:"lightN"`        // commits
	LightFailed   int            `json:"lightFailed"`   // commits never acknowledged
	Light429      int            `json:"light429"`      // 429s the light user met and waited out
	Acked         int            `json:"acked"`         // acknowledged writes read back
	Missing       int            `json:"missing"`       // of them, missing or different
	DBGrowthMB    float64        `json:"dbGrowthMB"`    // handy.db and its WAL, after - before
	Outcomes      map[string]int `json:"outcomes"`
	Note          string         `json:"note"`
	Died          bool           `json:"died"` // handy exited (or was killed at the RSS cap)
}

func cmdRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	base := fs.String("url", "", "handy's origin (http://127.0.0.1:PORT)")
	pid := fs.Int("pid", 0, "handy's process id, for /proc/PID/status")
	name := fs.String("attack", "none", "the attack: none, or a to g")
	duration := fs.Duration("duration", 30*time.Second, "how long the attack and the measurement last")
	out := fs.String("out", "", "file to append the result to (one JSON line)")
	dataDir := fs.String("data-dir", "", "handy's data directory (for the database's growth)")
	adminFile := fs.String("admin-token-file", "", "handy's admin token (to count the stored page views)")
	capMB := fs.Float64("rss-cap-mb", 4096, "kill handy past this RSS (MB), to protect the machine; 0: never")
	probeRate := fs.Int("probe-rate", 20, "/healthz probes a second")
	lightRate := fs.Int("light-rate", 5, "the light user's commits a second")
	_ = fs.Parse(args)
	at, err := findAttack(*name)
	if err != nil {
		return err
	}
	if *base == "" || *pid == 0 || *out == "" {
		return fmt.Errorf("run needs -url, -pid and -out")
	}
	res := result{Attack: at.name, What: at.what}
	light, err := signup(context.Background(), newClient(0), *base, "light")
	if err != nil {
		return fmt.Errorf("the light user: %w", err)
	}
	sctx, stopSampling := context.WithCancel(context.Background())
	defer stopSampling()
	s := &sampler{pid: *pid, capMB: *capMB}
	sampled := make(chan struct{})
	go func() { s.run(sctx); close(sampled) }()

	var att *exec.Cmd
	var attOut *bufio.Scanner
	if at.run != nil {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		att = exec.Command(self, "attack", "-url", *base, "-attack", at.name, "-duration", duration.String())
		att.Stderr = os.Stderr
		stdout, err := att.StdoutPipe()
		if err != nil {
			return err
		}
		if err := att.Start(); err != nil {
			return fmt.Errorf("the attacker: %w", err)
		}
		attOut = bufio.NewScanner(stdout)
		attOut.Buffer(make([]byte, 1<<20), 256<<20)
		if !attOut.Scan() || attOut.Text() != "ready" {
			_ = att.Wait()
			return fmt.Errorf("the attacker did not set up (see above)")
		}
	}
	res.IdleRSSMB, _, _ = memory(*pid)
	db0 := dbSize(*dataDir)

	// The window: the prober and the light user, while the attacker attacks.
	wctx, endWindow := context.WithTimeout(context.Background(), *duration)
	defer endWindow()
	var health, commits latencies
	var lightAcks acks
	var wg sync.WaitGroup
	wg.Go(func() { probe(wctx, *base, *probeRate, &health) })
	wg.Go(func() { lightUser(wctx, *base, light, *lightRate, &commits, &lightAcks) })
	wg.Wait()

	var ar attackResult
	if att != nil {
		done := make(chan error, 1)
		go func() {
			if attOut.Scan() {
				done <- json.Unmarshal(attOut.Bytes(), &ar)
			} else {
				done <- fmt.Errorf("the attacker printed no result")
			}
		}()
		select {
		case err := <-done:
			if err != nil {
				res.Note = err.Error()
			}
		case <-time.After(2 * time.Minute):
			_ = att.Process.Signal(syscall.SIGTERM)
			res.Note = "the attacker did not stop within 2 minutes of the window's end"
			if err := <-done; err != nil {
				res.Note += "; " + err.Error()
			}
		}
		_ = att.Wait()
	}
	if _, hwm, err := memory(*pid); err == nil {
		res.PeakRSSMB = hwm
	}
	stopSampling()
	<-sampled
	res.MaxRSSMB = s.maxRSS
	res.Died = s.killed || s.gone || syscall.Kill(*pid, 0) != nil
	if s.killed {
		res.PeakRSSMB = max(res.PeakRSSMB, s.maxRSS, *capMB)
	}

	res.HealthzP99, res.HealthzN, res.HealthzFailed = health.percentile(99), len(health.ms), health.failures
	res.LightP50, res.LightP95 = commits.percentile(50), commits.percentile(95)
	res.LightN, res.LightFailed, res.Light429 = len(commits.ms), commits.failures, commits.refused
	res.Outcomes = ar.Outcomes
	if len(commits.why) > 0 {
		res.Note = strings.TrimPrefix(res.Note+"; the light user's 429s: "+describe(commits.why), "; ")
	}
	if ar.Note != "" {
		res.Note = strings.TrimPrefix(res.Note+"; "+ar.Note, "; ")
	}
	all := append(lightAcks.list, ar.Acked...)
	res.Acked = len(all)
	if !res.Died {
		res.Missing = verify(*base, all)
		if at.name == "f" {
			stored, acked, err := viewsStored(*base, *adminFile, ar.Outcomes["204"])
			if err != nil {
				res.Note = strings.TrimPrefix(res.Note+"; views: "+err.Error(), "; ")
			}
			res.Acked += acked
			res.Missing += max(acked-stored, 0)
		}
	} else {
		res.Missing = -1 // not checked: the server is gone
	}
	res.DBGrowthMB = float64(dbSize(*dataDir)-db0) / (1 << 20)

	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(*out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("%s: %w", *out, err)
	}
	fmt.Printf("  %-4s peak RSS %.0f MB, healthz p99 %.1f ms, light commit p50 %.1f / p95 %.1f ms (%d, %d refused 429s waited out, %d failed), acked %d, missing %d; attacker: %s\n",
		res.Attack, res.PeakRSSMB, res.HealthzP99, res.LightP50, res.LightP95, res.LightN, res.Light429, res.LightFailed,
		res.Acked, res.Missing, describe(res.Outcomes))
	return nil
}

// dbSize is the bytes of handy.db and its WAL and shared-memory files in dir (0 without dir).
func dbSize(dir string) int64 {
	if dir == "" {
		return 0
	}
	var n int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if fi, err := os.Stat(filepath.Join(dir, "handy.db"+suffix)); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// viewsStored waits until the page views handy stored today (views + bots of /api/v1/stats)
// stop growing, at most 15 s (a writer adds them every second), and returns them with acked.
func viewsStored(base, tokenFile string, acked int) (stored, ackedOut int, err error) {
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		return 0, acked, fmt.Errorf("the admin token: %w", err)
	}
	c := newClient(0)
	c.Timeout = 30 * time.Second
	last := -1
	for range 15 {
		time.Sleep(time.Second)
		status, data, _, err := do(context.Background(), c, http.MethodGet, base+"/api/v1/stats", strings.TrimSpace(string(token)), nil)
		if err != nil || status != http.StatusOK {
			return 0, acked, fmt.Errorf("GET /api/v1/stats: %d %v %.200s", status, err, data)
		}
		var st struct{ Totals struct{ Views, Bots int } }
		if err := json.Unmarshal(data, &st); err != nil {
			return 0, acked, fmt.Errorf("GET /api/v1/stats: %w", err)
		}
		stored = st.Totals.Views + st.Totals.Bots
		if stored == last && stored >= acked {
			break
		}
		last = stored
	}
	return stored, acked, nil
}
