package server

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"handy/internal/docstore"
)

// A spooled answer (spool.go) goes to the client in chunks of answerChunk bytes, each under a
// write deadline of Server.answerStall (answerStall, the server's write timeout, unless a test
// shortens it) renewed before it: a client that keeps reading, at 32 KiB in 30 s (about
// 1 KiB/s) or faster, gets the whole answer however long it is; one that stops is cut, and its
// spool and listen slot are given back.
const (
	answerChunk = 32 << 10
	answerStall = writeTimeout
)

// chunks holds the buffers that spooled files are read back through.
var chunks = sync.Pool{New: func() any { b := make([]byte, answerChunk); return &b }}

// sendSpooled writes head, the spool's elements and tail: with status non-zero, as a whole
// response with its Content-Length; with 0, after the status and headers already sent (a
// listen's). Once anything may have gone out, a failure (the client gone or stalled past the
// deadline, the spool's file failing to read back) can only cut the answer: the connection is
// closed (panic(http.ErrAbortHandler), which the middleware passes on), so that no client takes
// a truncated answer for a whole one; a server-side failure is logged first.
func (s *Server) sendSpooled(w http.ResponseWriter, r *http.Request, status int, head []byte, sp *spool, tail []byte) {
	if status != 0 {
		h := w.Header()
		h["Content-Type"] = []string{"application/json; charset=utf-8"}
		h["Content-Length"] = []string{strconv.FormatInt(int64(len(head))+sp.size()+int64(len(tail)), 10)}
		w.WriteHeader(status)
	}
	err := s.copyAnswer(w, head, sp, tail)
	if err == nil {
		return
	}
	var local *spoolReadError
	if errors.As(err, &local) && r.Context().Err() == nil {
		s.logFailure(w, r, err)
	}
	panic(http.ErrAbortHandler)
}

// spoolReadError is the spool's file failing to read back: the server's failure, not the
// client's.
type spoolReadError struct{ err error }

func (e *spoolReadError) Error() string { return fmt.Sprintf("spool: reading back: %v", e.err) }
func (e *spoolReadError) Unwrap() error { return e.err }

// copyAnswer writes head, the spool and tail to w in chunks, each under a renewed deadline.
func (s *Server) copyAnswer(w http.ResponseWriter, head []byte, sp *spool, tail []byte) error {
	rc := http.NewResponseController(w)
	write := func(p []byte) error {
		for len(p) > 0 {
			n := min(len(p), answerChunk)
			// A ResponseWriter without a connection (httptest.ResponseRecorder) has no deadline.
			if err := rc.SetWriteDeadline(time.Now().Add(s.answerStall)); err != nil && !errors.Is(err, http.ErrNotSupported) {
				return err
			}
			if _, err := w.Write(p[:n]); err != nil {
				return err
			}
			p = p[n:]
		}
		return nil
	}
	if err := write(head); err != nil {
		return err
	}
	if err := write(sp.mem); err != nil {
		return err
	}
	if sp.file != nil {
		if _, err := sp.file.Seek(0, io.SeekStart); err != nil {
			return &spoolReadError{err}
		}
		buf := chunks.Get().(*[]byte)
		defer chunks.Put(buf)
		for left := sp.fileSize; left > 0; {
			n, err := io.ReadFull(sp.file, (*buf)[:min(left, answerChunk)])
			if err != nil {
				return &spoolReadError{err}
			}
			if err := write((*buf)[:n]); err != nil {
				return err
			}
			left -= int64(n)
		}
	}
	if err := write(tail); err != nil {
		return err
	}
	if err := rc.SetWriteDeadline(time.Now().Add(s.answerStall)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// listenAnswer spools a listen's changes as the store reads them (docstore.Answer).
type listenAnswer struct {
	sp      *spool
	waiting func()
}

func (a *listenAnswer) Waiting()                       { a.waiting() }
func (a *listenAnswer) Change(c docstore.Change) error { return a.sp.item(c) }
func (a *listenAnswer) Truncate(n int) error           { return a.sp.truncate(n) }

// listenHead and listenTail are a listen answer's JSON around its changes' elements, as
// Changes.MarshalJSON writes it.
func listenHead(c docstore.Changes) []byte {
	return fmt.Appendf(nil, `{"reset":%t,"version":"%d","changes":[`, c.Reset, c.Version)
}

func listenTail(c docstore.Changes) []byte {
	if c.More {
		return fmt.Appendf(nil, `],"more":true,"horizon":"%d"}`+"\n", c.Horizon)
	}
	return []byte("]}\n")
}
