package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"handy/internal/analytics"
	"handy/internal/config"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// pageviewServer is a server with the page-view endpoint over st, logging everything (debug:
// the access log too) into log.
type pageviewServer struct {
	*Server
	in  *analytics.Ingester
	st  *store.Store
	log *syncBuffer
}

func newPageviewServer(t *testing.T, st *store.Store, clientIPHeader string, opts ...analytics.Option) pageviewServer {
	t.Helper()
	log := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	in, err := analytics.New(context.Background(), st, site.Default(), httpsOrigin, append([]analytics.Option{analytics.WithLogger(logger)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(context.Background()) })
	cfg := config.Config{Addr: "127.0.0.1:0", PublicURL: httpsOrigin, ClientIPHeader: clientIPHeader}
	s, err := New(cfg, site.Default(), fixtureDist(site.Default()), logger, WithAnalytics(in), quickCompression)
	if err != nil {
		t.Fatal(err)
	}
	return pageviewServer{s, in, st, log}
}

const beaconType = "text/plain;charset=UTF-8" // what navigator.sendBeacon sends with a string

// sendBeacon posts body to the page-view endpoint through h as a browser's sendBeacon would,
// with header on top, from remote (the connection's address).
func sendBeacon(h http.Handler, body string, header map[string]string, remote string) *http.Response {
	r := httptest.NewRequest(http.MethodPost, "/api/v1/pageviews", strings.NewReader(body))
	r.Header.Set("Content-Type", beaconType)
	r.Header.Set("User-Agent", chromeUA)
	r.Header.Set("Accept-Language", "de-DE,de;q=0.9,en;q=0.8")
	for k, v := range header {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	if remote != "" {
		r.RemoteAddr = remote
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec.Result()
}

func pageviewBody(p, l string) string {
	return fmt.Sprintf(`{"p":%q,"l":%q,"bl":"de-DE","r":"www.example.org","s":"phone"}`, p, l)
}

// viewsWritten sums every view and every bot written.
func viewsWritten(t *testing.T, st *store.Store) (views, bots int64) {
	t.Helper()
	ctx := context.Background()
	if err := st.QueryRow(ctx, "SELECT COALESCE(SUM(views), 0) FROM analytics_views").Scan(&views); err != nil {
		t.Fatal(err)
	}
	if err := st.QueryRow(ctx, "SELECT COALESCE(SUM(bots), 0) FROM analytics_days").Scan(&bots); err != nil {
		t.Fatal(err)
	}
	return views, bots
}

func TestPageviewAnswers(t *testing.T) {
	t.Parallel()
	ps := newPageviewServer(t, storetest.Engines()[0].Open(t), "")
	valid := pageviewBody("/de/faq", "de")
	tests := []struct {
		name   string
		method string
		body   string
		header map[string]string
		status int
		code   string // of a JSON error
		field  string // named in the error's message
		view   bool   // counted as a visitor's view
		bot    bool   // counted as a bot's
		length bool   // sent without Content-Length: the limited reader stops it
	}{
		{name: "a beacon", body: valid, status: 204, view: true},
		{name: "as application/json", body: valid, header: map[string]string{"Content-Type": "application/json"}, status: 204, view: true},
		{name: "with an XSRF cookie but no header", body: valid, header: map[string]string{"Cookie": xsrfCookie + "=" + strings.Repeat("x", 43)}, status: 204, view: true},
		{name: "1024 bytes", body: valid + strings.Repeat(" ", analytics.MaxBeacon-len(valid)), status: 204, view: true},
		{name: "a bot", body: valid, header: map[string]string{"User-Agent": googlebotUA}, status: 204, bot: true},
		{name: "curl", body: valid, header: map[string]string{"User-Agent": "curl/8.5.0"}, status: 204, bot: true},
		{name: "no Accept-Language", body: valid, header: map[string]string{"Accept-Language": ""}, status: 204, bot: true},
		{name: "a prefetch", body: valid, header: map[string]string{"Sec-Purpose": "prefetch"}, status: 204, bot: true},
		{name: "Global Privacy Control", body: valid, header: map[string]string{"Sec-GPC": "1"}, status: 204},
		{name: "1025 bytes", body: valid + strings.Repeat(" ", analytics.MaxBeacon+1-len(valid)), status: 413, code: "too-large"},
		{name: "a megabyte", body: valid + strings.Repeat(" ", 1<<20), status: 413, code: "too-large"},
		{name: "1025 bytes of unknown length", body: valid + strings.Repeat(" ", analytics.MaxBeacon+1-len(valid)), length: true, status: 413, code: "too-large"},
		{name: "1024 bytes of unknown length", body: valid + strings.Repeat(" ", analytics.MaxBeacon-len(valid)), length: true, status: 204, view: true},
		{name: "a form", body: "p=/", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 415, code: "not-json"},
		{name: "no content type", body: valid, header: map[string]string{"Content-Type": ""}, status: 415, code: "not-json"},
		{name: "an unknown path", body: pageviewBody("/nope", "en"), status: 400, code: "invalid-field", field: `"p"`},
		{name: "a path with a query", body: pageviewBody("/faq?utm_source=x", "en"), status: 400, code: "invalid-field", field: `"p"`},
		{name: "the wrong locale", body: pageviewBody("/de/faq", "en"), status: 400, code: "invalid-field", field: `"l"`},
		{name: "a bad language", body: `{"p":"/","l":"en","bl":"??","r":"","s":"phone"}`, status: 400, code: "invalid-field", field: `"bl"`},
		{name: "a URL as referrer", body: `{"p":"/","l":"en","bl":"en","r":"https://x.example/a","s":"phone"}`, status: 400, code: "invalid-field", field: `"r"`},
		{name: "a bad screen", body: `{"p":"/","l":"en","bl":"en","r":"","s":"huge"}`, status: 400, code: "invalid-field", field: `"s"`},
		{name: "not JSON", body: "hello", status: 400, code: "invalid-json"},
		// As strict as every other body (issue 27): keys exactly the fields' names, each once.
		{name: "a key in capitals", body: `{"P":"/","l":"en","bl":"en","r":"","s":"phone"}`, status: 400, code: "unknown-field", field: `"P"`},
		{name: "a key twice", body: `{"p":"/nope","p":"/","l":"en","bl":"en","r":"","s":"phone"}`, status: 400, code: "duplicate-field", field: `"p"`},
		{name: "an unknown key", body: `{"p":"/","l":"en","bl":"en","r":"","s":"phone","ua":"x"}`, status: 400, code: "unknown-field", field: `"ua"`},
		{name: "GET", method: "GET", status: 405, code: "method-not-allowed"},
		{name: "PUT", method: "PUT", body: valid, status: 405, code: "method-not-allowed"},
	}
	var wantViews, wantBots int64
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res *http.Response
			switch {
			case tt.method != "":
				r := httptest.NewRequest(tt.method, "/api/v1/pageviews", strings.NewReader(tt.body))
				rec := httptest.NewRecorder()
				ps.Handler().ServeHTTP(rec, r)
				res = rec.Result()
			case tt.length:
				r := httptest.NewRequest(http.MethodPost, "/api/v1/pageviews", io.MultiReader(strings.NewReader(tt.body)))
				r.ContentLength = -1
				r.Header.Set("Content-Type", beaconType)
				r.Header.Set("User-Agent", chromeUA)
				r.Header.Set("Accept-Language", "en")
				rec := httptest.NewRecorder()
				ps.Handler().ServeHTTP(rec, r)
				res = rec.Result()
			default:
				res = sendBeacon(ps.Handler(), tt.body, tt.header, "")
			}
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tt.status {
				t.Fatalf("%d %s, want %d", res.StatusCode, body, tt.status)
			}
			if c := res.Header.Values("Set-Cookie"); len(c) > 0 {
				t.Errorf("a cookie was set: %v", c)
			}
			if res.Header.Get("Cache-Control") != cacheNoStore {
				t.Errorf("Cache-Control %q", res.Header.Get("Cache-Control"))
			}
			if tt.status == 204 {
				if len(body) != 0 {
					t.Errorf("a body with 204: %q", body)
				}
				return
			}
			var e struct {
				Error struct{ Code, Message string }
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != tt.code || !strings.Contains(e.Error.Message, tt.field) {
				t.Errorf("body %s, want the code %q naming %s", body, tt.code, tt.field)
			}
			if tt.status == 405 && res.Header.Get("Allow") != "POST" {
				t.Errorf("Allow %q", res.Header.Get("Allow"))
			}
		})
		if tt.view {
			wantViews++
		}
		if tt.bot {
			wantBots++
		}
	}
	if err := ps.in.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if views, bots := viewsWritten(t, ps.st); views != wantViews || bots != wantBots {
		t.Errorf("written %d views and %d bots, want %d and %d", views, bots, wantViews, wantBots)
	}
}

// A full buffer answers 503 with Retry-After, and the server logs nothing per request.
func TestPageviewBufferFull(t *testing.T) {
	t.Parallel()
	ps := newPageviewServer(t, storetest.Engines()[0].Open(t), "", analytics.WithBuffer(1), analytics.WithFlush(time.Hour, 1000))
	if res := sendBeacon(ps.Handler(), pageviewBody("/", "en"), nil, ""); res.StatusCode != http.StatusNoContent {
		t.Fatalf("the first view: %d", res.StatusCode)
	}
	for range 3 {
		res := sendBeacon(ps.Handler(), pageviewBody("/", "en"), nil, "")
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" || !strings.Contains(string(body), `"unavailable"`) {
			t.Errorf("over capacity: %d Retry-After %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
		}
	}
	if strings.Contains(ps.log.String(), "request failed") {
		t.Errorf("a refused view was logged as a failure:\n%s", ps.log)
	}
}

// Every page view answered 204 by a server that is shut down while beacons arrive is in the
// database once the analytics are closed after the server's Shutdown, as cmd/handy does.
func TestPageviewsWrittenAtShutdown(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		ps := newPageviewServer(t, st, "", analytics.WithFlush(time.Hour, 1<<30)) // nothing written before Close
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		served := make(chan error, 1)
		go func() { served <- ps.Serve(ln) }()
		url := "http://" + ln.Addr().String() + "/api/v1/pageviews"
		client := &http.Client{Timeout: 10 * time.Second}
		var acked atomic.Int64
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for w := range 4 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(pageviewBody("/flip-image", "en")))
					req.Header.Set("Content-Type", beaconType)
					req.Header.Set("User-Agent", fmt.Sprintf("%s w%d/%d", chromeUA, w, i))
					req.Header.Set("Accept-Language", "en")
					res, err := client.Do(req)
					if err != nil {
						return // the server stopped accepting
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode == http.StatusNoContent {
						acked.Add(1)
					}
				}
			})
		}
		for deadline := time.Now().Add(30 * time.Second); acked.Load() < 200; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d beacons acknowledged in 30 s, want 200 before the shutdown", acked.Load())
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := ps.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		close(stop)
		wg.Wait()
		if err := <-served; err != nil {
			t.Fatal(err)
		}
		if err := ps.in.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if views, _ := viewsWritten(t, st); views != acked.Load() {
			t.Errorf("%d views written, %d acknowledged", views, acked.Load())
		}
	})
}

