package analytics

import "errors"

// Domain errors of Record. They carry no HTTP status: the server's table of domain errors
// (internal/server/errors_domain.go) decides what a client is told.
var (
	// ErrBusy: the buffer holds as many page views as it may; the view was not recorded.
	ErrBusy = errors.New("analytics: too many page views waiting to be written")
	// ErrClosed: the Ingester is closing; the view was not recorded.
	ErrClosed = errors.New("analytics: closed")
)

// BeaconError is a page view refused for its body. Its message is public: it names the field at
// fault and what the field must be, and never repeats anything of the request.
type BeaconError struct {
	// Field is the body's field at fault ("p", "l", "bl", "r", "s"), or "" when the body is not
	// one JSON object of strings.
	Field   string
	Message string
}

func (e *BeaconError) Error() string { return "analytics: " + e.Message }
