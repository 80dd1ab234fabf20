package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"handy/internal/handytest"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// Parameters of TestKillDuringCommits.
const (
	killWriters = 8 // concurrent writers, each signed in as a user of its own
	// killWriterBudget bounds the writes one writer sends, so that its user stays within the
	// write rate's burst (docstore.DefaultWriteBurst, 2,000: not configurable) even counting the
	// resends of the batches lost in the kill, which are charged when they are applied then.
	killWriterBudget = 450
	killPace         = 8 * time.Millisecond // a writer starts at most one batch per pace
	// killSessionBatches is how many batch ids a writer sends under one clientId before it
	// takes the next: the store keeps the answers of a client's last 32 batch ids
	// (docstore's keptBatches), and every acknowledged batch is resent after the restart.
	killSessionBatches = 32
	// killMinAcked is how many batches are acknowledged before the kill, at least: the kill
	// comes while the writers are still writing (each writer's budget is about 225 batches).
	killMinAcked = 500
	xsrfValue    = "durability-test-xsrf-token-0123456789abcdef"
)

// TestKillDuringCommits runs the handy binary, has concurrent writers commit numbered
// batches with exactly-once ids, kills the process with SIGKILL while they write, restarts it on
// the same database and checks that every acknowledged batch survived whole, that resending
// it answers the first answer again and applies nothing, that each batch whose answer the
// kill lost was applied whole or not at all and is applied once when resent, and that nothing
// else was written.
func TestKillDuringCommits(t *testing.T) {
	bin := buildHandy(t)
	t.Run(store.SQLite, func(t *testing.T) {
		killDuringCommits(t, bin, []string{"-data-dir", t.TempDir()})
	})
	t.Run(store.Postgres, func(t *testing.T) {
		killDuringCommits(t, bin, []string{"-data-dir", t.TempDir(), "-database-url", storetest.URL(t)})
	})
}

// startHandy starts the binary with args (and -log-level info) on a free loopback port and
// waits until /readyz answers 200; the test stops it at the latest when it ends. A -data-dir in
// args is the one it runs on (a restart on the same database), else it gets a fresh one.
func startHandy(t *testing.T, bin string, args []string) *handytest.Handy {
	t.Helper()
	o := handytest.Options{Bin: bin, Args: []string{"-log-level", "info"}}
	for i := 0; i < len(args); i++ {
		if args[i] == "-data-dir" && i+1 < len(args) {
			o.DataDir = args[i+1]
			i++
			continue
		}
		o.Args = append(o.Args, args[i])
	}
	return handytest.StartT(t, o)
}

// buildHandy builds the binary into a temporary directory.
func buildHandy(t *testing.T) string { return handytest.Build(t) }

// apiClient speaks the JSON API with a fixed XSRF cookie.
type apiClient struct {
	http *http.Client
	base string
}

func newAPIClient(base string) *apiClient {
	return &apiClient{base: base, http: &http.Client{
		Timeout:   20 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 2 * killWriters, DisableCompression: true},
	}}
}

// post sends a JSON body and returns the status and the whole answer. A POST is never retried
// by the transport (it is not idempotent): one call is one attempt.
func (c *apiClient) post(path, token string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", "XSRF-TOKEN="+xsrfValue)
	req.Header.Set("X-XSRF-TOKEN", xsrfValue)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, answer, nil
}

type killUser struct {
	id, token string
}

