package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The HTTP metrics are labelled by the route table's pattern ("POST /api/v1/db/commit", "/" for
// every page), never by the request's path, and by the status code the server wrote: both come
// from bounded sets, whatever clients ask for. Requests no pattern took (refused by the
// middleware before routing, or ServeMux's own 405s and redirects) are routeUnmatched.
const routeUnmatched = "unmatched"

// httpMetrics are the server's Prometheus metrics; nil when WithMetrics was not given, and then
// the middleware measures nothing.
type httpMetrics struct {
	requests *prometheus.CounterVec   // by route and code
	duration *prometheus.HistogramVec // by route
	inFlight prometheus.Gauge
}

// durationBuckets span a page from memory (well under a millisecond) to a listen's 30 s.
var durationBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// WithMetrics registers the server's metrics with reg: requests by route pattern and status
// code, their duration by route, the requests in flight, and the bytes held by answer spools
// and request bodies. nil changes nothing.
func WithMetrics(reg prometheus.Registerer) Option { return func(s *Server) { s.metricsReg = reg } }

// registerMetrics makes and registers the metrics, if WithMetrics named a registry.
func (s *Server) registerMetrics() error {
	reg := s.metricsReg
	if reg == nil {
		return nil
	}
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "handy_http_requests_total",
			Help: "HTTP requests answered, by the route table's pattern (\"unmatched\": refused before routing) and status code."},
			[]string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "handy_http_request_duration_seconds",
			Help: "Time from a request's headers to the end of its answer, by route pattern (listens wait up to 30 s by design).", Buckets: durationBuckets},
			[]string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "handy_http_requests_in_flight",
			Help: "HTTP requests being answered."}),
	}
	gauge := func(name, help string, bytes func() int64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return float64(bytes()) })
	}
	for _, c := range []prometheus.Collector{
		m.requests, m.duration, m.inFlight,
		gauge("handy_answer_spool_memory_bytes", "Bytes of answers being sent held in memory (at most 32 MiB).",
			func() int64 { used, _ := s.spools.mem.held(""); return used }),
		gauge("handy_answer_spool_disk_bytes", "Bytes of answers being sent held in temporary files (at most -answer-spool-bytes).",
			func() int64 { used, _ := s.spools.disk.held(""); return used }),
		gauge("handy_request_body_bytes", "Request-body bytes reserved by requests being read and parsed (at most -body-budget and a quarter more).",
			func() int64 { used, _ := s.bodies.held(""); return used }),
	} {
		if err := reg.Register(c); err != nil {
			return fmt.Errorf("server: register metrics: %w", err)
		}
	}
	s.metrics = m
	return nil
}

// observe counts a request answered with status after start; r.Pattern is the pattern that
// ServeMux routed it by, which counts only when the route table holds it.
func (m *httpMetrics) observe(routes map[string]bool, r *http.Request, status int, start time.Time) {
	route := r.Pattern
	if !routes[route] {
		route = routeUnmatched
	}
	if status == 0 {
		status = http.StatusOK // nothing written: net/http sends 200
	}
	m.duration.WithLabelValues(route).Observe(time.Since(start).Seconds())
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
}

// routeMux is the route table's ServeMux, which remembers its patterns: the values the route
// label may take. Request.Pattern alone will not do: for some redirects ServeMux sets it to
// the request's path.
type routeMux struct {
	*http.ServeMux
	patterns map[string]bool
}

func newRouteMux() *routeMux {
	return &routeMux{ServeMux: http.NewServeMux(), patterns: map[string]bool{}}
}

// Handle registers h for pattern, as ServeMux.Handle does.
func (m *routeMux) Handle(pattern string, h http.Handler) {
	m.patterns[pattern] = true
	m.ServeMux.Handle(pattern, h)
}

// NewMetricsServer serves g's metrics at GET /metrics on addr, a listener apart from the
// site's (-metrics-addr): the site's handler never serves them. Anything else is a 404.
func NewMetricsServer(addr string, g prometheus.Gatherer, logger *slog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{
		ErrorLog:      slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		ErrorHandling: promhttp.ContinueOnError, // a collector's failure leaves the others' metrics
	}))
	return newHTTPServer(addr, mux, logger)
}
