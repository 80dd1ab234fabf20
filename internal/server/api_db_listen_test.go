package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"handy/internal/account"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// listenAsync starts a listen on another goroutine and delivers its answer; the answer is
// decoded there without failing the test, so the receiver checks it.
func (u dbUser) listenAsync(params string) <-chan answer {
	r := httptest.NewRequest("GET", "/api/v1/db/listen?"+params, nil)
	r.RemoteAddr = "192.0.2.10:5555"
	r.Header.Set("Authorization", "Bearer "+u.token)
	ch := make(chan answer, 1)
	go func() {
		rec := httptest.NewRecorder()
		u.h.ServeHTTP(rec, r)
		a := answer{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
		json.Unmarshal(rec.Body.Bytes(), &a.body)
		ch <- a
	}()
	return ch
}

// listenWaiting is listenAsync that also says when the listen starts to wait (its headers are
// flushed then), so that a test acts once it waits rather than after a guessed pause.
func (u dbUser) listenWaiting(params string) (waiting <-chan struct{}, answered <-chan answer) {
	r := httptest.NewRequest("GET", "/api/v1/db/listen?"+params, nil)
	r.RemoteAddr = "192.0.2.10:5555"
	r.Header.Set("Authorization", "Bearer "+u.token)
	w := &flushSignal{ResponseRecorder: httptest.NewRecorder(), flushed: make(chan struct{})}
	ch := make(chan answer, 1)
	go func() {
		u.h.ServeHTTP(w, r)
		a := answer{status: w.Code, header: w.Header(), raw: w.Body.String()}
		json.Unmarshal(w.Body.Bytes(), &a.body)
		ch <- a
	}()
	return w.flushed, ch
}

// flushSignal is a recorder that closes flushed at its first Flush.
type flushSignal struct {
	*httptest.ResponseRecorder
	once    sync.Once
	flushed chan struct{}
}

func (f *flushSignal) Flush() {
	f.ResponseRecorder.Flush()
	f.once.Do(func() { close(f.flushed) })
}

// TestDBListen proves the long poll: since=0 answers the live documents; a listen waiting
// from a version answers a later commit (how soon: benchlisten), deletions as {"name","deleted":true,
// "updateTime","version"}; catching up from an old version replays changes in version order;
// a version from the future is a reset; an idle listen ends at its timeout with no change and
// its own version, unmoved by another user's commits.
func TestDBListen(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u := dbSignup(t, h, "ada@example.com")
		other := dbSignup(t, h, "bob@example.com")
		h1, h2 := u.path("history/h1"), u.path("history/h2")
		t1, v1 := commitOK(t, u.commit(writes(update(h1, `{"n":{"integerValue":"1"}}`, ""), update(h2, `{"n":{"integerValue":"2"}}`, ""))), 2)

		a := u.listen("since=0&timeout=5s")
		if a.status != 200 || a.body["reset"] != false || versionOf(t, a.body["version"]) != v1 {
			t.Fatalf("listen since=0: %d %s, want reset false, version %d", a.status, a.raw, v1)
		}
		var names []string
		for _, c := range a.body["changes"].([]any) {
			c := c.(map[string]any)
			names = append(names, c["name"].(string))
			if c["fields"] == nil || c["deleted"] != nil {
				t.Errorf("listen since=0: change %v is not a live document", c)
			}
		}
		slices.Sort(names)
		if want := []string{u.path(""), h1, h2}; !slices.Equal(names, want) {
			t.Errorf("listen since=0: documents %v, want %v", names, want)
		}

		// change starts a listen from since, checks that it holds, commits, and returns the
		// listen's answer, which must come after the commit (how soon is benchlisten's to
		// measure: `make bench`, part 6).
		change := func(since int64, commit string, deletes ...int) (answer, string, int64) {
			t.Helper()
			ch := u.listenAsync(fmt.Sprintf("since=%d&timeout=30s", since))
			select {
			case a := <-ch:
				t.Fatalf("listen since=%d answered before any change: %d %s", since, a.status, a.raw)
			case <-time.After(50 * time.Millisecond):
			}
			c := u.commit(commit)
			ct, v := commitOK(t, c, 1, deletes...)
			var a answer
			select {
			case a = <-ch:
			case <-time.After(20 * time.Second): // before its own timeout of 30 s: the commit woke it
				t.Fatalf("listen since=%d: no answer 20 s after a commit", since)
			}
			if a.status != 200 || a.body["reset"] != false || a.body["version"] != strconv.FormatInt(v, 10) {
				t.Fatalf("listen since=%d: %d %s, want reset false, version %d", since, a.status, a.raw, v)
			}
			return a, ct, v
		}
		a, t2, v2 := change(v1, writes(update(h1, `{"n":{"integerValue":"10"}}`, "")))
		if want := `[{"name":"` + h1 + `","fields":{"n":{"integerValue":"10"}},"createTime":"` + t1 +
			`","updateTime":"` + t2 + `","version":"` + strconv.FormatInt(v2, 10) + `"}]`; !sameJSON(t, a.body["changes"], want) {
			t.Errorf("listen: changes %v, want %s", a.body["changes"], want)
		}
		a, t3, v3 := change(v2, writes(deleteWrite(h2, "")), 0)
		deleted := `{"name":"` + h2 + `","deleted":true,"updateTime":"` + t3 + `","version":"` + strconv.FormatInt(v3, 10) + `"}`
		if !sameJSON(t, a.body["changes"], "["+deleted+"]") {
			t.Errorf("listen: changes %v, want [%s]", a.body["changes"], deleted)
		}

		// Catching up from v1: h1's update, then h2's deletion, in version order.
		a = u.listen(fmt.Sprintf("since=%d&timeout=5s", v1))
		if cs, _ := a.body["changes"].([]any); a.status != 200 || len(cs) != 2 || cs[0].(map[string]any)["name"] != h1 || !sameJSON(t, cs[1], deleted) || versionOf(t, a.body["version"]) != v3 {
			t.Errorf("listen since=%d: %d %s, want h1's change then h2's deletion, version %d", v1, a.status, a.raw, v3)
		}

		// A version this store never handed out: start over from the live documents.
		a = u.listen(fmt.Sprintf("since=%d&timeout=5s", v3+1000))
		if cs, _ := a.body["changes"].([]any); a.status != 200 || a.body["reset"] != true || len(cs) != 2 {
			t.Errorf("listen from the future: %d %s, want a reset with the 2 live documents", a.status, a.raw)
		}

		// Idle: another user's commit does not end it; the timeout does, with nothing. The
		// lower bound cannot fail on a busy machine (the server's timer cannot fire early);
		// the upper one only catches a listen that never ends.
		start := time.Now()
		waiting, ch := u.listenWaiting(fmt.Sprintf("since=%d&timeout=5s", v3))
		select {
		case <-waiting:
		case a := <-ch:
			t.Fatalf("an idle listen answered at once: %d %s", a.status, a.raw)
		case <-time.After(30 * time.Second):
			t.Fatal("an idle listen did not start to wait within 30 s")
		}
		commitOK(t, other.commit(writes(update(other.path("history/h1"), `{}`, ""))), 1)
		select {
		case a = <-ch:
		case <-time.After(30 * time.Second):
			t.Fatal("an idle listen with timeout=5s did not answer within 30 s")
		}
		if d := time.Since(start); d < 5*time.Second-50*time.Millisecond {
			t.Errorf("an idle listen with timeout=5s answered after %v", d)
		}
		if want := fmt.Sprintf(`{"reset":false,"version":"%d","changes":[]}`+"\n", v3); a.status != 200 || a.raw != want {
			t.Errorf("idle listen: %d %q, want 200 %q", a.status, a.raw, want)
		}
	})
}

