package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// xsrf is the double-submitted XSRF value every unsafe request carries as cookie and header:
// the server compares the two and issues none to a client that sends one of 32 characters or
// more.
const xsrf = "benchattack-xsrf-0123456789abcdef0123456789"

// newClient is an HTTP client of its own connections (one per role, so that the prober, the
// light user and each attacker never share a pool). rcvbuf > 0 shrinks each connection's
// receive buffer, so that a client that reads slowly or not at all leaves the answer in the
// server rather than in this machine's socket buffers.
func newClient(rcvbuf int) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if rcvbuf > 0 {
		d.Control = func(_, _ string, c syscall.RawConn) error {
			var serr error
			err := c.Control(func(fd uintptr) {
				serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcvbuf)
			})
			return errors.Join(err, serr)
		}
	}
	return &http.Client{Transport: &http.Transport{
		DialContext: d.DialContext, MaxIdleConnsPerHost: 256, DisableCompression: true,
		IdleConnTimeout: 30 * time.Second,
	}}
}

// account is one signed-up user.
type account struct {
	Email string `json:"email"`
	Token string `json:"token"`
	UID   string `json:"uid"`
}

// signup opens a new account (a random address), as the site does it.
func signup(ctx context.Context, c *http.Client, base, name string) (*account, error) {
	email := fmt.Sprintf("%s-%08x@example.com", name, rand.Uint32())
	body := fmt.Sprintf(`{"email":%q,"password":"correct horse battery staple"}`, email)
	status, data, _, err := do(ctx, c, http.MethodPost, base+"/api/v1/auth/signup", "", []byte(body))
	if err != nil {
		return nil, fmt.Errorf("sign-up: %w", err)
	}
	if status != http.StatusCreated {
		return nil, fmt.Errorf("sign-up answered %d: %s", status, bytes.TrimSpace(data))
	}
	var out struct {
		Token string
		User  struct{ ID string }
	}
	if err := json.Unmarshal(data, &out); err != nil || out.Token == "" || out.User.ID == "" {
		return nil, fmt.Errorf("sign-up: no token or user id in %.200s", data)
	}
	return &account{Email: email, Token: out.Token, UID: out.User.ID}, nil
}

// request builds a request with the token, the XSRF pair and, with a body, a JSON type.
func request(ctx context.Context, method, url, token string, body []byte) *http.Request {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		panic(err) // the URLs are built here
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Cookie", "XSRF-TOKEN="+xsrf)
	req.Header.Set("X-XSRF-TOKEN", xsrf)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// do sends a request and reads its whole answer: the status, the body and Retry-After.
func do(ctx context.Context, c *http.Client, method, url, token string, body []byte) (int, []byte, time.Duration, error) {
	res, err := c.Do(request(ctx, method, url, token, body))
	if err != nil {
		return 0, nil, 0, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	return res.StatusCode, data, retryAfter(res), err
}

func retryAfter(res *http.Response) time.Duration {
	s, err := strconv.Atoi(res.Header.Get("Retry-After"))
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(s) * time.Second
}

// outcomes counts what the attacker got: statuses, and the ways a request ends without one.
type outcomes struct {
	mu sync.Mutex
	m  map[string]int
}

func newOutcomes() *outcomes { return &outcomes{m: map[string]int{}} }

func (o *outcomes) add(key string) {
	o.mu.Lock()
	o.m[key]++
	o.mu.Unlock()
}

// status counts an answer by its status.
func (o *outcomes) status(code int) { o.add(strconv.Itoa(code)) }

// fail counts a request that ended without an answer, or whose answer ended early: "stopped"
// when the attacker itself gave up at the end of the attack, "cut" when the server or the
// network ended it.
func (o *outcomes) fail(ctx context.Context, err error) {
	switch {
	case ctx.Err() != nil:
		o.add("stopped")
	case errors.Is(err, context.DeadlineExceeded):
		o.add("timeout")
	default:
		o.add("cut")
	}
}

func (o *outcomes) snapshot() map[string]int {
	o.mu.Lock()
	defer o.mu.Unlock()
	m := make(map[string]int, len(o.m))
	for k, v := range o.m {
		m[k] = v
	}
	return m
}

// ack is a write the server acknowledged: the document at Path must hold Marker in its field
// "m" (0: the document must exist; < 0: a light user's history entry, see verify).
type ack struct {
	Token  string `json:"token"`
	Path   string `json:"path"`
	Marker int64  `json:"marker"`
}

// acks collects acknowledged writes across goroutines.
type acks struct {
	mu   sync.Mutex
	list []ack
}

func (a *acks) add(x ack) {
	a.mu.Lock()
	a.list = append(a.list, x)
	a.mu.Unlock()
}

// bigString is n bytes of random letters: a value nothing compresses much.
func bigString(n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b)
}

// bigDocWrite is one update write of a document of about 1 MiB: the string blob (of which the
// first bytes vary with marker) and the marker m.
func bigDocWrite(path string, marker int64, blob string) string {
	var b strings.Builder
	b.Grow(len(blob) + 200)
	fmt.Fprintf(&b, `{"update":{"name":%q,"fields":{"m":{"integerValue":"%d"},"blob":{"stringValue":"%08d`, path, marker, marker%100000000)
	b.WriteString(blob[8:])
	b.WriteString(`"}}}}`)
	return b.String()
}

// commitBody wraps writes in a commit.
func commitBody(writes ...string) []byte {
	return []byte(`{"writes":[` + strings.Join(writes, ",") + `]}`)
}

// commitVersion reads the version out of a commit's answer.
func commitVersion(data []byte) string {
	var out struct{ Version string }
	if json.Unmarshal(data, &out) != nil {
		return ""
	}
	return out.Version
}

// sleepCtx sleeps d or until ctx ends; false when ctx ended.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
