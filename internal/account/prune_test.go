package account

import (
	"context"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestPrune(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil)
		token, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "right password", Address: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		s.Signin(ctx, Credentials{Email: "a@example.com", Password: "wrong guess"}, "198.51.100.1")
		rows := func(table string) int {
			var n int
			if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if _, err := s.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"sessions", "signin_throttle", "signin_networks", "signin_failures"} {
			if rows(table) == 0 {
				t.Errorf("a fresh prune emptied %s", table)
			}
		}
		c.advance(TokenLifetime + time.Minute) // the session expired, the limits filled again
		if _, err := s.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		if rows("sessions") != 0 || rows("signin_throttle") != 0 {
			t.Errorf("after 30 days: %d sessions, %d limits left", rows("sessions"), rows("signin_throttle"))
		}
		if rows("signin_networks") != 1 || rows("signin_failures") != 0 {
			t.Errorf("after 30 days: %d networks (want the one kept a year), %d failures (want none)", rows("signin_networks"), rows("signin_failures"))
		}
		if _, err := s.Authenticate(ctx, token); err == nil {
			t.Error("the pruned session still authenticates")
		}
		c.advance(networkRetention)
		s.Prune(ctx)
		if rows("signin_networks") != 0 {
			t.Errorf("after a year: %d networks left", rows("signin_networks"))
		}
	})
}
