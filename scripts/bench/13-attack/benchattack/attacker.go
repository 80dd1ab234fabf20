package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// attacker is the hostile client's state, in a process of its own (the `attack` command), so
// that what it holds in memory and the CPU its goroutines take are not the measurer's.
type attacker struct {
	base     string
	fast     *http.Client // reads its answers at once
	slow     *http.Client // small receive buffers: for answers read slowly or never
	accounts []*account
	maxAccts int
	out      *outcomes
	acked    acks
	marker   atomic.Int64
	blob     string // ~1 MiB of random letters
	note     string

	mu sync.Mutex // accounts, note
}

// blobSize keeps a document of one blob, a marker and a path of about 60 bytes under the 1 MiB
// document limit as Firestore counts it.
const blobSize = 1<<20 - 512

func newAttacker(base string) *attacker {
	return &attacker{base: base, fast: newClient(0), slow: newClient(4096), out: newOutcomes(), maxAccts: 1}
}

// account i, signing up accounts until there are i+1 (at most maxAccts; the last otherwise).
func (a *attacker) account(ctx context.Context, i int) *account {
	a.mu.Lock()
	defer a.mu.Unlock()
	for len(a.accounts) <= i && len(a.accounts) < a.maxAccts {
		acct, err := signup(ctx, a.fast, a.base, "attacker")
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchattack: attacker: %v (going on with %d accounts)\n", err, len(a.accounts))
			a.maxAccts = len(a.accounts)
			break
		}
		a.accounts = append(a.accounts, acct)
	}
	if len(a.accounts) == 0 {
		return nil
	}
	return a.accounts[min(i, len(a.accounts)-1)]
}

func (a *attacker) setNote(format string, args ...any) {
	a.mu.Lock()
	a.note = fmt.Sprintf(format, args...)
	a.mu.Unlock()
}

// commit sends a commit, counts its outcome and records its acknowledged documents (path and
// marker); the answer's version on success.
func (a *attacker) commit(ctx context.Context, acct *account, body []byte, docs map[string]int64) (int, string, time.Duration) {
	status, data, wait, err := do(ctx, a.fast, http.MethodPost, a.base+"/api/v1/db/commit", acct.Token, body)
	if err != nil {
		a.out.fail(ctx, err)
		return 0, "", 0
	}
	a.out.status(status)
	if status != http.StatusOK {
		if status != http.StatusTooManyRequests && status != http.StatusRequestEntityTooLarge {
			a.setNote("last refusal: %d %s", status, errorMessage(data))
		}
		return status, "", wait
	}
	for path, m := range docs {
		a.acked.add(ack{Token: acct.Token, Path: path, Marker: m})
	}
	return status, commitVersion(data), 0
}

// errorMessage is an API error's code and message, shortened; else the answer's start.
func errorMessage(data []byte) string {
	var e struct {
		Error struct{ Code, Message string }
	}
	msg := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &e) == nil && e.Error.Code != "" {
		msg = e.Error.Code + ": " + e.Error.Message
	}
	if r := []rune(msg); len(r) > 160 {
		msg = string(r[:160]) + "…"
	}
	return msg
}

// storeBig stores n documents of about 1 MiB under users/{uid}/big, three to a commit (a 4 MiB
// body holds three), as many as the limits let: a 429 is waited out (at most a minute in all),
// any other refusal ends it. It returns how many were stored.
func (a *attacker) storeBig(ctx context.Context, acct *account, n int) int {
	stored := 0
	giveUp := time.Now().Add(time.Minute)
	for stored < n && time.Now().Before(giveUp) {
		docs := map[string]int64{}
		var writes []string
		for k := stored; k < min(stored+3, n); k++ {
			path := fmt.Sprintf("users/%s/big/d%02d", acct.UID, k)
			m := a.marker.Add(1)
			docs[path] = m
			writes = append(writes, bigDocWrite(path, m, a.blob))
		}
		status, _, wait := a.commit(ctx, acct, commitBody(writes...), docs)
		switch status {
		case http.StatusOK:
			stored += len(docs)
		case http.StatusTooManyRequests:
			sleepCtx(ctx, min(max(wait, 100*time.Millisecond), 5*time.Second))
		default:
			return stored
		}
	}
	return stored
}

