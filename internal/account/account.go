// Package account is optional accounts: sign-up and sign-in with an email address and a
// password (argon2id), sign-in tokens of 256 random bits kept only as SHA-256 hashes with a
// sliding 30-day expiry, the user's document users/{uid}, export and deletion. Sign-in costs the
// same for an unknown address as for a wrong password, never says which of the two failed, and
// is rate limited per client address and per account from the recorded failures, so that the
// limit holds across server instances.
package account

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"handy/internal/docstore"
	"handy/internal/site"
	"handy/internal/store"
)

// Limits bound password guesses and sign-ups (throttle.go): so many at once, then the rest of
// the window's worth spread evenly over it. An address counts by its network (an IPv4 address,
// an IPv6 /64). A sign-in that succeeds gives back what it took.
type Limits struct {
	Window     time.Duration
	PerAddress int // password checks from one network (sign-ins, deletions, password changes)
	PerAccount int // password checks of one account from networks it has not signed in from
	// Sign-ups, per network and in all.
	SignupWindow      time.Duration
	SignupsPerAddress int
	Signups           int
}

// DefaultLimits allow a person a few typos and stop guessing; a household or an office may
// open a few accounts an hour, and a flood of sign-ups from everywhere stops at 1,000 an hour
// (the sign-up limits are -signup-limit's default and 100 times it).
var DefaultLimits = Limits{Window: 15 * time.Minute, PerAddress: 30, PerAccount: 5,
	SignupWindow: time.Hour, SignupsPerAddress: 10, Signups: 1000}

// User is an account.
type User struct {
	ID           string    `json:"id"`
	Email        string    `json:"email"`
	CreatedAt    time.Time `json:"createdAt"`
	LastSignInAt time.Time `json:"lastSignInAt"`
}

// Service manages accounts in a store.
type Service struct {
	store  *store.Store
	docs   *docstore.Store // users/{uid} and below
	logger *slog.Logger
	bounds site.Limits // what a password, a display name and an avatar may be
	// schema is the rules of users/{uid}, which the store applies to clients' commits too.
	schema *Schema
	params Params
	limits Limits
	// hashing caps the argon2id work running at once (hashcap.go).
	hashing *hashCap
	now     func() time.Time
	// dummy is a hash no password matches: an unknown address is checked against it, so that
	// it costs what a wrong password costs.
	dummy string
	// refusals logs refused attempts without letting a guesser flood the log.
	refusals refusalLog
	// metrics count them (metrics.go).
	metrics *metrics
}

// Option changes a Service's defaults (tests use cheaper hashing and a fake clock).
type Option func(*Service)

// WithParams sets the argon2id costs.
func WithParams(p Params) Option { return func(s *Service) { s.params = p } }

// WithLimits sets the limits; a field left zero keeps its default.
func WithLimits(l Limits) Option {
	return func(s *Service) {
		d := DefaultLimits
		s.limits = Limits{
			Window: cmp.Or(l.Window, d.Window), PerAddress: cmp.Or(l.PerAddress, d.PerAddress), PerAccount: cmp.Or(l.PerAccount, d.PerAccount),
			SignupWindow: cmp.Or(l.SignupWindow, d.SignupWindow), SignupsPerAddress: cmp.Or(l.SignupsPerAddress, d.SignupsPerAddress), Signups: cmp.Or(l.Signups, d.Signups),
		}
	}
}

// WithHashing sets the cap on password hashing.
func WithHashing(h Hashing) Option { return func(s *Service) { s.hashing = newHashCap(h) } }

// WithSchema sets the rules of the user's document, the same Schema whose Check the document
// store was given (docstore.Config.Check); by default, the site table's locales with bounds.
func WithSchema(sc *Schema) Option { return func(s *Service) { s.schema = sc } }

// WithClock sets the clock.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns a Service over a migrated store, whose users' documents are in docs, that holds
// accounts to the site's limits (site.json, which the front end checks too).
func New(st *store.Store, docs *docstore.Store, logger *slog.Logger, bounds site.Limits, opts ...Option) (*Service, error) {
	s := &Service{store: st, docs: docs, logger: logger, bounds: bounds, params: DefaultParams, limits: DefaultLimits,
		hashing: newHashCap(DefaultHashing()), now: nowMillis, schema: defaultSchema(bounds), metrics: newMetrics()}
	for _, o := range opts {
		o(s)
	}
	if err := s.metrics.register(); err != nil {
		return nil, err
	}
	dummy, err := dummyHash(s.params)
	if err != nil {
		return nil, err
	}
	s.dummy = dummy
	return s, nil
}

// Credentials are what sign-up and sign-in take.
type Credentials struct {
	Email    string
	Password string
	// Locale is the visitor's language code when they signed up or in (stored as preferred).
	Locale string
	// DisplayName is optional, at sign-up.
	DisplayName string
	// Address is the client's address, at sign-up: the limits count sign-ups by its network,
	// and the account knows the network from then on.
	Address string
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand panics rather than return an error since Go 1.24)
	return hex.EncodeToString(b)
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// nowMillis is the service's clock: times are stored in milliseconds, so they are answered in
// milliseconds too, the same whether they come from a sign-in or from a later read.
func nowMillis() time.Time { return time.Now().Truncate(time.Millisecond) }
