package server

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"handy/internal/site"
)

// handlerFunc is an HTTP handler that returns its failure instead of writing it; handle turns
// the error into a response. Pages and the JSON API alike are handlerFuncs.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// Error is a failure as the client sees it: a status, a stable code for programs and a message
// for people, kept apart from the internal cause, which is logged (for a 5xx) and never shown.
// Any error that is not an Error, nor wraps one, nor is a domain error of the table in
// errors_domain.go, is a 500.
type Error struct {
	Status int
	// Code is stable: the front end maps it to its own words ("email-taken").
	Code string
	// Message is public. On a page, a 404's message is its detail ("Page Not Found: /xx/faq");
	// an empty one leaves the status's own text, and the styled page.
	Message string
	// RetryAfter, when positive, is sent as Retry-After (whole seconds, rounded up).
	RetryAfter time.Duration
	Cause      error
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if e.Cause != nil {
		return msg + ": " + e.Cause.Error()
	}
	return msg
}

// Unwrap returns the internal cause.
func (e *Error) Unwrap() error { return e.Cause }

// Client errors the handlers return; the API's own are in api.go.
var (
	errNotFound         = &Error{Status: http.StatusNotFound, Code: "not-found"}
	errMethodNotAllowed = &Error{Status: http.StatusMethodNotAllowed, Code: "method-not-allowed"}
	errURITooLong       = &Error{Status: http.StatusRequestURITooLong, Code: "uri-too-long", Message: "The request URI is too long."}
	errChunkedBody      = &Error{Status: http.StatusBadRequest, Code: "transfer-encoding", Message: "Send a request body with Content-Length alone: Transfer-Encoding is not accepted on requests."}
	errInternal         = &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "Something went wrong on our side."}
)

// errInvalidPath is a route validation failure: a 404 that names the path.
func errInvalidPath(path string) error {
	return &Error{Status: http.StatusNotFound, Code: "not-found", Message: "Page Not Found: " + path}
}

// panicError carries a recovered panic to the error adapter.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// handle adapts a handlerFunc: the one place where errors become responses.
func (s *Server) handle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r)
		switch {
		case err == nil:
		case r.Context().Err() != nil && errors.Is(err, r.Context().Err()):
			// The client went away (a closed tab ending its long poll): nobody to answer,
			// nothing that failed.
		default:
			s.writeError(w, r, err)
		}
	})
}

// publicError returns what the client is told about err: the Error it is or wraps, else its
// domain error's entry in the table, else a 500.
func (s *Server) publicError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if e, ok := s.domainErrors.lookup(err); ok {
		return e
	}
	return errInternal
}

// writeError answers r with err: on an API path as JSON, {"error": {"code", "message"}};
// elsewhere a 404 or 500 gets the styled page in the language of the path's prefix, and bots,
// and other statuses, a one-line plain body. The cause of a 5xx is logged once, with the
// request id, and never shown.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := s.publicError(err)
	// A 503 of the server's own choosing (shutting down) has no cause to log.
	if e.Status == http.StatusInternalServerError || e.Status > http.StatusInternalServerError && e.Cause != nil {
		s.logFailure(w, r, err)
	}
	h := w.Header()
	for _, key := range []string{"Etag", "Content-Encoding", "Content-Length", "Last-Modified"} {
		delete(h, key)
	}
	if e.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
	if isAPI(r.URL.Path) {
		writeAPIError(w, e)
		return
	}
	loc := s.table.LocaleOf(r.URL.Path)
	switch {
	case site.IsBot(r.UserAgent()) || (e.Status != http.StatusNotFound && e.Status != http.StatusInternalServerError):
		writePlain(w, e.Status)
	case e.Status == http.StatusNotFound && e.Message != "":
		s.pages.NotFoundDetail(e.Message).Write(w, r, e.Status)
	case e.Status == http.StatusNotFound:
		s.pages.NotFound(loc.Code).Write(w, r, e.Status)
	default:
		s.pages.InternalError(loc.Code).Write(w, r, e.Status)
	}
}

// logFailure logs the cause of a 500.
func (s *Server) logFailure(w http.ResponseWriter, r *http.Request, err error) {
	attrs := []slog.Attr{
		slog.String("request_id", w.Header().Get("X-Request-Id")),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.String("error", err.Error()),
	}
	var pe *panicError
	if errors.As(err, &pe) {
		attrs = append(attrs, slog.String("stack", string(pe.stack)))
	}
	s.logger.LogAttrs(r.Context(), slog.LevelError, "request failed", attrs...)
}

// writePlain writes the one-line body bots and non-page errors get: "404 Page Not Found".
func writePlain(w http.ResponseWriter, status int) {
	text := http.StatusText(status)
	if status == http.StatusNotFound {
		text = "Page Not Found"
	}
	h := w.Header()
	h["Content-Type"] = []string{"text/plain; charset=utf-8"}
	h["Cache-Control"] = []string{cacheNoStore}
	w.WriteHeader(status)
	fmt.Fprintf(w, "%d %s\n", status, text)
}
