package account

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"handy/internal/store/storetest"
)

// TestMetrics checks the refusals counted by reason: one of each the tests can cause cheaply,
// and every reason's series there from the start.
func TestMetrics(t *testing.T) {
	t.Parallel()
	st := storetest.Engines()[0].Open(t)
	reg := prometheus.NewRegistry()
	s, _ := newService(t, st, nil, WithMetrics(reg), WithLimits(Limits{SignupWindow: time.Hour, SignupsPerAddress: 1}))
	ctx := context.Background()
	signup := func(email, password, address string) {
		s.Signup(ctx, Credentials{Email: email, Password: password, Address: address})
	}
	signup("a@example.com", "right password", "192.0.2.1")
	signup("a@example.com", "right password", "192.0.2.2")  // taken
	signup("b@example.com", "right password", "192.0.2.1")  // the address's one sign-up an hour is spent
	signup("not an address", "right password", "192.0.2.3") // invalid email
	signup("c@example.com", "short", "192.0.2.4")           // invalid password
	s.Signin(ctx, Credentials{Email: "a@example.com", Password: "wrong password"}, "192.0.2.1")
	s.Signin(ctx, Credentials{Email: "nobody@example.com", Password: "wrong password"}, "192.0.2.1")
	s.Signin(ctx, Credentials{Email: "a@example.com", Password: "right password"}, "192.0.2.1")
	want := `
# HELP handy_account_refusals_total Sign-ups and sign-ins refused, by op (signup, signin) and reason (invalid_email, invalid_password, invalid_name, email_taken, wrong_credentials, rate_limited, busy: too many passwords being hashed; error: a server failure).
# TYPE handy_account_refusals_total counter
handy_account_refusals_total{op="signin",reason="busy"} 0
handy_account_refusals_total{op="signin",reason="error"} 0
handy_account_refusals_total{op="signin",reason="invalid_email"} 0
handy_account_refusals_total{op="signin",reason="rate_limited"} 0
handy_account_refusals_total{op="signin",reason="wrong_credentials"} 2
handy_account_refusals_total{op="signup",reason="busy"} 0
handy_account_refusals_total{op="signup",reason="email_taken"} 1
handy_account_refusals_total{op="signup",reason="error"} 0
handy_account_refusals_total{op="signup",reason="invalid_email"} 1
handy_account_refusals_total{op="signup",reason="invalid_name"} 0
handy_account_refusals_total{op="signup",reason="invalid_password"} 1
handy_account_refusals_total{op="signup",reason="rate_limited"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "handy_account_refusals_total"); err != nil {
		t.Error(err)
	}
}