// TestPageviewPrivacy sends a load of beacons, valid, bots', refused and over capacity, with
// distinctive addresses (in the client-address header and as the connection's) and user
// agents through the real handler, with every log on and a failing flush on the way, then
// looks for those addresses and user agents, as bytes, in the SQLite database, its WAL and
// the logs: there must be none.
func TestPageviewPrivacy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	ps := newPageviewServer(t, st, "X-Forwarded-For", analytics.WithFlush(20*time.Millisecond, 50), analytics.WithBuffer(2000))
	var secrets []string
	routes := site.Default().Routes()
	send := func(i int, header map[string]string, remote, body string) {
		res := sendBeacon(ps.Handler(), body, header, remote)
		io.Copy(io.Discard, res.Body)
	}
	for i := range 600 {
		rt := routes[i%len(routes)]
		body := pageviewBody(rt.Path, rt.Locale.Code)
		ua := fmt.Sprintf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 PrivacyProbe/%d", i)
		forwarded := fmt.Sprintf("198.51.100.%d", i%250)
		remote := fmt.Sprintf("203.0.113.%d", i%250)
		v6 := fmt.Sprintf("2001:db8:cafe::%x", i)
		secrets = append(secrets, ua, forwarded, remote, v6)
		switch i % 6 {
		case 0: // through the proxy's header
			send(i, map[string]string{"User-Agent": ua, "X-Forwarded-For": "10.9.9.9, " + forwarded}, remote+":40000", body)
		case 1: // straight from the connection
			send(i, map[string]string{"User-Agent": ua}, remote+":40001", body)
		case 2: // IPv6
			send(i, map[string]string{"User-Agent": ua, "X-Forwarded-For": v6}, "["+v6+"]:40002", body)
		case 3: // a bot
			send(i, map[string]string{"User-Agent": "PrivacyProbeBot/" + fmt.Sprint(i) + " (+https://probe.example)", "X-Forwarded-For": forwarded}, remote+":40003", body)
			secrets = append(secrets, "PrivacyProbeBot/"+fmt.Sprint(i))
		case 4: // refused: a bad body
			send(i, map[string]string{"User-Agent": ua, "X-Forwarded-For": forwarded}, remote+":40004", pageviewBody("/no-such-page", "en"))
		case 5: // refused: too large
			send(i, map[string]string{"User-Agent": ua, "X-Forwarded-For": forwarded}, remote+":40005", body+strings.Repeat(" ", 2000))
		}
		// Flushes fail on the way (their error is logged) and the views wait.
		switch i {
		case 300:
			if _, err := st.Exec(ctx, "ALTER TABLE analytics_views RENAME TO analytics_views_away"); err != nil {
				t.Fatal(err)
			}
		case 360: // once a flush has failed
			for deadline := time.Now().Add(30 * time.Second); !strings.Contains(ps.log.String(), "writing page views failed"); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("no failed flush logged 30 s after the table was renamed away")
				}
			}
			if _, err := st.Exec(ctx, "ALTER TABLE analytics_views_away RENAME TO analytics_views"); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := ps.in.Close(ctx); err != nil {
		t.Fatal(err)
	}
	views, bots := viewsWritten(t, st)
	if views != 300 || bots != 100 {
		t.Errorf("written %d views and %d bots, want 300 and 100", views, bots)
	}
	logs := ps.log.String()
	for _, want := range []string{`"path":"/api/v1/pageviews"`, `"status":400`, `"status":413`, "writing page views failed"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the logs lack %s: the test would not see a leak there", want)
		}
	}
	files := map[string][]byte{"logs": []byte(logs)}
	for _, name := range []string{store.SQLiteFile, store.SQLiteFile + "-wal", store.SQLiteFile + "-shm"} {
		if b, err := readIfExists(dir + "/" + name); err != nil {
			t.Fatal(err)
		} else {
			files[name] = b
		}
	}
	var all []byte
	for _, b := range files {
		all = append(all, b...)
	}
	if !bytes.Contains(all, []byte("flip-image")) || !bytes.Contains(all, []byte("www.example.org")) {
		t.Fatal("the database files hold no page name or referrer: the search below would find nothing anyway")
	}
	for name, b := range files {
		for _, s := range append(secrets, "PrivacyProbe") {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s contains %q", name, s)
				break
			}
		}
	}
}

