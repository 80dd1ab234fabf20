package docstore

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// Owners that do not fit one notification (PostgreSQL takes under 8000 bytes) are split over
// several, each naming the sender, none lost.
func TestNotifyPayloads(t *testing.T) {
	s := &Store{id: "0123456789abcdef"}
	owners := map[string]int64{}
	for i := range 1000 {
		owners[fmt.Sprintf("%032x", i)] = int64(i)
	}
	var got []string
	payloads := s.notifyPayloads(owners)
	if len(payloads) < 2 {
		t.Fatalf("%d payloads for 1000 owners, want several", len(payloads))
	}
	for _, p := range payloads {
		from, list, _ := strings.Cut(p, " ")
		if len(p) >= 8000 || from != s.id {
			t.Fatalf("payload of %d bytes from %q", len(p), from)
		}
		got = append(got, strings.Split(list, ",")...)
	}
	slices.Sort(got)
	if want := slices.Sorted(maps.Keys(owners)); !slices.Equal(got, want) {
		t.Errorf("the payloads name %d owners, want the %d changed", len(got), len(want))
	}
}
