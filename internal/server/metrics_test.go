package server

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"handy/internal/config"
	"handy/internal/site"
)

// TestMetricsLabelsBounded sends a hundred requests for random paths, of every kind (pages,
// API paths, unclean paths, sitemaps, other methods, CONNECT): the route label takes only the
// route table's patterns, never a path, and the series do not grow with the paths asked for.
func TestMetricsLabelsBounded(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	table := site.Default()
	s, err := New(config.Config{PublicURL: httpOrigin}, table, fixtureDist(table), slog.New(slog.NewTextHandler(io.Discard, nil)),
		quickCompression, WithMetrics(reg))
	if err != nil {
		t.Fatal(err)
	}
	serve := func(method, target string) {
		s.Handler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, target, nil))
	}
	// Each kind of request once, with a path of its own, then a hundred with random paths: the
	// same kinds, so the same series.
	targets := func(r string) []string {
		return []string{"/" + r, "/api/v1/" + r, "/en/" + r + "/", "/" + r + "/sitemap.xml", "/api//" + r, "/" + r + "/../x"}
	}
	methods := []string{http.MethodGet, http.MethodPost, http.MethodHead, http.MethodPut, http.MethodConnect}
	for _, target := range targets("warm-up") {
		for _, method := range methods {
			serve(method, target)
		}
	}
	serve(http.MethodGet, table.Routes()[0].Path)
	before := testutil.CollectAndCount(s.metrics.requests)
	var random []string
	for i := range 100 {
		b := make([]byte, 8)
		rand.Read(b)
		r := hex.EncodeToString(b)
		random = append(random, r)
		serve(methods[i%len(methods)], targets(r)[i%6])
	}
	routes := map[string]bool{}
	for _, mf := range gather(t, reg, "handy_http_requests_total", "handy_http_request_duration_seconds") {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "route" {
					routes[l.GetValue()] = true
				}
			}
		}
	}
	for route := range routes {
		if !s.routePatterns[route] && route != routeUnmatched {
			t.Errorf("route label %q is not a pattern of the route table", route)
		}
		for _, r := range random {
			if strings.Contains(route, r) {
				t.Errorf("route label %q holds a requested path", route)
			}
		}
	}
	if after := testutil.CollectAndCount(s.metrics.requests); after != before {
		t.Errorf("%d request series after a hundred random paths, %d before", after, before)
	}
	if n := testutil.ToFloat64(s.metrics.inFlight); n != 0 {
		t.Errorf("%g requests in flight once all are answered", n)
	}
}

func gather(t *testing.T, reg *prometheus.Registry, names ...string) map[string]*dto.MetricFamily {
	t.Helper()
	all, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, mf := range all {
		for _, n := range names {
			if mf.GetName() == n {
				out[n] = mf
			}
		}
	}
	if len(out) != len(names) {
		t.Fatalf("gathered %d of the families %v", len(out), names)
	}
	return out
}
