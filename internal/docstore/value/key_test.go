package value

import (
	"bytes"
	"testing"
)

func TestPathKeyOrdersAsPathCompare(t *testing.T) {
	t.Parallel()
	paths := []string{"a/b", "a-/b", "a/b/c/d", "a/b-", "a/b/c/d\x00", "ab/c", "a\x00/b", "a\x00\x01/b", "a/c", "b/a"}
	for _, x := range paths {
		for _, y := range paths {
			px, py := mustPath(t, x), mustPath(t, y)
			if got, want := bytes.Compare(PathKey(px), PathKey(py)), px.Compare(py); got != want {
				t.Errorf("%q vs %q: keys %d, paths %d", x, y, got, want)
			}
		}
	}
}
