package account

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics count refused sign-ups and sign-ins by reason. They always count; WithMetrics exports
// them.
type metrics struct {
	reg      prometheus.Registerer
	refusals *prometheus.CounterVec // by op (signup, signin) and reason (refusalReasons)
}

// refusalReasons name the domain errors that refuse a sign-up or a sign-in, as the refusals
// counter's reason label; anything else (the database failed, the client left) is "error".
// A sign-in never says which of address and password was wrong, and neither does its label.
var refusalReasons = []struct {
	err    error
	reason string
}{
	{ErrInvalidEmail, "invalid_email"},
	{ErrInvalidPassword, "invalid_password"},
	{ErrInvalidName, "invalid_name"},
	{ErrEmailTaken, "email_taken"},
	{ErrWrongSignIn, "wrong_credentials"},
	{ErrTooManySignups, "rate_limited"}, // before ErrRateLimited: a RateLimitError wraps either
	{ErrRateLimited, "rate_limited"},
	{ErrBusy, "busy"},
}

// The reasons each operation can give, for the series that exist from the start.
var (
	signupReasons = []string{"invalid_email", "invalid_password", "invalid_name", "email_taken", "rate_limited", "busy", "error"}
	signinReasons = []string{"invalid_email", "wrong_credentials", "rate_limited", "busy", "error"}
)

func newMetrics() *metrics {
	m := &metrics{refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "handy_account_refusals_total",
		Help: "Sign-ups and sign-ins refused, by op (signup, signin) and reason (invalid_email, invalid_password, invalid_name, email_taken, wrong_credentials, rate_limited, busy: too many passwords being hashed; error: a server failure)."},
		[]string{"op", "reason"})}
	for _, r := range signupReasons {
		m.refusals.WithLabelValues("signup", r)
	}
	for _, r := range signinReasons {
		m.refusals.WithLabelValues("signin", r)
	}
	return m
}

// WithMetrics registers the Service's metrics with reg: sign-up and sign-in refusals by reason.
// nil changes nothing.
func WithMetrics(reg prometheus.Registerer) Option { return func(s *Service) { s.metrics.reg = reg } }

func (m *metrics) register() error {
	if m.reg == nil {
		return nil
	}
	if err := m.reg.Register(m.refusals); err != nil {
		return fmt.Errorf("account: register metrics: %w", err)
	}
	return nil
}

// refused counts op's refusal err; a nil err counts nothing.
func (m *metrics) refused(op string, err error) {
	if err == nil {
		return
	}
	reason := "error"
	for _, r := range refusalReasons {
		if errors.Is(err, r.err) {
			reason = r.reason
			break
		}
	}
	m.refusals.WithLabelValues(op, reason).Inc()
}
