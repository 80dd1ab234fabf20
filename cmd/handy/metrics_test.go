package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"handy/internal/handytest"
	"handy/internal/site"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestMetrics runs the binary built as `make build` builds it with -metrics-addr, on each
// engine, makes a few requests of each kind (a page, refused sign-up and sign-in, page views, a
// commit, a listen held open), scrapes /metrics from the metrics listener, has promtool check
// the scrape, and checks the series: the build's facts, each part's counts, the pool's bounds.
// The public port answers 404 for /metrics. Then Prometheus itself scrapes it with the
// configuration and alerts of docs/operations.md.
func TestMetrics(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install Debian's prometheus package (scripts/tools/ensure-tools.sh, which make test runs, does)")
	}
	bin := buildLinked(t)
	t.Run(store.SQLite, func(t *testing.T) {
		p, metricsAddr := metricsScenario(t, bin, promtool, nil, 8)
		t.Run("prometheus", func(t *testing.T) { prometheusScrapes(t, p, metricsAddr) })
	})
	t.Run(store.Postgres, func(t *testing.T) {
		metricsScenario(t, bin, promtool, []string{"-database-url", storetest.URL(t)}, 16)
	})
}

// metricsScenario starts handy with args and checks its metrics; it returns the handy, still
// running, and the address of its metrics.
func metricsScenario(t *testing.T, bin, promtool string, args []string, poolSize float64) (*handytest.Handy, string) {
	metricsAddr, err := handytest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	p := startHandy(t, bin, append(args, "-data-dir", t.TempDir(), "-metrics-addr", metricsAddr))
	metricsURL := "http://" + metricsAddr + "/metrics"
	if want := `msg=starting version=` + linkedVersion + ` commit=` + linkedCommit + ` built=` + linkedBuilt; !strings.Contains(p.Log.String(), want) {
		t.Errorf("no start-up line %q in the log:\n%s", want, p.Log)
	}

	// The public port never serves the metrics.
	for _, path := range []string{"/metrics", "/api/metrics"} {
		if code := getStatus(t, p.URL+path); code != http.StatusNotFound {
			t.Errorf("public %s: %d, want 404", path, code)
		}
	}
	page := site.Default().Routes()[0].Path
	if code := getStatus(t, p.URL+page); code != http.StatusOK {
		t.Fatalf("GET %s: %d", page, code)
	}
	for i := range 5 { // paths no route names: counted under the patterns that took them
		getStatus(t, fmt.Sprintf("%s/no-such-page-%d", p.URL, i))
	}

	c := newAPIClient(p.URL)
	if status, answer, err := c.post("/api/v1/auth/signup", "", []byte(`{"email":"not an address","password":"correct horse battery"}`)); err != nil || status != http.StatusBadRequest {
		t.Fatalf("sign-up with a bad address: %d %v %s", status, err, answer)
	}
	u, err := c.signup("metrics@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if status, answer, err := c.post("/api/v1/auth/signin", "", []byte(`{"email":"metrics@example.com","password":"wrong horse battery"}`)); err != nil || status != http.StatusUnauthorized {
		t.Fatalf("sign-in with a wrong password: %d %v %s", status, err, answer)
	}
	for _, body := range []string{`{"p":"` + page + `","l":"en","bl":"en-GB","r":"","s":"desktop"}`, `{"p":"/not-a-page"}`} {
		status, answer, err := c.post("/api/v1/pageviews", "", []byte(body))
		if err != nil || status/100 != 2 && status != http.StatusBadRequest {
			t.Fatalf("page view %s: %d %v %s", body, status, err, answer)
		}
	}
	version := commitEntry(t, c, u, "first")

	// A listen from the commit's version waits: its headers come once it is held.
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/db/listen?since=%s&timeout=30s", p.URL, version), nil)
	req.Header.Set("Authorization", "Bearer "+u.token)
	listen, err := c.http.Do(req)
	if err != nil || listen.StatusCode != http.StatusOK {
		t.Fatalf("listen: %v %v", listen, err)
	}
	defer listen.Body.Close()

	scrape := scrapeMetrics(t, metricsURL)
	checkWithPromtool(t, promtool, scrape)
	families := parseScrape(t, scrape)
	commitEntry(t, c, u, "second") // ends the listen
	io.Copy(io.Discard, listen.Body)

	want := []struct {
		name   string
		labels map[string]string
		check  func(float64) bool
		what   string
	}{
		{"handy_build_info", map[string]string{"version": linkedVersion, "commit": linkedCommit, "built": linkedBuilt}, eq(1), "1"},
		{"handy_http_requests_total", map[string]string{"route": "/", "code": "200"}, atLeast(1), "≥ 1"},
		{"handy_http_requests_total", map[string]string{"route": "/", "code": "404"}, eq(6), "6"},
		{"handy_http_requests_total", map[string]string{"route": "/api/", "code": "404"}, eq(1), "1"},
		{"handy_http_requests_total", map[string]string{"route": "POST /api/v1/auth/signup", "code": "400"}, eq(1), "1"},
		{"handy_http_requests_total", map[string]string{"route": "POST /api/v1/auth/signup", "code": "201"}, eq(1), "1"},
		{"handy_http_requests_total", map[string]string{"route": "POST /api/v1/db/commit", "code": "200"}, eq(1), "1"},
		{"handy_http_request_duration_seconds", map[string]string{"route": "POST /api/v1/db/commit"}, eq(1), "1 observation"},
		{"handy_http_requests_in_flight", nil, atLeast(1), "≥ 1 (the listen)"},
		{"handy_account_refusals_total", map[string]string{"op": "signup", "reason": "invalid_email"}, eq(1), "1"},
		{"handy_account_refusals_total", map[string]string{"op": "signin", "reason": "wrong_credentials"}, eq(1), "1"},
		{"handy_account_refusals_total", map[string]string{"op": "signup", "reason": "rate_limited"}, eq(0), "0"},
		{"handy_docstore_commits_total", map[string]string{"result": "ok"}, eq(1), "1"},
		{"handy_docstore_commit_duration_seconds", nil, eq(1), "1 observation"},
		{"handy_docstore_commit_queue", nil, eq(0), "0"},
		{"handy_docstore_listens", nil, eq(1), "1"},
		{"handy_docstore_refusals_total", map[string]string{"reason": "write_rate"}, eq(0), "0"},
		{"handy_docstore_refusals_total", map[string]string{"reason": "storage_quota"}, eq(0), "0"},
		{"handy_pageviews_accepted_total", nil, eq(1), "1"},
		{"handy_pageviews_dropped_total", map[string]string{"reason": "invalid"}, eq(1), "1"},
		{"handy_pageviews_buffer_capacity", nil, eq(100_000), "100000"},
		{"handy_answer_spool_disk_bytes", nil, eq(0), "0"},
		{"handy_request_body_bytes", nil, eq(0), "0"},
		{"go_sql_max_open_connections", nil, eq(poolSize), fmt.Sprint(poolSize)},
		{"go_goroutines", nil, atLeast(1), "≥ 1"},
		{"process_resident_memory_bytes", nil, atLeast(1 << 20), "≥ 1 MiB"},
	}
	for _, w := range want {
		v, ok := sample(families, w.name, w.labels)
		if !ok {
			t.Errorf("no series %s%v in the scrape", w.name, w.labels)
		} else if !w.check(v) {
			t.Errorf("%s%v = %g, want %s", w.name, w.labels, v, w.what)
		}
	}
	// Every series the documented alerts use is exported.
	_, alerts := monitoringYAML(t)
	for _, name := range regexp.MustCompile(`\b(?:handy|go_sql)_[a-z_]+`).FindAllString(alerts, -1) {
		if families[strings.TrimSuffix(name, "_bucket")] == nil {
			t.Errorf("the alerts of docs/operations.md use %s, which the scrape lacks", name)
		}
	}
	for _, m := range families["handy_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "route" && strings.Contains(l.GetValue(), "no-such-page") {
				t.Errorf("a raw path as a route label: %q", l.GetValue())
			}
		}
	}

	// The buffered page view is written within a second or so: the flush is then counted, and
	// the buffer empty.
	deadline := time.Now().Add(20 * time.Second)
	for {
		f := parseScrape(t, scrapeMetrics(t, metricsURL))
		flushes, _ := sample(f, "handy_pageviews_flush_duration_seconds", nil)
		buffered, _ := sample(f, "handy_pageviews_buffered", nil)
		commits, _ := sample(f, "handy_docstore_commits_total", map[string]string{"result": "ok"})
		listens, _ := sample(f, "handy_docstore_listens", nil)
		if flushes >= 1 && buffered == 0 && commits == 2 && listens == 0 {
			return p, metricsAddr
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: %g flushes, %g page views buffered, %g commits, %g listens; want ≥ 1, 0, 2, 0", flushes, buffered, commits, listens)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// commitEntry writes a history entry of u's and returns the commit's version.
func commitEntry(t *testing.T, c *apiClient, u killUser, id string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"writes": []any{map[string]any{"update": map[string]any{
		"name": "users/" + u.id + "/history/" + id,
		"fields": map[string]any{
			"tool":  map[string]string{"stringValue": "area"},
			"at":    map[string]string{"timestampValue": "2026-11-28T09:00:00Z"},
			"title": map[string]string{"stringValue": id},
			"query": map[string]string{"stringValue": "?w=2&h=3"},
		}}}}})
	status, answer, err := c.post("/api/v1/db/commit", u.token, body)
	var a commitAnswer
	if err != nil || status != http.StatusOK || json.Unmarshal(answer, &a) != nil || a.Version == "" {
		t.Fatalf("commit: %d %v %s", status, err, answer)
	}
	return a.Version
}

// getStatus GETs url and returns the status.
func getStatus(t *testing.T, url string) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// scrapeMetrics GETs the metrics as Prometheus does, in the text format.
func scrapeMetrics(t *testing.T, url string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("scrape %s: %d %v\n%s", url, res.StatusCode, err, body)
	}
	return body
}

// checkWithPromtool pipes the scrape to `promtool check metrics`, the Prometheus project's own
// linter (names, units, help texts, label use).
func checkWithPromtool(t *testing.T, promtool string, scrape []byte) {
	t.Helper()
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = bytes.NewReader(scrape)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

func parseScrape(t *testing.T, scrape []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(scrape))
	if err != nil {
		t.Fatalf("parse the scrape: %v\n%s", err, scrape)
	}
	return families
}

// sample returns the value of the series of name whose labels include labels: a counter's or
// a gauge's value, a histogram's count.
func sample(families map[string]*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
	for _, m := range families[name].GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range labels {
			match = match && have[k] == v
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func eq(want float64) func(float64) bool      { return func(v float64) bool { return v == want } }
func atLeast(want float64) func(float64) bool { return func(v float64) bool { return v >= want } }
