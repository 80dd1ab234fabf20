package account

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// refusalLog keeps refused attempts from flooding the log: a guesser held back by the limits
// would write a line per attempt (2,200 a minute from one in the load test). The first refusal of
// a kind and key (an address and a network, a user and a network, a sign-up limit) is logged,
// then at most one a minute, saying how many were left out since.
type refusalLog struct {
	mu   sync.Mutex
	seen map[string]*refusals
}

type refusals struct {
	last    time.Time
	skipped int
}

const (
	refusalInterval = time.Minute
	// maxRefusalKeys bounds the memory: past it the record starts afresh (at worst a line more
	// for each key then).
	maxRefusalKeys = 10_000
)

// log writes msg (a "… refused" warning with attrs) unless the same kind and key was logged less
// than refusalInterval ago.
func (r *refusalLog) log(logger *slog.Logger, now time.Time, msg, key string, attrs ...slog.Attr) {
	r.mu.Lock()
	if r.seen == nil || len(r.seen) >= maxRefusalKeys {
		r.seen = make(map[string]*refusals)
	}
	k := msg + "\x00" + key
	rec, ok := r.seen[k]
	if ok && now.Sub(rec.last) < refusalInterval {
		rec.skipped++
		r.mu.Unlock()
		return
	}
	skipped := 0
	if ok {
		skipped = rec.skipped
	}
	r.seen[k] = &refusals{last: now}
	r.mu.Unlock()
	if skipped > 0 {
		attrs = append(attrs, slog.Int("refused_since_last_line", skipped))
	}
	logger.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
}
