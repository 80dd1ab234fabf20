package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"path"
	"runtime/debug"
	"strings"
	"time"
)

const (
	maxURILength = 2048          // longer request targets get 414
	maxBodyBytes = maxCommitBody // no request body is longer; each endpoint has its own lower bound
)

// statusWriter remembers the status written, so that recovery knows whether a 500 page can
// still be sent and the access log knows what was answered.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 && status >= 200 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// middleware wraps next with, in order: a request id, the security headers, the metrics
// (WithMetrics), panic recovery
// (→ 500, through writeError like any error), the URI length and body limits, and the access
// log (at debug level).
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Request-Id"] = []string{newRequestID()}
		for _, sh := range s.securityHeaders {
			h[sh.key] = sh.value
		}
		sw := &statusWriter{ResponseWriter: w}
		if m := s.metrics; m != nil {
			m.inFlight.Inc()
			// Deferred before the recovery, so it runs after: a panic's 500 is counted too.
			defer func(start time.Time) {
				m.inFlight.Dec()
				m.observe(s.routePatterns, r, sw.status, start)
			}(time.Now())
		}
		defer s.recoverPanic(sw, r)
		if s.logger.Enabled(r.Context(), slog.LevelDebug) {
			defer s.logAccess(sw, r, time.Now())
		}
		if len(r.RequestURI) > maxURILength {
			s.writeError(sw, r, errURITooLong)
			return
		}
		if r.ProtoMajor == 1 && len(r.TransferEncoding) > 0 {
			// net/http lets Transfer-Encoding override a Content-Length and drops the latter, so
			// a request with both (the ambiguity request smuggling exploits) cannot be told
			// from a chunked one here: neither is taken, and the connection, whose framing a
			// proxy in front may read otherwise, is not used again. Browsers send a length.
			h["Connection"] = []string{"close"}
			s.writeError(sw, r, errChunkedBody)
			return
		}
		if uncleanAPIPath(r.URL.Path) {
			// ServeMux would redirect with an HTML body; the API answers JSON, and a path with
			// "//", "." or ".." names no endpoint.
			s.writeError(sw, r, errAPINotFound)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			held := &heldBody{ReadCloser: http.MaxBytesReader(sw, r.Body, maxBodyBytes)}
			defer held.end() // the body budget's reservation, taken by readJSON
			r.Body = held
		}
		next.ServeHTTP(sw, r)
	})
}

// recoverPanic turns a panic into a logged 500. When the response has already begun, it can
// only abort the connection so that the client does not take a truncated body for whole.
func (s *Server) recoverPanic(w *statusWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if err, ok := v.(error); ok && errors.Is(err, http.ErrAbortHandler) {
		panic(v)
	}
	err := &panicError{value: v, stack: debug.Stack()}
	if w.status != 0 {
		s.logFailure(w, r, err)
		panic(http.ErrAbortHandler)
	}
	s.writeError(w, r, err)
}

func (s *Server) logAccess(w *statusWriter, r *http.Request, start time.Time) {
	s.logger.LogAttrs(r.Context(), slog.LevelDebug, "request",
		slog.String("request_id", w.Header().Get("X-Request-Id")),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", w.status),
		slog.Duration("duration", time.Since(start)))
}

// newRequestID returns a random id for this request (96 bits): unique, and saying nothing of
// how many requests the server has answered or which came before.
func newRequestID() string {
	var raw [12]byte
	rand.Read(raw[:]) // never fails (crypto/rand panics rather than return an error since Go 1.24)
	return hex.EncodeToString(raw[:])
}

// uncleanAPIPath reports whether path is /api itself or an API path that ServeMux would
// redirect to its clean form.
func uncleanAPIPath(p string) bool {
	if p == "/api" {
		return true
	}
	if !isAPI(p) {
		return false
	}
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	return clean != p
}
