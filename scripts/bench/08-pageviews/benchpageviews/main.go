// Command benchpageviews backs `make bench`'s page-view part (scripts/bench/bench.sh, part 8).
//
//	benchpageviews sum [-data-dir DIR] [-database-url URL]
//
// prints the page views stored in analytics_views (every day, every page), for comparing with
// the beacons a load generator saw acknowledged.
//
//	benchpageviews sigterm -handy ./handy [-database-url URL] [-rate 2000] [-sigterm-after 5s]
//
// starts the handy binary (its own temporary data directory; PostgreSQL with -database-url),
// sends valid page-view beacons at -rate per second (open loop: one every 1/rate seconds, each
// from a new client address via X-Forwarded-For), sends handy SIGTERM after -sigterm-after and
// keeps sending until it has exited. It counts every 204 exactly, then reads the views stored
// and reports whether they equal the acknowledged beacons (the goal: none lost).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"handy/internal/handytest"
	"handy/internal/store"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "sum":
		fs := flag.NewFlagSet("sum", flag.ExitOnError)
		dataDir := fs.String("data-dir", "", "SQLite: handy's data directory")
		dbURL := fs.String("database-url", "", "PostgreSQL: the database URL")
		fs.Parse(os.Args[2:])
		var n int64
		n, err = sumViews(context.Background(), *dbURL, *dataDir)
		if err == nil {
			fmt.Println(n)
		}
	case "sigterm":
		fs := flag.NewFlagSet("sigterm", flag.ExitOnError)
		bin := fs.String("handy", "./handy", "the handy binary")
		dbURL := fs.String("database-url", "", "run handy on this PostgreSQL database (default: SQLite)")
		rate := fs.Int("rate", 2000, "beacons per second")
		after := fs.Duration("sigterm-after", 5*time.Second, "send SIGTERM after this long under load")
		fs.Parse(os.Args[2:])
		err = sigterm(*bin, *dbURL, *rate, *after)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchpageviews:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: benchpageviews sum [-data-dir DIR] [-database-url URL]\n"+
		"       benchpageviews sigterm -handy ./handy [-database-url URL] [-rate 2000] [-sigterm-after 5s]")
	os.Exit(2)
}

// sumViews returns the views stored in analytics_views.
func sumViews(ctx context.Context, dbURL, dataDir string) (int64, error) {
	if dbURL == "" && dataDir == "" {
		return 0, errors.New("sum: give -data-dir or -database-url")
	}
	st, err := store.Open(ctx, dbURL, dataDir)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	var n int64
	err = st.QueryRow(ctx, "SELECT COALESCE(SUM(views), 0) FROM analytics_views").Scan(&n)
	return n, err
}

var (
	pages   = []string{"/", "/flip-image", "/area-calculator", "/speed-calculator", "/faq", "/privacy-policy", "/terms-conditions"}
	locales = []string{"en", "zh", "pt", "de", "fr", "es", "jp", "ko"}
	langs   = map[string]string{"en": "en-US", "zh": "zh-CN", "pt": "pt-BR", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "jp": "ja-JP", "ko": "ko-KR"}
	agents  = []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15",
		"Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1",
	}
)

// beacon returns the n-th beacon: its body, user agent, Accept-Language and client address.
func beacon(n int) (body, ua, acceptLang, addr string) {
	code := locales[n%len(locales)]
	p := pages[(n/len(locales))%len(pages)]
	path := p
	if code != "en" {
		path = "/" + code + strings.TrimSuffix(p, "/")
	}
	lang := langs[code]
	screen := "desktop"
	if n%3 == 0 {
		screen = "phone"
	}
	body = fmt.Sprintf(`{"p":%q,"l":%q,"bl":%q,"r":"","s":%q}`, path, code, lang, screen)
	return body, agents[n%len(agents)], lang + "," + lang[:2] + ";q=0.9",
		fmt.Sprintf("10.%d.%d.%d", (n>>16)&255, (n>>8)&255, n&255)
}

