package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestPageviewsWrittenOnSIGTERM runs the handy binary, sends page views as fast as it takes
// them and stops it with SIGTERM well within the writer's first second: every view answered
// 204 must be in the database afterwards (the server stops accepting, then the analytics
// write what they hold), and no user agent or address may reach the log.
func TestPageviewsWrittenOnSIGTERM(t *testing.T) {
	bin := buildHandy(t)
	t.Run(store.SQLite, func(t *testing.T) {
		dir := t.TempDir()
		pageviewsOnSIGTERM(t, bin, []string{"-data-dir", dir}, "", dir)
	})
	t.Run(store.Postgres, func(t *testing.T) {
		url := storetest.URL(t)
		pageviewsOnSIGTERM(t, bin, []string{"-data-dir", t.TempDir(), "-database-url", url}, url, "")
	})
}

func pageviewsOnSIGTERM(t *testing.T, bin string, args []string, databaseURL, dataDir string) {
	p := startHandy(t, bin, append(args, "-client-ip-header", "X-Forwarded-For", "-log-level", "debug"))
	client := &http.Client{Timeout: 10 * time.Second}
	const perWorker = 100
	var acked atomic.Int64
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range perWorker {
				req, _ := http.NewRequest(http.MethodPost, p.URL+"/api/v1/pageviews",
					strings.NewReader(`{"p":"/de/area-calculator","l":"de","bl":"de-AT","r":"news.example","s":"tablet"}`))
				req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
				req.Header.Set("User-Agent", fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0 SigtermProbe/%d.%d", w, i))
				req.Header.Set("Accept-Language", "de-AT,de;q=0.9")
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", w*perWorker+i))
				res, err := client.Do(req)
				if err != nil {
					t.Errorf("beacon: %v", err)
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusNoContent {
					t.Errorf("beacon: %d", res.StatusCode)
					return
				}
				acked.Add(1)
			}
		})
	}
	wg.Wait()
	if err := p.Stop(); err != nil {
		t.Fatalf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, databaseURL, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var views, visitors int64
	if err := st.QueryRow(ctx, "SELECT COALESCE(SUM(views), 0) FROM analytics_views WHERE page = 'area-calculator' AND locale = 'de' AND lang = 'de-AT' AND referrer = 'news.example' AND screen = 'tablet'").Scan(&views); err != nil {
		t.Fatal(err)
	}
	if err := st.QueryRow(ctx, "SELECT COALESCE(SUM(visitors), 0) FROM analytics_days").Scan(&visitors); err != nil {
		t.Fatal(err)
	}
	if views != acked.Load() || visitors != acked.Load() {
		t.Errorf("%d views of %d visitors written, %d acknowledged", views, visitors, acked.Load())
	}
	log := p.Log.String()
	if !strings.Contains(log, "/api/v1/pageviews") {
		t.Errorf("the access log does not show the beacons:\n%s", log)
	}
	if strings.Contains(log, "SigtermProbe") || strings.Contains(log, "198.51.100.") {
		t.Errorf("a user agent or an address reached the log:\n%s", log)
	}
}
