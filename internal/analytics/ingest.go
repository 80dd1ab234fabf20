// Package analytics counts page views first-party and without cookies. The browser's tracker
// sends one beacon per page view (POST /api/v1/pageviews); Record validates it, drops bots,
// turns the visitor into a keyed hash with the day's salt and queues the view in memory,
// without waiting for the database; one writer goroutine adds the queued views to daily
// rollups, in one transaction per flush. No address or user agent is ever stored or logged.
package analytics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"handy/internal/site"
	"handy/internal/store"
)

// Defaults.
const (
	// DefaultRetention is how many days of rollups are kept (before today).
	DefaultRetention = 400
	// DefaultBuffer bounds the page views waiting to be written: about 15 MB at most.
	DefaultBuffer = 100_000
	// DefaultFlushEvery and DefaultFlushAt: the writer writes every second, or as soon as this
	// many views wait.
	DefaultFlushEvery = time.Second
	DefaultFlushAt    = 1000
	// DefaultReferrersPerDay is how many distinct referring hosts get rows of their own in a
	// day; the views of further hosts that day are counted under Other (referrers.go).
	DefaultReferrersPerDay = 1000
)

const (
	// maxFlush bounds the views one transaction writes, so that a backlog after an outage
	// goes out in transactions that each hold SQLite's write lock briefly.
	maxFlush = 10_000
	// flushTimeout bounds one flush's transaction: a stuck database fails the flush, whose
	// views are kept for the next one.
	flushTimeout = 30 * time.Second
	// startTimeout bounds New's first reading of the salts.
	startTimeout = 10 * time.Second
)

// Ingester validates, buffers and writes page views. Record is safe for concurrent use and never
// waits for the database; Close must be called to write what is buffered.
type Ingester struct {
	st         *store.Store
	pages      pages
	logger     *slog.Logger
	now        func() time.Time
	retention  int // days
	flushEvery time.Duration
	flushAt    int
	budget     *viewBudget
	caps       []valueCap // referrers and languages per day

	salts    saltCache
	buf      *buffer
	metrics  *metrics
	unhashed atomic.Int64 // views counted without their visitor since the last report

	kick         chan struct{} // buffered: flush now
	wake         chan struct{} // buffered: read the salts now
	closing      chan struct{} // closed by Close: write everything, then stop
	written      chan struct{} // closed when the writer has stopped
	writeCtx     context.Context
	cancelWrites context.CancelFunc // Close's deadline passed: give up
	lost         atomic.Int64       // views given up at Close
	closeOnce    sync.Once

	stopBackground context.CancelFunc
	background     sync.WaitGroup // salts and retention
}

// Option configures an Ingester.
type Option func(*Ingester)

// WithClock sets the source of the time that decides a view's day and what is old (tests);
// time.Now by default. The writer's pace follows the real clock.
func WithClock(now func() time.Time) Option { return func(in *Ingester) { in.now = now } }

// WithLogger sets where the Ingester logs what goes wrong (slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(in *Ingester) { in.logger = l } }

// WithRetention sets how many days of rollups are kept before today (DefaultRetention).
func WithRetention(days int) Option { return func(in *Ingester) { in.retention = max(days, 1) } }

// WithBuffer sets how many page views may wait to be written (DefaultBuffer).
func WithBuffer(views int) Option { return func(in *Ingester) { in.buf = newBuffer(max(views, 1)) } }

// WithFlush sets how often the writer writes, and how many waiting views make it write at once.
func WithFlush(every time.Duration, at int) Option {
	return func(in *Ingester) { in.flushEvery, in.flushAt = every, max(at, 1) }
}

// WithBudget sets how many page views one visitor (by the day's visitor key) may send in a
// minute, 0 for no limit (DefaultViewsPerMinute), and how many visitors of the minute are held
// in memory (DefaultBudgetVisitors).
func WithBudget(perMinute, visitors int) Option {
	return func(in *Ingester) { in.budget = newViewBudget(max(perMinute, 0), max(visitors, 1)) }
}

// WithReferrersPerDay sets how many distinct referring hosts get rows of their own in a day
// (DefaultReferrersPerDay); views from further hosts are counted under Other.
func WithReferrersPerDay(n int) Option {
	return func(in *Ingester) {
		for i := range in.caps {
			if in.caps[i].column == "referrer" {
				in.caps[i].limit = max(n, 0)
			}
		}
	}
}