// reader says how a client reads an answer.
type reader int

const (
	readAll  reader = iota // at once
	readSlow               // 16 KiB every 100 ms
	readNone               // never: the answer stays with the server until the attack ends
)

// bigAnswers runs 16 clients until ctx ends, each asking for a large answer again and again
// (build makes its request): 8 read at once, 4 slowly, 4 never (each of those opens a new
// request every 5 s and holds them all unread).
func (a *attacker) bigAnswers(ctx context.Context, build func(ctx context.Context) *http.Request) {
	var wg sync.WaitGroup
	for w := range 16 {
		mode := []reader{readAll, readAll, readSlow, readNone}[w%4]
		wg.Go(func() {
			if mode == readNone {
				a.holdUnread(ctx, build, 5*time.Second)
				return
			}
			for ctx.Err() == nil {
				a.readAnswer(ctx, build(ctx), mode)
			}
		})
	}
	wg.Wait()
}

// readAnswer sends req and reads its answer as mode says; an answer read whole counts as its
// status, one cut short as "cut" (or "stopped" at the attack's end).
func (a *attacker) readAnswer(ctx context.Context, req *http.Request, mode reader) {
	c := a.fast
	if mode != readAll {
		c = a.slow
	}
	res, err := c.Do(req)
	if err != nil {
		a.out.fail(ctx, err)
		sleepCtx(ctx, 100*time.Millisecond)
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, res.Body)
		a.out.status(res.StatusCode)
		sleepCtx(ctx, 100*time.Millisecond) // keeps trying, without a busy loop on refusals
		return
	}
	if mode == readAll {
		_, err = io.Copy(io.Discard, res.Body)
	} else {
		buf := make([]byte, 16<<10)
		for err == nil {
			_, err = io.ReadFull(res.Body, buf)
			if err == nil && !sleepCtx(ctx, 100*time.Millisecond) {
				err = ctx.Err()
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = nil // the whole answer, its last piece shorter than buf
		}
	}
	if err != nil {
		a.out.fail(ctx, err)
		return
	}
	a.out.status(http.StatusOK)
}

// holdUnread opens a request every `every` until ctx ends and never reads an answer: each
// connection stays open, its answer unread, until then.
func (a *attacker) holdUnread(ctx context.Context, build func(ctx context.Context) *http.Request, every time.Duration) {
	var held []*http.Response
	defer func() {
		for _, res := range held {
			res.Body.Close()
			a.out.add("held unread")
		}
	}()
	for ctx.Err() == nil {
		res, err := a.slow.Do(build(ctx))
		switch {
		case err != nil:
			a.out.fail(ctx, err)
		case res.StatusCode != http.StatusOK:
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			a.out.status(res.StatusCode)
		default:
			held = append(held, res)
		}
		sleepCtx(ctx, every)
	}
}

// setupBig (a and b): one account stores 32 documents of 1 MiB, as many as the limits let.
func (a *attacker) setupBig(ctx context.Context) error {
	acct := a.account(ctx, 0)
	if acct == nil {
		return fmt.Errorf("no account")
	}
	n := a.storeBig(ctx, acct, 32)
	a.setNote("%d of 32 documents of 1 MiB stored", n)
	fmt.Fprintf(os.Stderr, "benchattack: attacker: %d of 32 documents of 1 MiB stored\n", n)
	return nil
}

// attackQuery (a): 16 parallel queries of all 32 documents, in a loop.
func (a *attacker) attackQuery(ctx context.Context) {
	acct := a.accounts[0]
	body := fmt.Appendf(nil, `{"parent":"users/%s","structuredQuery":{"from":[{"collectionId":"big"}]}}`, acct.UID)
	a.bigAnswers(ctx, func(ctx context.Context) *http.Request {
		return request(ctx, http.MethodPost, a.base+"/api/v1/db/query", acct.Token, body)
	})
}

// attackExport (b): the same account's export, 16 at once, in a loop.
func (a *attacker) attackExport(ctx context.Context) {
	acct := a.accounts[0]
	a.bigAnswers(ctx, func(ctx context.Context) *http.Request {
		return request(ctx, http.MethodGet, a.base+"/api/v1/auth/me/export", acct.Token, nil)
	})
}
