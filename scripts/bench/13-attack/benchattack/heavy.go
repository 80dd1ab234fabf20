package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxCommitBody is the commit body limit (docs/api.md): the bodies of (d) stop just under it.
const maxCommitBody = 4 << 20

// Large commit bodies (d): 48 clients over bodyAccounts accounts, each sending 4 MiB bodies in a
// loop, of three kinds: valid JSON the parser must take whole (one document with an array of
// about 200,000 integers, over the document limit; and 100,000 deletes, over the 500 writes),
// and garbage (a valid start, then random letters, unterminated).
const (
	bodyClients  = 48
	bodyAccounts = 4
)

func (a *attacker) setupBodies(ctx context.Context) error {
	a.maxAccts = bodyAccounts
	for i := range bodyAccounts {
		if a.account(ctx, i) == nil {
			return fmt.Errorf("no account")
		}
	}
	return nil
}

// fill appends elements made by elem(i) to head until the body would pass maxCommitBody-64,
// then tail.
func fill(head, tail string, elem func(i int) string) []byte {
	var b strings.Builder
	b.Grow(maxCommitBody)
	b.WriteString(head)
	for i := 0; ; i++ {
		e := elem(i)
		if b.Len()+len(e)+len(tail) > maxCommitBody-64 {
			break
		}
		b.WriteString(e)
	}
	b.WriteString(tail)
	return []byte(b.String())
}

func bodyKinds(uid string) [][]byte {
	ints := fill(fmt.Sprintf(`{"writes":[{"update":{"name":"users/%s/d/ints","fields":{"a":{"arrayValue":{"values":[{"integerValue":"0"}`, uid),
		`]}}}}}]}`, func(i int) string { return fmt.Sprintf(`,{"integerValue":"%d"}`, i) })
	deletes := fill(fmt.Sprintf(`{"writes":[{"delete":"users/%s/d/x"}`, uid), `]}`,
		func(i int) string { return fmt.Sprintf(`,{"delete":"users/%s/d/x%d"}`, uid, i) })
	junk := bigString(maxCommitBody)
	garbage := fill(fmt.Sprintf(`{"writes":[{"update":{"name":"users/%s/d/g","fields":{"a":{"stringValue":"`, uid), "",
		func(i int) string { return junk[i*4096 : (i+1)*4096] })
	return [][]byte{ints, deletes, garbage}
}

func (a *attacker) attackBodies(ctx context.Context) {
	kinds := make([][][]byte, len(a.accounts))
	for i, acct := range a.accounts {
		kinds[i] = bodyKinds(acct.UID)
	}
	var wg sync.WaitGroup
	for w := range bodyClients {
		wg.Go(func() {
			acct := a.accounts[w%len(a.accounts)]
			body := kinds[w%len(a.accounts)][w%3]
			for ctx.Err() == nil {
				status, _, wait := a.commit(ctx, acct, body, nil)
				if status == http.StatusOK && w%3 == 0 {
					a.acked.add(ack{Token: acct.Token, Path: "users/" + acct.UID + "/d/ints"}) // if ever taken
				}
				if status != 0 && status != http.StatusOK {
					sleepCtx(ctx, min(max(wait/10, 100*time.Millisecond), time.Second))
				}
			}
		})
	}
	wg.Wait()
}

// Expensive commits (e): heavyClients clients of one account, each committing in a loop one
// document holding an array of heavyElements distinct integers (an index entry each); after a
// 400 the array shrinks by a quarter (not below 1,000), so that the attack settles at the most
// the server accepts.
const (
	heavyClients  = 4
	heavyElements = 120_000
)

func (a *attacker) setupOne(ctx context.Context) error {
	if a.account(ctx, 0) == nil {
		return fmt.Errorf("no account")
	}
	return nil
}

func (a *attacker) attackHeavy(ctx context.Context) {
	acct := a.accounts[0]
	var n atomic.Int64
	n.Store(heavyElements)
	var largest atomic.Int64
	var wg sync.WaitGroup
	for range heavyClients {
		wg.Go(func() {
			for ctx.Err() == nil {
				size := n.Load()
				m := a.marker.Add(1)
				path := fmt.Sprintf("users/%s/heavy/h%06d", acct.UID, m)
				var b strings.Builder
				fmt.Fprintf(&b, `{"writes":[{"update":{"name":%q,"fields":{"m":{"integerValue":"%d"},"a":{"arrayValue":{"values":[`, path, m)
				for i := range size {
					if i > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, `{"integerValue":"%d"}`, m*1_000_000+i)
				}
				b.WriteString(`]}}}}}]}`)
				status, _, wait := a.commit(ctx, acct, []byte(b.String()), map[string]int64{path: m})
				switch status {
				case http.StatusOK:
					if size > largest.Load() {
						largest.Store(size)
					}
				case http.StatusBadRequest:
					n.CompareAndSwap(size, max(size*3/4, 1000))
				case http.StatusTooManyRequests:
					sleepCtx(ctx, min(max(wait, 100*time.Millisecond), time.Second))
				}
				if status != http.StatusOK && status != http.StatusTooManyRequests {
					sleepCtx(ctx, 100*time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	a.setNote("largest array accepted: %d elements", largest.Load())
}

// The page-view flood (f): one browser (one user agent, one address) sending views from
// viewClients connections as fast as it can, each from a new random host-shaped referrer.
const viewClients = 8

func (a *attacker) attackViews(ctx context.Context) {
	c := newClient(0)
	var wg sync.WaitGroup
	for range viewClients {
		wg.Go(func() {
			for ctx.Err() == nil {
				body := fmt.Sprintf(`{"p":"/faq","l":"en","bl":"en-US","r":"%s.%s.com","s":"desktop"}`, randLabel(), randLabel())
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/api/v1/pageviews", strings.NewReader(body))
				req.Header.Set("Content-Type", "text/plain;charset=UTF-8")
				req.Header.Set("Accept-Language", "en-US,en;q=0.9")
				req.Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")
				res, err := c.Do(req)
				if err != nil {
					a.out.fail(ctx, err)
					continue
				}
				res.Body.Close()
				a.out.status(res.StatusCode)
			}
		})
	}
	wg.Wait()
}

func randLabel() string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 4+rand.IntN(8))
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b)
}
