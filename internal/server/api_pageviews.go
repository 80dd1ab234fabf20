package server

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"handy/internal/analytics"
)

// pageviewRoutes is the page-view beacon (docs/api.md, "Page views"), cookieless: no XSRF
// cookie is issued or asked for.
//
//	POST /api/v1/pageviews  {p, l, bl, r, s} → 204
func (s *Server) pageviewRoutes() []apiRoute {
	return []apiRoute{{http.MethodPost, "/api/v1/pageviews", s.pageview}}
}

var (
	errBeaconType = &Error{Status: http.StatusUnsupportedMediaType, Code: "not-json",
		Message: "The body must be JSON, sent as text/plain (as navigator.sendBeacon sends a string) or application/json."}
	errBeaconTooLarge = &Error{Status: http.StatusRequestEntityTooLarge, Code: "too-large",
		Message: fmt.Sprintf("The request body is larger than %d bytes.", analytics.MaxBeacon)}
)

// pageview hands a beacon to the analytics, which answer at once: 204 whether the view was
// counted or dropped as a bot's, so that a bot learns nothing from the answer. The client's
// address goes to the analytics only to be hashed, and neither it nor the user agent is ever
// logged here.
func (s *Server) pageview(w http.ResponseWriter, r *http.Request) error {
	body, err := readBeacon(r)
	if err != nil {
		return err
	}
	if err := s.analytics.Record(analytics.Hit{Body: body, Header: r.Header, Address: s.clientAddress(r)}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// readBeacon reads a beacon's body: text/plain or application/json, at most
// analytics.MaxBeacon bytes, read through a limited reader.
func readBeacon(r *http.Request) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "text/plain" && mt != "application/json" {
		return nil, errBeaconType
	}
	if r.ContentLength > analytics.MaxBeacon {
		return nil, errBeaconTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, analytics.MaxBeacon+1))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge) || len(body) > analytics.MaxBeacon:
		return nil, errBeaconTooLarge
	case err != nil:
		return nil, &Error{Status: http.StatusBadRequest, Code: "invalid-json", Message: "The body could not be read.", Cause: err}
	}
	return body, nil
}