func readIfExists(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// A client past its budget of page views a minute is answered 429 resource-exhausted with
// Retry-After, the seconds until the minute ends; its views are not counted, and the refusals
// are not logged as failures. Another client still has its budget.
func TestPageviewBudget(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 15, 0, time.UTC)
	ps := newPageviewServer(t, storetest.Engines()[0].Open(t), "", analytics.WithBudget(2, 100),
		analytics.WithClock(func() time.Time { return now }))
	body := pageviewBody("/", "en")
	for i := range 2 {
		if res := sendBeacon(ps.Handler(), body, nil, ""); res.StatusCode != http.StatusNoContent {
			t.Fatalf("view %d within the budget: %d", i+1, res.StatusCode)
		}
	}
	for range 3 {
		res := sendBeacon(ps.Handler(), body, nil, "")
		var got struct {
			Error struct{ Code, Message string }
		}
		if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "45" || got.Error.Code != "resource-exhausted" {
			t.Errorf("past the budget: %d Retry-After %q %+v, want 429 after 45 s, resource-exhausted", res.StatusCode, res.Header.Get("Retry-After"), got)
		}
	}
	if res := sendBeacon(ps.Handler(), body, nil, "198.51.100.9:4000"); res.StatusCode != http.StatusNoContent {
		t.Errorf("another client: %d", res.StatusCode)
	}
	if err := ps.in.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if views, _ := viewsWritten(t, ps.st); views != 3 {
		t.Errorf("%d views written, want 3", views)
	}
	if strings.Contains(ps.log.String(), "request failed") {
		t.Errorf("a refused view was logged as a failure:\n%s", ps.log)
	}
}
