package analytics

import (
	"crypto/hmac"
	"crypto/sha256"
	"sync"
	"time"
)

// day is a UTC date, as days since 1970-01-01.
type day int64

func dayOf(t time.Time) day { return day(t.Unix() / 86400) }

// start returns the day's first instant.
func (d day) start() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String returns the day as stored: "2026-11-24".
func (d day) String() string { return d.start().Format(time.DateOnly) }

// saltSize is a daily salt's length in bytes.
const saltSize = 32

// visitorSize is how much of the HMAC a visitor key keeps: with 128 bits, two of a million
// visitors of one day share a key with a probability of about 10^-27.
const visitorSize = 16

// visitor identifies one visitor within one day: the first visitorSize bytes of
// HMAC-SHA256(the day's salt, address "\x00" user agent). Without the salt, deleted 48 hours
// after its day began, it cannot be linked to an address, nor across days.
type visitor [visitorSize]byte

func visitorKey(salt []byte, address, userAgent string) visitor {
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(address))
	m.Write([]byte{0})
	m.Write([]byte(userAgent))
	var v visitor
	copy(v[:], m.Sum(nil))
	return v
}

// saltCache holds the salts this instance hashes with: today's and, near midnight, tomorrow's,
// so that a page view never waits for the database.
type saltCache struct {
	mu    sync.RWMutex
	salts map[day][]byte
}

func (c *saltCache) get(d day) ([]byte, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := c.salts[d]
	return s, ok
}

func (c *saltCache) set(d day, salt []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.salts == nil {
		c.salts = make(map[day][]byte)
	}
	c.salts[d] = salt
}

// forgetBefore drops the salts of days before d: no page view is hashed with them again.
func (c *saltCache) forgetBefore(d day) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.salts {
		if k < d {
			delete(c.salts, k)
		}
	}
}