// TestDBListenLimit proves that one user holds at most 32 listens at once: the 33rd is 429
// resource-exhausted with Retry-After, other users are not affected, and answered listens free
// their places.
func TestDBListenLimit(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := apiServer(t, st, account.DefaultLimits)
		u, other := dbSignup(t, h, "ada@example.com"), dbSignup(t, h, "bob@example.com")
		h1 := u.path("history/h1")
		_, v := commitOK(t, u.commit(writes(update(h1, `{}`, ""))), 1)
		// 40 listens at once, with nothing to answer: 8 are refused at once, 32 wait.
		answers := make(chan answer, 40)
		for range 40 {
			go func() { answers <- <-u.listenAsync(fmt.Sprintf("since=%d&timeout=30s", v)) }()
		}
		for range 8 {
			select {
			case a := <-answers:
				if a.status != 429 || errCode(a) != "resource-exhausted" || a.header.Get("Retry-After") != "1" || !strings.Contains(errMessage(a), "32") {
					t.Errorf("a listen past 32: %d %s Retry-After %q, want 429 resource-exhausted, Retry-After 1", a.status, a.raw, a.header.Get("Retry-After"))
				}
			case <-time.After(30 * time.Second):
				t.Fatal("fewer than 8 of 40 listens were refused")
			}
		}
		select {
		case a := <-answers:
			t.Fatalf("a 9th listen of 40 answered: %d %s", a.status, a.raw)
		case <-time.After(50 * time.Millisecond):
		}
		if a := other.listen("since=0&timeout=5s"); a.status != 200 {
			t.Errorf("another user's listen: %d %s", a.status, a.raw)
		}
		commitOK(t, u.commit(writes(update(h1, `{"n":{"integerValue":"1"}}`, ""))), 1)
		for range 32 {
			select {
			case a := <-answers:
				if cs, _ := a.body["changes"].([]any); a.status != 200 || len(cs) != 1 {
					t.Errorf("a waiting listen: %d %s, want the change", a.status, a.raw)
				}
			case <-time.After(20 * time.Second): // before their own timeout of 30 s
				t.Fatal("a waiting listen did not answer the commit")
			}
		}
		if a := u.listen("since=0&timeout=5s"); a.status != 200 {
			t.Errorf("a listen after the others answered: %d %s", a.status, a.raw)
		}
	})
}