func (c *apiClient) signup(email string) (killUser, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": "correct horse battery"})
	status, answer, err := c.post("/api/v1/auth/signup", "", body)
	if err != nil || status != http.StatusCreated {
		return killUser{}, fmt.Errorf("sign-up %s: %d %v %s", email, status, err, answer)
	}
	var a struct {
		Token string `json:"token"`
		User  struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	if err := json.Unmarshal(answer, &a); err != nil || a.Token == "" || a.User.ID == "" {
		return killUser{}, fmt.Errorf("sign-up answer %s: %v", answer, err)
	}
	return killUser{id: a.User.ID, token: a.Token}, nil
}

// killBatch is one batch a writer sent.
type killBatch struct {
	client string
	id     int64
	paths  []string // its documents, write k writing paths[k]
	body   []byte   // the commit request
	ack    []byte   // the 200 answer, when it came before the kill
}

// storedDoc is a document as a query answers it.
type storedDoc struct {
	Name   string `json:"name"`
	Fields map[string]struct {
		IntegerValue string `json:"integerValue"`
		StringValue  string `json:"stringValue"`
	} `json:"fields"`
	UpdateTime string `json:"updateTime"`
	Version    string `json:"version"`
}

type commitAnswer struct {
	WriteResults []struct {
		UpdateTime string `json:"updateTime"`
	} `json:"writeResults"`
	CommitTime string `json:"commitTime"`
	Version    string `json:"version"`
}

func newKillBatch(uid string, writer int, seq int64) *killBatch {
	b := &killBatch{client: fmt.Sprintf("w%d-s%d", writer, (seq-1)/killSessionBatches), id: seq}
	n := 1 + int(seq+int64(writer))%3
	var writes []any
	for k := range n {
		path := fmt.Sprintf("users/%s/history/w%d-b%d-%d", uid, writer, seq, k)
		b.paths = append(b.paths, path)
		writes = append(writes, map[string]any{"update": map[string]any{"name": path, "fields": map[string]any{
			"batch":  map[string]string{"integerValue": strconv.FormatInt(seq, 10)},
			"client": map[string]string{"stringValue": b.client},
			"k":      map[string]string{"integerValue": strconv.Itoa(k)},
		}}})
	}
	b.body, _ = json.Marshal(map[string]any{"writes": writes, "clientId": b.client, "batchId": strconv.FormatInt(seq, 10)})
	return b
}

func killDuringCommits(t *testing.T, bin string, args []string) {
	began := time.Now()
	p := startHandy(t, bin, args)
	c := newAPIClient(p.URL)
	users := make([]killUser, killWriters)
	var wg sync.WaitGroup
	for i := range users {
		wg.Go(func() {
			var err error
			if users[i], err = c.signup(fmt.Sprintf("writer%d@example.com", i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("started and signed up %d users in %s", killWriters, time.Since(began).Round(time.Millisecond))

	// The writers: each sends its batches one after the other until the kill.
	var killed atomic.Bool
	var acked, inFlight atomic.Int64
	sent := make([][]*killBatch, killWriters)
	for w := range killWriters {
		wg.Go(func() {
			u := users[w]
			tick := time.NewTicker(killPace)
			defer tick.Stop()
			writes := 0
			for seq := int64(1); ; seq++ {
				b := newKillBatch(u.id, w, seq)
				if killed.Load() || writes+len(b.paths) > killWriterBudget {
					return
				}
				writes += len(b.paths)
				sent[w] = append(sent[w], b)
				inFlight.Add(1)
				status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
				inFlight.Add(-1)
				switch {
				case err != nil && killed.Load():
					return // the kill took the answer: b's fate is for the checks to find
				case err != nil:
					t.Errorf("writer %d batch %d: %v", w, seq, err)
					return
				case status != http.StatusOK:
					t.Errorf("writer %d batch %d: %d %s", w, seq, status, answer)
					return
				}
				b.ack = answer
				acked.Add(1)
				<-tick.C
			}
		})
	}
	writersDone := make(chan struct{})
	go func() { wg.Wait(); close(writersDone) }()
	start := time.Now()
	poll := time.NewTicker(5 * time.Millisecond)
	for acked.Load() < killMinAcked {
		select {
		case <-writersDone:
			t.Fatalf("the writers stopped after %d acknowledged batches, before the kill", acked.Load())
		case <-poll.C:
		}
	}
	poll.Stop()
	killed.Store(true)
	ackedAtKill, inFlightAtKill := acked.Load(), inFlight.Load()
	err := p.Signal(syscall.SIGKILL)
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("handy did not die of SIGKILL: %v", err)
	}
	<-writersDone // wg.Wait by the goroutine above has returned: wg may be used again
	var ackedBatches, lostBatches int
	for w := range sent {
		for _, b := range sent[w] {
			if b.ack != nil {
				ackedBatches++
			} else {
				lostBatches++
			}
		}
	}
	t.Logf("killed after %s of commits: %d batches acknowledged, %d in flight at the kill; %d acknowledged, %d unanswered in all",
		time.Since(start).Round(time.Millisecond), ackedAtKill, inFlightAtKill, ackedBatches, lostBatches)
	if t.Failed() {
		return
	}
	if ackedBatches < 100 {
		t.Errorf("only %d batches acknowledged before the kill: the test proves little", ackedBatches)
	}

	// The restart on the same database, and the checks, one goroutine per writer.
	restart := time.Now()
	p = startHandy(t, bin, args)
	t.Logf("restarted in %s", time.Since(restart).Round(time.Millisecond))
	checks := time.Now()
	c = newAPIClient(p.URL)
	var maxAckVersion int64
	for w := range sent {
		for _, b := range sent[w] {
			if b.ack != nil {
				var a commitAnswer
				if err := json.Unmarshal(b.ack, &a); err != nil {
					t.Fatalf("answer %s: %v", b.ack, err)
				}
				maxAckVersion = max(maxAckVersion, atoi(a.Version))
			}
		}
	}
	var applied, notApplied atomic.Int64
	for w := range killWriters {
		wg.Go(func() {
			a, n := checkWriter(t, c, users[w], w, sent[w], maxAckVersion)
			applied.Add(int64(a))
			notApplied.Add(int64(n))
		})
	}
	wg.Wait()
	t.Logf("checked in %s: of the %d unanswered batches, %d had been applied (whole) and %d not",
		time.Since(checks).Round(time.Millisecond), lostBatches, applied.Load(), notApplied.Load())

	if err := p.Stop(); err != nil {
		t.Errorf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}
	t.Logf("%s in all", time.Since(began).Round(time.Millisecond))
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// checkWriter checks one writer's batches after the restart, and returns how many of its
// unanswered batches had been applied before the kill and how many had not.
func checkWriter(t *testing.T, c *apiClient, u killUser, w int, batches []*killBatch, maxAckVersion int64) (applied, notApplied int) {
	errs := 0
	fail := func(format string, args ...any) {
		if errs++; errs <= 10 {
			t.Errorf("writer %d: "+format, append([]any{w}, args...)...)
		}
	}
	defer func() {
		if errs > 10 {
			t.Errorf("writer %d: %d more failures", w, errs-10)
		}
	}()
	before, err := queryHistory(c, u)
	if err != nil {
		fail("%v", err)
		return
	}
	var maxVersion int64
	for _, d := range before {
		maxVersion = max(maxVersion, atoi(d.Version))
	}
	// contentOK checks that document k of b holds what b wrote.
	contentOK := func(b *killBatch, k int, d storedDoc) bool {
		if d.Fields["batch"].IntegerValue != strconv.FormatInt(b.id, 10) || d.Fields["client"].StringValue != b.client ||
			d.Fields["k"].IntegerValue != strconv.Itoa(k) || len(d.Fields) != 3 {
			fail("%s holds %+v, not what batch %d of %s wrote", b.paths[k], d.Fields, b.id, b.client)
			return false
		}
		return true
	}
	written := map[string]bool{}
	lostApplied := map[*killBatch]bool{}
	for _, b := range batches {
		for _, path := range b.paths {
			written[path] = true
		}
		found := 0
		for k, path := range b.paths {
			if d, ok := before[path]; ok {
				found++
				contentOK(b, k, d)
			}
		}
		if b.ack != nil {
			// (a) an acknowledged batch is there, whole, as its answer says.
			var a commitAnswer
			json.Unmarshal(b.ack, &a)
			for k, path := range b.paths {
				d, ok := before[path]
				switch {
				case !ok:
					fail("%s of acknowledged batch %d of %s (answer %s) is lost", path, b.id, b.client, b.ack)
				case d.UpdateTime != a.WriteResults[k].UpdateTime || d.Version != a.Version:
					fail("%s has updateTime %s version %s; acknowledged batch %d answered %s", path, d.UpdateTime, d.Version, b.id, b.ack)
				}
			}
			continue
		}
		// (c) an unanswered batch was applied whole or not at all.
		switch found {
		case 0:
			notApplied++
		case len(b.paths):
			applied++
			lostApplied[b] = true
		default:
			fail("unanswered batch %d of %s was applied in part: %d of its %d documents", b.id, b.client, found, len(b.paths))
		}
	}
	// (d) nothing that no batch wrote.
	for path := range before {
		if !written[path] {
			fail("%s exists, but no batch wrote it", path)
		}
	}

	// (b) an acknowledged batch sent again answers the first answer.
	for _, b := range batches {
		if b.ack == nil {
			continue
		}
		status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
		if err != nil || status != http.StatusOK || !bytes.Equal(answer, b.ack) {
			fail("batch %d of %s sent again: %d %v %s; first answer %s", b.id, b.client, status, err, answer, b.ack)
		}
	}
	// (c) an unanswered batch sent again is applied, once.
	for _, b := range batches {
		if b.ack != nil {
			continue
		}
		status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
		if err != nil || status != http.StatusOK {
			fail("unanswered batch %d of %s sent again: %d %v %s", b.id, b.client, status, err, answer)
			continue
		}
		var a commitAnswer
		if err := json.Unmarshal(answer, &a); err != nil || len(a.WriteResults) != len(b.paths) {
			fail("unanswered batch %d of %s sent again: answer %s (%v)", b.id, b.client, answer, err)
			continue
		}
		if lostApplied[b] {
			// Applied before the kill: the answer is that commit's, as its documents show.
			for k, path := range b.paths {
				if d := before[path]; a.WriteResults[k].UpdateTime != d.UpdateTime || a.Version != d.Version {
					fail("batch %d of %s, applied before the kill (%s at %s, version %s), answers %s when sent again",
						b.id, b.client, path, d.UpdateTime, d.Version, answer)
				}
			}
		} else if v := atoi(a.Version); v <= maxVersion || v <= maxAckVersion {
			fail("batch %d of %s, applied after the restart, has version %d, not above %d (before the kill)",
				b.id, b.client, v, max(maxVersion, maxAckVersion))
		}
		b.ack = answer
		status, again, err := c.post("/api/v1/db/commit", u.token, b.body)
		if err != nil || status != http.StatusOK || !bytes.Equal(again, answer) {
			fail("unanswered batch %d of %s sent a third time: %d %v %s; the second time %s", b.id, b.client, status, err, again, answer)
		}
	}

	// Now every batch's documents are there, as its answer says, and nothing else changed.
	after, err := queryHistory(c, u)
	if err != nil {
		fail("%v", err)
		return
	}
	for _, b := range batches {
		var a commitAnswer
		if json.Unmarshal(b.ack, &a) != nil {
			continue
		}
		for k, path := range b.paths {
			d, ok := after[path]
			switch {
			case !ok:
				fail("%s of batch %d of %s is missing after every batch was sent again", path, b.id, b.client)
			case !contentOK(b, k, d):
			case d.UpdateTime != a.WriteResults[k].UpdateTime || d.Version != a.Version:
				fail("%s has updateTime %s version %s; batch %d of %s answered %s", path, d.UpdateTime, d.Version, b.id, b.client, b.ack)
			}
		}
	}
	for path, d := range after {
		if !written[path] {
			fail("%s exists after the resends, but no batch wrote it", path)
		} else if old, ok := before[path]; ok && !reflect.DeepEqual(old, d) {
			fail("%s changed from %+v to %+v when the batches were sent again", path, old, d)
		}
	}
	// … nor anywhere else among u's documents: only the profile, users/{uid}, besides.
	if paths, err := exportedPaths(c, u); err != nil {
		fail("%v", err)
	} else {
		for _, path := range paths {
			if !written[path] && path != "users/"+u.id {
				fail("%s exists (account export), but no batch wrote it", path)
			}
		}
		if len(paths) != len(after)+1 {
			fail("the account export has %d documents, want the %d of the history and the profile", len(paths), len(after))
		}
	}
	if want := func() (n int) {
		for _, b := range batches {
			n += len(b.paths)
		}
		return n
	}(); len(after) != want {
		fail("%d documents in the history after the resends, want %d", len(after), want)
	}
	return applied, notApplied
}

// exportedPaths returns the paths of every live document of u's, from the account export.
func exportedPaths(c *apiClient, u killUser) ([]string, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+"/api/v1/auth/me/export", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+u.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("account export: %d %v %s", resp.StatusCode, err, answer)
	}
	var a struct {
		Documents []struct {
			Path string `json:"path"`
		} `json:"documents"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		return nil, fmt.Errorf("account export %s: %w", answer, err)
	}
	paths := make([]string, len(a.Documents))
	for i, d := range a.Documents {
		paths[i] = d.Path
	}
	return paths, nil
}

// queryHistory returns the documents of u's history collection by name.
func queryHistory(c *apiClient, u killUser) (map[string]storedDoc, error) {
	body, _ := json.Marshal(map[string]any{"parent": "users/" + u.id,
		"structuredQuery": map[string]any{"from": []any{map[string]string{"collectionId": "history"}}}})
	status, answer, err := c.post("/api/v1/db/query", u.token, body)
	if err != nil || status != http.StatusOK {
		return nil, fmt.Errorf("query the history: %d %v %s", status, err, answer)
	}
	var a struct {
		Documents []storedDoc `json:"documents"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		return nil, fmt.Errorf("query answer %s: %w", answer, err)
	}
	docs := make(map[string]storedDoc, len(a.Documents))
	for _, d := range a.Documents {
		docs[d.Name] = d
	}
	return docs, nil
}
