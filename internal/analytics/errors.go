package analytics

import (
	"errors"
	"time"
)

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

// ErrOverBudget: the visitor sent more page views this minute than the budget allows, or the
// budget's table is full of other visitors; the view was not counted. errors.Is finds it in a
// *BudgetError.
var ErrOverBudget = errors.New("analytics: too many page views from this visitor this minute")

// BudgetError is a page view refused by the per-visitor budget.
type BudgetError struct {
	// RetryAfter is how long until the minute ends and the budget is renewed.
	RetryAfter time.Duration
	// Full: the table of the minute's visitors was full, and this visitor not in it.
	Full bool
}

func (e *BudgetError) Error() string {
	if e.Full {
		return "analytics: too many visitors this minute; retry after " + e.RetryAfter.String()
	}
	return "analytics: too many page views from this visitor this minute; retry after " + e.RetryAfter.String()
}

// Unwrap makes errors.Is(err, ErrOverBudget) true.
func (e *BudgetError) Unwrap() error { return ErrOverBudget }
