package account

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRefusalLog: a refusal is logged once a minute per kind and key, saying how many were left
// out since; another key or kind is logged at once; many at once stay bounded.
func TestRefusalLog(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&out, nil))
	var r refusalLog
	t0 := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for i := range 2200 {
		r.log(logger, t0.Add(time.Duration(i)*25*time.Millisecond), "sign-in refused", "a@example.com 192.0.2.0", slog.String("email", "a@example.com"))
	}
	r.log(logger, t0, "sign-in refused", "b@example.com 192.0.2.0")
	r.log(logger, t0, "deletion refused", "a@example.com 192.0.2.0")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// 2,200 attempts over 55 s: one line for the key, one for the other key, one for the other kind.
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(lines), out.String())
	}
	out.Reset()
	r.log(logger, t0.Add(61*time.Second), "sign-in refused", "a@example.com 192.0.2.0")
	if !strings.Contains(out.String(), "refused_since_last_line=2199") {
		t.Errorf("a minute later: %q, want the 2,199 left out counted", out.String())
	}

	var many refusalLog
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 10_000 {
				many.log(slog.New(slog.DiscardHandler), t0, "sign-up refused", string(rune('a'+w))+strings.Repeat("x", i%5000))
			}
		})
	}
	wg.Wait()
	if len(many.seen) > maxRefusalKeys {
		t.Errorf("%d keys kept, over the bound of %d", len(many.seen), maxRefusalKeys)
	}
}
