package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// The listens attack (c): 48 listens that never read their answers, spread over two accounts
// (a third and more, up to listenAccounts, when the per-user limit refuses one), while the
// attacker commits a 3 MiB version to each account every second, so that every listen has a
// large answer to hold. A client re-arms at once after each commit, keeping its older
// listens open and unread (up to heldPerClient), as a client that never reads would.
const (
	listenClients  = 48
	listenAccounts = 6
	heldPerClient  = 8
)

// versions is each account's last committed version, and a channel closed at each commit.
type versions struct {
	mu      sync.Mutex
	version map[string]string
	changed map[string]chan struct{}
}

func (v *versions) get(uid string) (string, <-chan struct{}) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.changed[uid] == nil {
		v.changed[uid] = make(chan struct{})
	}
	return v.version[uid], v.changed[uid]
}

func (v *versions) set(uid, version string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.version[uid] = version
	if ch := v.changed[uid]; ch != nil {
		close(ch)
	}
	v.changed[uid] = make(chan struct{})
}

func (a *attacker) setupListens(ctx context.Context) error {
	a.maxAccts = listenAccounts
	for i := range 2 {
		if a.account(ctx, i) == nil {
			return fmt.Errorf("no account")
		}
	}
	return nil
}

func (a *attacker) attackListens(ctx context.Context) {
	vs := &versions{version: map[string]string{}, changed: map[string]chan struct{}{}}
	// A first small commit per account gives the listens a version to start from.
	for i := range 2 {
		acct := a.account(ctx, i)
		_, v, _ := a.commit(ctx, acct, commitBody(fmt.Sprintf(`{"update":{"name":"users/%s/blob/start","fields":{}}}`, acct.UID)), nil)
		vs.set(acct.UID, v)
	}
	var wg sync.WaitGroup
	wg.Go(func() { a.commitVersions(ctx, vs) })
	for w := range listenClients {
		wg.Go(func() { a.listenUnread(ctx, vs, w%2) })
	}
	wg.Wait()
}

// commitVersions commits one version of three 1 MiB documents to each account that has a
// version every second until ctx ends.
func (a *attacker) commitVersions(ctx context.Context, vs *versions) {
	for round := 0; ctx.Err() == nil; round++ {
		start := time.Now()
		a.mu.Lock()
		accts := append([]*account(nil), a.accounts...)
		a.mu.Unlock()
		for _, acct := range accts {
			if ctx.Err() != nil {
				return
			}
			docs := map[string]int64{}
			var writes []string
			for k := range 3 {
				path := fmt.Sprintf("users/%s/blob/r%03d-%d", acct.UID, round, k)
				m := a.marker.Add(1)
				docs[path] = m
				writes = append(writes, bigDocWrite(path, m, a.blob))
			}
			if status, v, _ := a.commit(ctx, acct, commitBody(writes...), docs); status == http.StatusOK {
				vs.set(acct.UID, v)
			}
		}
		sleepCtx(ctx, time.Second-time.Since(start))
	}
}

// listenUnread is one client: it listens from its account's last version, takes the headers
// (sent at once), never reads the body, and listens again after the next commit, holding its
// last heldPerClient listens open. A 429 (the listens per user) moves it to another account,
// signed up if need be.
func (a *attacker) listenUnread(ctx context.Context, vs *versions, acctIndex int) {
	var held []*http.Response
	defer func() {
		for _, res := range held {
			res.Body.Close()
			a.out.add("held unread")
		}
	}()
	for ctx.Err() == nil {
		acct := a.account(ctx, acctIndex)
		since, changed := vs.get(acct.UID)
		if since == "" {
			since = "0"
		}
		req := request(ctx, http.MethodGet, a.base+"/api/v1/db/listen?timeout=30s&since="+since, acct.Token, nil)
		res, err := a.slow.Do(req)
		switch {
		case err != nil:
			a.out.fail(ctx, err)
			sleepCtx(ctx, 100*time.Millisecond)
			continue
		case res.StatusCode != http.StatusOK:
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			a.out.status(res.StatusCode)
			if res.StatusCode == http.StatusTooManyRequests {
				acctIndex = (acctIndex + 1) % listenAccounts // the next account, a new one while fewer
			}
			sleepCtx(ctx, 100*time.Millisecond)
			continue
		}
		a.out.status(http.StatusOK)
		held = append(held, res)
		if len(held) > heldPerClient {
			held[0].Body.Close()
			held = held[1:]
			a.out.add("dropped")
		}
		select { // the next commit to this account: this listen now has its answer
		case <-ctx.Done():
		case <-changed:
		case <-time.After(30 * time.Second):
		}
	}
}
