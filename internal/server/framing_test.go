package server

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A request with both Content-Length and Transfer-Encoding is refused and its connection
// closed: the request pipelined behind it on the same connection is never answered, whatever a
// proxy in front made of the framing.
func TestTransferEncodingRefused(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	ts := httptest.NewServer(s.handler)
	defer ts.Close()
	for name, head := range map[string]string{
		"both":        "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
		"chunked":     "Transfer-Encoding: chunked\r\n",
		"both, other": "Transfer-Encoding: chunked\r\nContent-Length: 40\r\n",
	} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		_, err = conn.Write([]byte("POST /api/v1/pageviews HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n" + head + "\r\n0\r\n\r\n" +
			"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(conn)
		res, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || !res.Close {
			t.Errorf("%s: %d, close %v; want 400 and the connection closed", name, res.StatusCode, res.Close)
		}
		if _, err := http.ReadResponse(r, nil); err == nil {
			t.Errorf("%s: the pipelined request was answered", name)
		}
		conn.Close()
	}
	// A request with a length alone is served as ever.
	res, body := serve(t, s.handler, request{method: http.MethodGet, target: "/healthz"})
	if res.StatusCode != http.StatusOK {
		t.Errorf("healthz: %d %s", res.StatusCode, body)
	}
}

// Request ids are random: they say nothing of how many requests came before.
func TestRequestIDsAreRandom(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	seen := map[string]bool{}
	form := regexp.MustCompile(`^[0-9a-f]{24}$`)
	for range 100 {
		res, _ := serve(t, s.handler, request{target: "/healthz"})
		id := res.Header.Get("X-Request-Id")
		if !form.MatchString(id) || seen[id] {
			t.Fatalf("request id %q: want 24 hex digits, never repeated", id)
		}
		seen[id] = true
	}
}