// New returns an Ingester over st, which must be migrated, for the pages of table served at
// publicURL (a referrer on that host is the site itself). It reads the day's salt (a failure is
// logged and retried), then starts the writer and the housekeeping: salts and visitors
// deleted 48 hours after their day began, rollups older than the retention deleted hourly.
func New(ctx context.Context, st *store.Store, table *site.Table, publicURL string, opts ...Option) (*Ingester, error) {
	u, err := url.Parse(publicURL)
	if err != nil || u.Hostname() == "" {
		return nil, errors.New("analytics: the public URL must be an absolute URL with a host")
	}
	in := &Ingester{
		st:         st,
		pages:      newPages(table, u.Hostname()),
		logger:     slog.Default(),
		now:        time.Now,
		retention:  DefaultRetention,
		flushEvery: DefaultFlushEvery,
		flushAt:    DefaultFlushAt,
		buf:        newBuffer(DefaultBuffer),
		budget:     newViewBudget(DefaultViewsPerMinute, DefaultBudgetVisitors),
		caps:       defaultCaps(),
		metrics:    newMetrics(),
		kick:       make(chan struct{}, 1),
		wake:       make(chan struct{}, 1),
		closing:    make(chan struct{}),
		written:    make(chan struct{}),
	}
	for _, o := range opts {
		o(in)
	}
	if err := in.register(); err != nil {
		return nil, err
	}
	in.writeCtx, in.cancelWrites = context.WithCancel(context.Background())
	start, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := in.maintain(start); err != nil {
		in.logger.Warn("analytics: reading the day's salt failed; unique visitors are not counted until it succeeds",
			slog.String("error", err.Error()))
	}
	go in.writeLoop()
	bg, stop := context.WithCancel(context.Background())
	in.stopBackground = stop
	in.background.Go(func() { in.maintainLoop(bg) })
	in.background.Go(func() { in.purgeLoop(bg) })
	return in, nil
}

// Hit is a page-view beacon as the server received it.
type Hit struct {
	// Body is the beacon's body, at most MaxBeacon bytes: {"p", "l", "bl", "r", "s"}.
	Body []byte
	// Header is the request's: User-Agent, Accept-Language, Sec-GPC and the prefetch headers
	// are read.
	Header http.Header
	// Address is the client's IP address as the server derives it. It is hashed with the user
	// agent and the day's salt into the visitor's key, and never kept.
	Address string
}

// Record takes one page view. It returns a *BeaconError for a body that is not a valid beacon,
// a *BudgetError (ErrOverBudget) for a visitor (or bot) past the views allowed in a minute, ErrBusy
// when too many views wait to be written, ErrClosed once Close has begun, and nil when
// the view is counted, or dropped: a bot's (counted as such), and any view of a browser that
// sends Global Privacy Control (not counted at all).
func (in *Ingester) Record(h Hit) error {
	err := in.record(h)
	in.metrics.recorded(err)
	return err
}

// record is Record without its metrics.
func (in *Ingester) record(h Hit) error {
	v, err := in.pages.parse(h.Body)
	if err != nil {
		return err
	}
	if globalPrivacyControl(h.Header) {
		return nil
	}
	now := in.now()
	d := dayOf(now)
	e := event{day: d, minute: now.Unix() / 60, view: v}
	salt, salted := in.salts.get(d)
	if salted {
		e.visitor, e.hashed = visitorKey(salt, h.Address, h.Header.Get("User-Agent")), true
		// A bot's views spend the budget too: the bot count is a figure of the reports that a
		// flood would inflate as well. Without a salt there is no key to count by: such views
		// (rare, logged) are not limited, and still bounded by the buffer.
		if err := in.budget.spend(e.visitor, now); err != nil {
			return err
		}
	}
	if botReason(h.Header) != notBot {
		return in.buf.addBot(d)
	}
	if !salted {
		in.unhashed.Add(1)
		signal(in.wake)
	}
	n, err := in.buf.add(e)
	if err != nil {
		return err
	}
	if n >= in.flushAt {
		signal(in.kick)
	}
	return nil
}

// signal wakes the goroutine waiting on ch, unless it has been woken already.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Close refuses new page views, writes every one recorded (retrying while the database fails)
// and stops the housekeeping. If ctx ends first, it gives up on what is left and says how many
// views were lost. It does not close the database, which belongs to the caller.
func (in *Ingester) Close(ctx context.Context) error {
	in.closeOnce.Do(func() {
		in.buf.close()
		close(in.closing)
	})
	select {
	case <-in.written:
	case <-ctx.Done():
		in.cancelWrites()
		<-in.written
	}
	in.cancelWrites()
	in.stopBackground()
	in.background.Wait()
	if n := in.lost.Load(); n > 0 {
		return fmt.Errorf("analytics: %d page views not written before the deadline: %w", n, ctx.Err())
	}
	return nil
}
