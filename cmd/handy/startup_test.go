package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"handy/internal/site"
)

// TestStartupCompressed runs the real binary on the real build: once it listens, every page is
// served compressed, in brotli and in gzip; then the pages are recompressed at the best levels
// in the background, and served smaller. (How fast it starts is `make bench`'s to measure.)
func TestStartupCompressed(t *testing.T) {
	p := startHandy(t, buildHandy(t), []string{"-data-dir", t.TempDir()})
	first := map[string]int{}
	for _, r := range site.Default().Routes() {
		identity := getEncoded(t, p.URL+r.Path, "")
		for _, enc := range []string{"br", "gzip"} {
			body := getEncoded(t, p.URL+r.Path, enc)
			if !bytes.Equal(decompress(t, enc, body), identity) {
				t.Fatalf("%s in %s does not decode to the page", r.Path, enc)
			}
			first[r.Path+" "+enc] = len(body)
		}
	}
	deadline := time.Now().Add(3 * time.Minute)
	for !strings.Contains(p.Log.String(), "pages compressed at the best levels") {
		if time.Now().After(deadline) {
			t.Fatalf("no recompression logged after 3 minutes:\n%s", p.Log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	smaller := 0
	for key, n := range first {
		path, enc, _ := strings.Cut(key, " ")
		body := getEncoded(t, p.URL+path, enc)
		if len(body) > n {
			t.Errorf("%s in %s: %d bytes after recompression, %d before", path, enc, len(body), n)
		}
		if len(body) < n {
			smaller++
		}
	}
	if smaller < len(first)/2 {
		t.Errorf("recompression made %d of %d page variants smaller", smaller, len(first))
	}
}

// getEncoded returns the body of url as sent with Accept-Encoding enc ("" for none), checking that it
// is a 200 in that encoding.
func getEncoded(t *testing.T, url, enc string) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", enc) // set, even empty: the client then decodes nothing
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != enc {
		t.Fatalf("GET %s (Accept-Encoding %q): %d, Content-Encoding %q", url, enc, res.StatusCode, res.Header.Get("Content-Encoding"))
	}
	return body
}

func decompress(t *testing.T, enc string, body []byte) []byte {
	t.Helper()
	var r io.Reader = brotli.NewReader(bytes.NewReader(body))
	if enc == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
