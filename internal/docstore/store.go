package docstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/store"
)

// Store is the document store over a migrated database of either engine. Reads go straight to
// the database; commits go through one committer goroutine per Store (see Commit), so Close
// must be called.
type Store struct {
	st     *store.Store
	id     string // this Store among the instances on one database, in notifications
	logger *slog.Logger
	now    func() time.Time
	notify func(owners map[string]int64)
	hub    *hub
	rate   float64 // cost units (cost.go) per second per user, refilled continuously
	burst  float64 // the bucket's size: units a user may spend at once
	quota  int64   // bytes of documents per owner (storedSize); 0: none
	// retention is how long tombstones are kept (DefaultTombstoneRetention).
	retention time.Duration
	cfg       Config
	// reads bounds the reads that hand documents on one at a time (readslots.go).
	reads *readSlots
	// metrics count commits, refusals, the queue and the listens (metrics.go).
	metrics *metrics

	groupCost int                    // bounds a group's cost (maxGroupCost; tests lower it)
	groupHook func(group []*pending) // tests: called before each group is committed

	queue          chan *pending
	closing        chan struct{} // closed by Close: no new commits
	done           chan struct{} // closed when the committer has answered everything queued
	closeOnce      sync.Once
	stopBackground context.CancelFunc
	background     sync.WaitGroup // the relay and the pruning
}

// Default limits, in cost units (cost.go: a small write is 1). The write rate lets a client
// that was offline replay what it queued at once (the browser sends up to 500 writes per
// commit; 2,000 is a long offline session of saves, deletions and preference changes) and
// then write a few times a second, far above what a person using the tools produces; the burst
// also holds the costliest commit (MaxCommitCost). At 10 units a second one user holds the
// committer for at most about 1.6 ms a second (160 µs a unit on SQLite).
const (
	DefaultWriteRate  = 10   // units per second per user
	DefaultWriteBurst = 3000 // units at once: four full batches of 500 small writes, or MaxCommitCost
)

// Option configures a Store.
type Option func(*Store)

// WithClock sets the source of commit times (tests); time.Now by default.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// WithLogger sets where the Store logs what goes wrong outside a request (slog.Default()).
func WithLogger(l *slog.Logger) Option { return func(s *Store) { s.logger = l } }

// WithNotify sets the hook told, after every transaction that changed documents, the owners
// whose documents changed and the version of their newest change. It runs on the committer
// goroutine before the commits are answered, so it must not block: hand the news on (a
// channel, pg_notify from another goroutine) and return.
func WithNotify(fn func(owners map[string]int64)) Option {
	return func(s *Store) { s.notify = fn }
}

// WithWriteRate sets the per-user write rate: perSecond cost units refilled continuously into
// a bucket of burst units; a commit takes what it costs (cost.go: 1 per small write). New
// raises burst to Config.MaxWrites if it is below, as a full batch could otherwise never pass.
func WithWriteRate(perSecond float64, burst int) Option {
	return func(s *Store) { s.rate, s.burst = perSecond, float64(burst) }
}

// WithTombstoneRetention sets how long a deleted document's tombstone is kept for listens;
// pruning runs every hour, or every retention when that is shorter (a test's few seconds).
func WithTombstoneRetention(d time.Duration) Option {
	return func(s *Store) { s.retention = d }
}