// TestDBClientGone: a client that leaves mid-poll (a closed tab) is neither answered 500 nor
// logged as a failure.
func TestDBClientGone(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newAPIServer(t, st, account.DefaultLimits)
		var log syncBuffer
		s.logger = slog.New(slog.NewJSONHandler(&log, nil))
		u := dbSignup(t, s.handler, "ada@example.com")
		_, v := commitOK(t, u.commit(writes(update(u.path("history/h1"), `{}`, ""))), 1)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		r := httptest.NewRequestWithContext(ctx, "GET", fmt.Sprintf("/api/v1/db/listen?since=%d&timeout=10s", v), nil)
		r.Header.Set("Authorization", "Bearer "+u.token)
		rec := httptest.NewRecorder()
		s.handler.ServeHTTP(rec, r)
		if rec.Code == http.StatusInternalServerError || strings.Contains(log.String(), "request failed") {
			t.Errorf("a listen whose client left: %d, log %s", rec.Code, log.String())
		}
	})
}

// TestDBListenShutdown proves that a waiting listen has its status and headers sent at once
// (the client knows it is connected), that Shutdown ends it at once with an unavailable error
// in its body, over a real connection, so that a deploy never waits for long polls; a listen
// arriving after shutdown began gets 503 unavailable with Retry-After.
func TestDBListenShutdown(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newAPIServer(t, st, account.DefaultLimits)
		u := dbSignup(t, s.handler, "ada@example.com")
		_, v := commitOK(t, u.commit(writes(update(u.path("history/h1"), `{}`, ""))), 1)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		served := make(chan error, 1)
		go func() { served <- s.Serve(ln) }()

		type result struct {
			status int
			body   string
			err    error
		}
		headers := make(chan int, 1)
		listened := make(chan result, 1)
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://%s/api/v1/db/listen?since=%d&timeout=30s", ln.Addr(), v), nil)
		req.Header.Set("Authorization", "Bearer "+u.token)
		go func() {
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				listened <- result{err: err}
				return
			}
			defer res.Body.Close()
			headers <- res.StatusCode
			b, _ := io.ReadAll(res.Body)
			listened <- result{status: res.StatusCode, body: string(b)}
		}()
		select {
		case status := <-headers:
			if status != 200 {
				t.Errorf("a waiting listen's status: %d, want 200 at once", status)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a waiting listen sent no headers")
		}
		select {
		case r := <-listened:
			t.Fatalf("the listen answered before the shutdown: %+v", r)
		case <-time.After(200 * time.Millisecond):
		}

		// Shutdown does not wait for the listen: it returns before its own deadline, which comes
		// before the listen's timeout of 30 s, and the listen ends with an unavailable error (its
		// timeout would have answered 200 with no changes).
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown with a listen in flight: %v", err)
		}
		select {
		case r := <-listened:
			if r.err != nil || !strings.HasPrefix(r.body, `{"error":{"code":"unavailable"`) {
				t.Errorf("listen during shutdown: %+v, want an unavailable error in the body", r)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the listen did not answer after Shutdown")
		}
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}

		a := u.listen("since=0&timeout=30s")
		if a.status != 503 || errCode(a) != "unavailable" || a.header.Get("Retry-After") != "1" {
			t.Errorf("listen after shutdown: %d %s Retry-After %q, want 503 unavailable", a.status, a.raw, a.header.Get("Retry-After"))
		}
	})
}