func sigterm(bin, dbURL string, rate int, after time.Duration) error {
	args := []string{"-client-ip-header", "X-Forwarded-For", "-log-level", "warn"}
	if dbURL != "" {
		args = append(args, "-database-url", dbURL)
	}
	h, err := handytest.Start(handytest.Options{Bin: bin, Args: args})
	if err != nil {
		return err
	}
	defer h.Close()
	dir, base := h.DataDir, h.URL
	ctx := context.Background()
	before, err := sumViews(ctx, dbURL, dir)
	if err != nil {
		return fmt.Errorf("views stored before: %w", err)
	}

	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	var acked, acked0, refused, failed atomic.Int64 // acked0: 204s before SIGTERM
	statuses := sync.Map{}                          // non-204 status → *atomic.Int64
	jobs := make(chan int, 100_000)
	var wg sync.WaitGroup
	var termSent atomic.Bool
	for range 128 {
		wg.Go(func() {
			for n := range jobs {
				body, ua, al, xff := beacon(n)
				req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/pageviews", strings.NewReader(body))
				req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
				req.Header.Set("User-Agent", ua)
				req.Header.Set("Accept-Language", al)
				req.Header.Set("X-Forwarded-For", xff)
				res, err := client.Do(req)
				if err != nil {
					if errors.Is(err, syscall.ECONNREFUSED) {
						refused.Add(1)
					} else {
						failed.Add(1)
					}
					continue
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusNoContent {
					acked.Add(1)
					if !termSent.Load() {
						acked0.Add(1)
					}
					continue
				}
				c, _ := statuses.LoadOrStore(res.StatusCode, new(atomic.Int64))
				c.(*atomic.Int64).Add(1)
			}
		})
	}

	// Open loop: by time t, rate·t beacons have been handed to the workers.
	start := time.Now()
	tick := time.NewTicker(time.Millisecond)
	sent, late := 0, 0
	var termAt, exitAt time.Time
	var exitErr error
	var sentAtTerm int
loop:
	for {
		select {
		case <-h.Exited():
			exitErr, exitAt = h.Err(), time.Now()
			break loop
		case now := <-tick.C:
			due := int(now.Sub(start).Seconds() * float64(rate))
			for ; sent < due; sent++ {
				select {
				case jobs <- sent:
				default:
					late++ // the workers are this far behind: not sent
				}
			}
			if termAt.IsZero() && now.Sub(start) >= after {
				termSent.Store(true)
				sentAtTerm = sent
				termAt = now
				if err := h.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
					return err
				}
			}
			if !termAt.IsZero() && now.Sub(termAt) > 60*time.Second {
				return errors.New("handy did not exit within 60 s of SIGTERM")
			}
		}
	}
	tick.Stop()
	close(jobs)
	wg.Wait()
	if exitErr != nil {
		return fmt.Errorf("handy exited with %v after SIGTERM:\n%s", exitErr, h.Log)
	}
	after2, err := sumViews(ctx, dbURL, dir)
	if err != nil {
		return fmt.Errorf("views stored after: %w", err)
	}
	stored := after2 - before
	achieved := float64(sentAtTerm) / termAt.Sub(start).Seconds()
	fmt.Printf("  %d beacons sent in %.1f s before SIGTERM (%.0f/s, target %d/s; %d not sent because the workers lagged), %d after it until handy exited %.0f ms later\n",
		sentAtTerm, termAt.Sub(start).Seconds(), achieved, rate, late, sent-sentAtTerm, float64(exitAt.Sub(termAt).Microseconds())/1000)
	var other []string
	statuses.Range(func(k, v any) bool {
		other = append(other, fmt.Sprintf("%d × %v", v.(*atomic.Int64).Load(), k))
		return true
	})
	fmt.Printf("  answers: %d × 204 (%d before SIGTERM, %d after); other statuses: %s; connection refused %d, other transport errors %d\n",
		acked.Load(), acked0.Load(), acked.Load()-acked0.Load(), orNone(other), refused.Load(), failed.Load())
	verdict := "met"
	if stored != acked.Load() {
		verdict = "MISSED"
	}
	rateVerdict := ""
	if achieved < 0.95*float64(rate) {
		rateVerdict = fmt.Sprintf(" (WARNING: the load was %.0f/s, not %d/s)", achieved, rate)
	}
	fmt.Printf("no page view lost on SIGTERM under %d/s: stored %d = acknowledged %d (goal: equal): %s%s\n",
		rate, stored, acked.Load(), verdict, rateVerdict)
	return nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