// New returns a Store over st, which must be migrated, keeping the limits of cfg, and starts its committer, the hourly
// pruning of old tombstones and, on PostgreSQL, the relay of other instances' commits to this
// one's listens.
func New(st *store.Store, cfg Config, opts ...Option) *Store {
	if cfg.MaxWrites < 1 {
		// Every commit with a write would fail: a wiring mistake, not a condition to handle.
		panic(fmt.Sprintf("docstore: Config.MaxWrites is %d", cfg.MaxWrites))
	}
	id := make([]byte, 8)
	rand.Read(id) // never fails (crypto/rand)
	s := &Store{
		st:        st,
		id:        hex.EncodeToString(id),
		logger:    slog.Default(),
		hub:       newHub(),
		now:       time.Now,
		notify:    func(map[string]int64) {},
		rate:      DefaultWriteRate,
		burst:     DefaultWriteBurst,
		retention: DefaultTombstoneRetention,
		cfg:       cfg,
		reads:     newReadSlots(DefaultReadSlots, DefaultReadSlotsPerUser),
		metrics:   newMetrics(),
		queue:     make(chan *pending, queueSize),
		closing:   make(chan struct{}),
		done:      make(chan struct{}),
	}
	s.quota, s.groupCost = DefaultStorageQuota, maxGroupCost
	for _, o := range opts {
		o(s)
	}
	s.burst = max(s.burst, float64(cfg.MaxWrites))
	if err := s.register(); err != nil {
		// The registry already holds a Store's metrics: a wiring mistake, like MaxWrites above.
		panic(err)
	}
	go s.commitLoop()
	ctx, cancel := context.WithCancel(context.Background())
	s.stopBackground = cancel
	s.background.Go(func() { s.pruneLoop(ctx) })
	if st.Engine() == store.Postgres {
		s.background.Go(func() { s.relay(ctx) })
	}
	return s
}

// Close stops accepting commits, waits until every queued one is committed and answered, ends
// the listens waiting, and returns. It does not close the database, which belongs to the caller.
func (s *Store) Close() error {
	s.closeOnce.Do(func() { close(s.closing) })
	<-s.done
	s.stopBackground()
	s.background.Wait()
	return nil
}

// authorize applies the access rule to a document or collection path: a signed-in caller
// reads and writes only users/{caller} and below.
func authorize(caller string, p value.Path) error {
	if caller == "" {
		return &status.Error{Code: status.ErrUnauthenticated, Message: "sign in to read or write documents"}
	}
	if owner, ok := p.Owner(); !ok || owner != caller {
		return &status.Error{Code: status.ErrPermissionDenied, Message: fmt.Sprintf("no access to %q: only users/{your uid} and below", p.String())}
	}
	return nil
}

// Get returns the document at p, or a not-found Error when there is none (or it was deleted).
func (s *Store) Get(ctx context.Context, caller string, p value.Path) (value.Doc, error) {
	if err := authorize(caller, p); err != nil {
		return value.Doc{}, err
	}
	if !p.IsDocument() {
		return value.Doc{}, status.Invalidf("%q is a collection, not a document", p.String())
	}
	var fields sql.NullString
	var created, updated, version int64
	err := s.st.QueryRow(ctx, "SELECT fields, create_time, update_time, version FROM docs WHERE path = ?", p.String()).
		Scan(&fields, &created, &updated, &version)
	if errors.Is(err, sql.ErrNoRows) || err == nil && !fields.Valid {
		return value.Doc{}, &status.Error{Code: status.ErrNotFound, Message: fmt.Sprintf("document %q not found", p.String())}
	}
	if err != nil {
		return value.Doc{}, fmt.Errorf("docstore: get %s: %w", p.String(), err)
	}
	d, err := storedDoc(p, fields.String, created, updated, version)
	if err != nil {
		return value.Doc{}, fmt.Errorf("docstore: get: %w", err)
	}
	return d, nil
}

// storedDoc rebuilds a Doc from a live docs row.
func storedDoc(p value.Path, fields string, created, updated, version int64) (value.Doc, error) {
	f, err := value.DecodeFields([]byte(fields))
	if err != nil {
		return value.Doc{}, fmt.Errorf("stored fields of %s: %w", p.String(), err)
	}
	return value.Doc{Path: p, Fields: f, CreateTime: fromMicros(created), UpdateTime: fromMicros(updated), Version: version}, nil
}

func fromMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// ExportDoc is one document in an account export, decoded to plain JSON (see PlainJSON).
type ExportDoc struct {
	Path       string    `json:"path"`
	CreateTime time.Time `json:"createTime"`
	UpdateTime time.Time `json:"updateTime"`
	Fields     any       `json:"fields"`
}

