package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// healthz says the process is alive.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	writeText(w, http.StatusOK, "ok\n")
	return nil
}

// readyz says the server takes traffic: its pages are loaded (New succeeded) and it is not
// shutting down. A load balancer stops sending requests once it answers 503.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	if s.draining.Load() {
		writeText(w, http.StatusServiceUnavailable, "shutting down\n")
		return nil
	}
	if s.ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.ready(ctx); err != nil {
			s.logger.Warn("not ready", slog.String("error", err.Error()))
			writeText(w, http.StatusServiceUnavailable, "database unavailable\n")
			return nil
		}
	}
	writeText(w, http.StatusOK, "ready\n")
	return nil
}

// writeText writes a short uncached plain-text answer. A failed write means the client went
// away; there is no one left to tell.
func writeText(w http.ResponseWriter, status int, text string) {
	h := w.Header()
	h["Content-Type"] = []string{"text/plain; charset=utf-8"}
	h["Cache-Control"] = []string{cacheNoStore}
	w.WriteHeader(status)
	io.WriteString(w, text)
}
