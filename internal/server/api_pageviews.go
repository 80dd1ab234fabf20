package server

import (
	"net/http"

	"handy/internal/analytics"
)

// beaconTypes are the media types a beacon may be declared as: navigator.sendBeacon sends a
// string as text/plain;charset=UTF-8, and other clients send application/json.
var beaconTypes = []string{"text/plain", "application/json"}

// pageview hands a beacon to the analytics, which answer at once: 204 whether the view was
// counted or dropped as a bot's, so that a bot learns nothing from the answer; past the
// sender's budget of views a minute, 429 for browsers and bots alike. The client's
// address goes to the analytics only to be hashed, and neither it nor the user agent is ever
// logged here.
func (s *Server) pageview(w http.ResponseWriter, r *http.Request) error {
	var body keysOf[analytics.Beacon]
	if err := s.readBody(w, r, "", beaconTypes, analytics.MaxBeacon, &body); err != nil {
		return err
	}
	if err := s.analytics.Record(analytics.Hit{Body: body.body, Header: r.Header, Address: s.clientAddress(r)}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
