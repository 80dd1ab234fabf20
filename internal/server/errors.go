package server

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"strings"

	"handy/internal/site"
)

// handlerFunc is an HTTP handler that returns its failure instead of writing it; handle turns
// the error into a response.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// statusError is a failure whose status (and, for a validation failure, detail) the client may
// see. Any other error is a 500 whose cause is logged and never shown.
type statusError struct {
	status int
	detail string // shown on the 404 page: "Page Not Found: /xx/faq"
}

func (e *statusError) Error() string {
	if e.detail != "" {
		return e.detail
	}
	return http.StatusText(e.status)
}

// Client errors the handlers return.
var (
	errNotFound         = &statusError{status: http.StatusNotFound}
	errMethodNotAllowed = &statusError{status: http.StatusMethodNotAllowed}
	errURITooLong       = &statusError{status: http.StatusRequestURITooLong}
)

// errInvalidPath is a route validation failure: a 404 that names the path.
func errInvalidPath(path string) error {
	return &statusError{status: http.StatusNotFound, detail: "Page Not Found: " + path}
}

// panicError carries a recovered panic to the error adapter.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// detailMarker is where the 404 page takes the detail of a validation failure.
const detailMarker = "<!--handy:detail-->"

// handle adapts a handlerFunc: the one place where errors become responses.
func (s *Server) handle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

// writeError answers r with the status of err. A 404 or 500 gets the styled page in the
// language of the path's prefix; bots, and other statuses, get a one-line plain body. A cause
// that is not a statusError is logged once, with the request id, and never shown.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := http.StatusInternalServerError
	var se *statusError
	if errors.As(err, &se) {
		status = se.status
	} else {
		s.logFailure(w, r, err)
	}
	h := w.Header()
	for _, key := range []string{"Etag", "Content-Encoding", "Content-Length", "Last-Modified"} {
		delete(h, key)
	}
	loc := s.table.LocaleOf(r.URL.Path)
	switch {
	case site.IsBot(r.UserAgent()) || (status != http.StatusNotFound && status != http.StatusInternalServerError):
		writePlain(w, status)
	case status == http.StatusNotFound && se.detail != "":
		s.writeDetail(w, r, se.detail)
	case status == http.StatusNotFound:
		s.notFound[loc.Code].write(w, r, status)
	default:
		s.internalError[loc.Code].write(w, r, status)
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

// writeDetail writes the English 404 page with the escaped detail in place of its marker,
// gzipped on the fly when the client accepts it.
func (s *Server) writeDetail(w http.ResponseWriter, r *http.Request, detail string) {
	p := `<p class="error-detail">` + html.EscapeString(strings.ToValidUTF8(detail, "\uFFFD")) + `</p>`
	body := bytes.Replace(s.notFoundDetailPage, []byte(detailMarker), []byte(p), 1)
	e, err := buildEntry(entrySpec{body: body, contentType: contentTypeOf(".html"), cacheControl: cacheNoStore,
		vary: varyEncoding, compress: true}, gzip.DefaultCompression, -1)
	if err != nil {
		// Only a broken gzip writer fails here; the page is sent uncompressed instead.
		e, _ = buildEntry(entrySpec{body: body, contentType: contentTypeOf(".html"), cacheControl: cacheNoStore, vary: varyEncoding}, 0, -1)
	}
	e.write(w, r, http.StatusNotFound)
}
