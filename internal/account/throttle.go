package account

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"time"

	"handy/internal/store"
)

// A rate lets burst attempts through at once, then one every per/burst: the generic cell rate
// algorithm (GCRA), which keeps one time per key. It is kept in the database and taken in one
// statement, so that 30 guesses at once against a limit of 5 let exactly 5 through, on any
// number of instances.
type rate struct {
	burst int
	per   time.Duration
}

// step is the time one attempt takes up, in the milliseconds the table counts in: rounded up,
// so that it is never 0 (a limit of a million an hour is 3.6 ms, not 3, and a hundred million is
// 1 ms, not nothing: with a step of 0, an attempt stamped a millisecond before another one
// already in the table would be refused).
func (r rate) step() int64 {
	return int64((r.per/time.Duration(max(1, r.burst)) + time.Millisecond - 1) / time.Millisecond)
}

// take counts one attempt against key. It answers whether the attempt may go on and, if not,
// how long until it may.
//
// Attempts made at once reach the table in any order, each stamped with the time its request
// began, so the last of a burst may carry an earlier time than the first: without some slack it
// would be refused although the burst is within the limit. The slack, half a step and at most
// two seconds, never lets one more attempt through in a burst; it only lets one through that
// much early once the burst is spent.
func (s *Service) take(ctx context.Context, key string, r rate, now time.Time) (time.Duration, error) {
	t := r.step()
	at := ms(now)
	limit := at + int64(r.burst-1)*t // the latest theoretical arrival time that lets one through on time
	accept := limit + min(t/2, 2000) // and with the slack
	var allowed int
	var tat int64
	err := s.store.QueryRow(ctx, `INSERT INTO signin_throttle (key, tat, allowed) VALUES (?, ?, 1)
		ON CONFLICT (key) DO UPDATE SET
			allowed = CASE WHEN signin_throttle.tat <= ? THEN 1 ELSE 0 END,
			tat = CASE WHEN signin_throttle.tat <= ?
				THEN (CASE WHEN signin_throttle.tat > ? THEN signin_throttle.tat ELSE ? END) + ?
				ELSE signin_throttle.tat END
		RETURNING allowed, tat`, key, at+t, accept, accept, at, at, t).Scan(&allowed, &tat)
	if err != nil {
		return 0, fmt.Errorf("account: count an attempt: %w", err)
	}
	if allowed == 1 {
		return 0, nil
	}
	return max(time.Second, time.Duration(tat-limit)*time.Millisecond), nil
}

// give returns an attempt taken from key: it succeeded, or it was never checked.
func (s *Service) give(ctx context.Context, key string, r rate) error {
	if _, err := s.store.Exec(ctx, "UPDATE signin_throttle SET tat = tat - ? WHERE key = ?", r.step(), key); err != nil {
		return fmt.Errorf("account: give back an attempt: %w", err)
	}
	return nil
}

// network is what the limits count an address as: an IPv4 address, or the /64 an IPv6 address
// is in (one subscriber's, who can use any address in it). Anything else counts as itself.
func network(address string) string {
	ip, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.String()
}

// networkKey is how a network an account signed in from is kept: hashed with the account's id,
// so that the table holds no address in the clear and cannot be joined across accounts.
func networkKey(userID, address string) string {
	sum := sha256.Sum256([]byte(userID + "\x00" + network(address)))
	return hex.EncodeToString(sum[:])
}

// knownNetwork reports whether the account has signed in from the address's network before
// (within networkRetention).
func (s *Service) knownNetwork(ctx context.Context, userID, address string, now time.Time) (bool, error) {
	var n int
	err := s.store.QueryRow(ctx, "SELECT COUNT(*) FROM signin_networks WHERE user_id = ? AND network = ? AND last_at > ?",
		userID, networkKey(userID, address), ms(now.Add(-networkRetention))).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("account: look up a known network: %w", err)
	}
	return n > 0, nil
}

// rememberNetwork records, in the sign-in's (or sign-up's) transaction, that the account
// signed in from the address's network.
func rememberNetwork(ctx context.Context, tx *store.Tx, userID, address string, now time.Time) error {
	_, err := tx.Exec(ctx, `INSERT INTO signin_networks (user_id, network, last_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id, network) DO UPDATE SET last_at = excluded.last_at`, userID, networkKey(userID, address), ms(now))
	if err != nil {
		return fmt.Errorf("account: remember the network: %w", err)
	}
	return nil
}

// networkRetention is how long a network an account signed in from stays known.
const networkRetention = 365 * 24 * time.Hour

// attempt is a password check under the limits: from an address, for an account (by its
// normalised email; userID is "" for an unknown address). The network's limit always applies;
// the account's only from a network the account has not signed in from, so that strangers'
// guesses elsewhere never stop the owner at home. done gives the attempts back when the
// password was right or was never checked.
type attempt struct {
	s     *Service
	keys  []string
	rates []rate
}

// begin counts an attempt against the limits before its password is checked. A refusal is a
// *RateLimitError.
func (s *Service) begin(ctx context.Context, email, userID, address string, now time.Time) (*attempt, error) {
	a := &attempt{s: s}
	rules := []struct {
		key  string
		rate rate
	}{{"address:" + network(address), rate{s.limits.PerAddress, s.limits.Window}}}
	known := false
	if userID != "" {
		var err error
		if known, err = s.knownNetwork(ctx, userID, address, now); err != nil {
			return nil, err
		}
	}
	if !known {
		rules = append(rules, struct {
			key  string
			rate rate
		}{"account:" + email, rate{s.limits.PerAccount, s.limits.Window}})
	}
	for _, r := range rules {
		wait, err := s.take(ctx, r.key, r.rate, now)
		if err != nil {
			return nil, err
		}
		if wait > 0 {
			// What this attempt took of the limits before stays taken: it was an attempt.
			return nil, &RateLimitError{RetryAfter: wait}
		}
		a.keys, a.rates = append(a.keys, r.key), append(a.rates, r.rate)
	}
	return a, nil
}

// refund gives back what the attempt took: the password was right, or it was never checked.
func (a *attempt) refund(ctx context.Context) error {
	for i, k := range a.keys {
		if err := a.s.give(ctx, k, a.rates[i]); err != nil {
			return err
		}
	}
	return nil
}