// Export returns every live document of uid, in path order, for the account's data export. It
// collects ExportEach's documents: the HTTP API uses ExportEach, which never holds more than one.
func (s *Store) Export(ctx context.Context, uid string) ([]ExportDoc, error) {
	all := []ExportDoc{}
	err := s.ExportEach(ctx, uid, func(d ExportDoc) error {
		all = append(all, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// ExportEach hands every live document of uid to yield, one at a time in path order (see
// Path.Compare), as they are read. Like QueryEach it holds the statement's connection until the
// last row, so it waits for one of the read slots (readslots.go) first, until ctx ends. An
// error from yield stops the read and is returned as it is.
func (s *Store) ExportEach(ctx context.Context, uid string, yield func(ExportDoc) error) error {
	release, err := s.reads.acquire(ctx, uid)
	if err != nil {
		return fmt.Errorf("docstore: export %s: %w", uid, err)
	}
	defer release()
	fail := func(err error) error { return fmt.Errorf("docstore: export %s: %w", uid, err) }
	// One statement outside a transaction: one snapshot, without SQLite's write lock, which
	// the committer needs. Sorted by the database, segment by segment: the path's own text
	// order is not the order of paths ("a/x" after "a-b/x"), so the sort key splits it at its
	// slashes (PostgreSQL: an array of its segments, compared element by element, a prefix
	// first) or puts the byte 0, below any other, in their place (SQLite; a segment holding
	// the byte 0 itself, which PostgreSQL cannot store, may sort out of place).
	order := "replace(path, '/', char(0))"
	if s.st.Engine() == store.Postgres {
		order = "string_to_array(path, '/')"
	}
	rows, err := s.st.Query(ctx, "SELECT path, fields, create_time, update_time FROM docs WHERE owner = ? AND fields IS NOT NULL ORDER BY "+order, uid)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var path, fields string
		var created, updated int64
		if err := rows.Scan(&path, &fields, &created, &updated); err != nil {
			return fail(err)
		}
		p, err := value.ParseDocumentPath(path)
		if err != nil {
			return fail(fmt.Errorf("stored path %q: %w", path, err))
		}
		d, err := storedDoc(p, fields, created, updated, 0)
		if err != nil {
			return fail(err)
		}
		if err := yield(ExportDoc{Path: path, CreateTime: d.CreateTime, UpdateTime: d.UpdateTime, Fields: value.PlainJSON(d.Fields)}); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	return nil
}

// DeleteOwner erases every document of uid, tombstones included, with their index rows, the
// answers remembered for exactly-once commits, the write-rate bucket and the storage used: the account's
// deletion calls it in its own transaction. It takes the commit clock's row lock first, so a
// commit of uid's running at the same time on another instance either finishes before or
// waits and then writes after; the account deletion must end uid's sessions in the same
// transaction so that no such commit is authorised afterwards.
func DeleteOwner(ctx context.Context, tx *store.Tx, uid string) error {
	if _, err := tx.Exec(ctx, "UPDATE doc_clock SET version = version WHERE id = 1"); err != nil {
		return fmt.Errorf("docstore: delete the documents of %s: lock the clock: %w", uid, err)
	}
	for _, stmt := range []string{
		"DELETE FROM doc_index WHERE path IN (SELECT path FROM docs WHERE owner = ? AND fields IS NOT NULL)",
		"DELETE FROM docs WHERE owner = ?",
		"DELETE FROM doc_batches WHERE owner = ?",
		"DELETE FROM doc_rate WHERE owner = ?",
		"DELETE FROM doc_counts WHERE owner = ?",
		"DELETE FROM doc_usage WHERE owner = ?",
		"DELETE FROM doc_pruned WHERE owner = ?",
	} {
		if _, err := tx.Exec(ctx, stmt, uid); err != nil {
			return fmt.Errorf("docstore: delete the documents of %s: %w", uid, err)
		}
	}
	return nil
}
