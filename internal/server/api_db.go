package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"handy/internal/docstore"
	"handy/internal/docstore/query"
	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
)

func (s *Server) dbGet(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	p, err := value.ParseDocumentPath(r.PathValue("path"))
	if err != nil {
		return err
	}
	d, err := s.docs.Get(r.Context(), u.ID, p)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}

func (s *Server) dbCommit(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	var body []byte
	if err := s.readBody(w, r, u.ID, jsonOnly, maxCommitBody, &body); err != nil {
		return err
	}
	req, err := s.docs.ParseCommitRequest(body)
	if err != nil {
		return err
	}
	res, err := s.docs.Commit(r.Context(), u.ID, req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

func (s *Server) dbQuery(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	var body struct {
		Parent          string          `json:"parent"`
		StructuredQuery json.RawMessage `json:"structuredQuery"`
	}
	if err := s.readBody(w, r, u.ID, jsonOnly, maxJSONBody, &body); err != nil {
		return err
	}
	q, err := query.Parse(body.Parent, body.StructuredQuery)
	if err != nil {
		return err
	}
	// Spooled (spool.go): the documents are encoded as they are read, then sent once the
	// read has given its connection back; the same bytes as one json.Marshal of the answer.
	sp := s.spools.newSpool(u.ID, "ask for fewer documents at once, with a limit", false)
	defer sp.close()
	if err := s.docs.QueryEach(r.Context(), u.ID, q, func(d value.Doc) error { return sp.item(d) }); err != nil {
		return err
	}
	s.sendSpooled(w, r, http.StatusOK, []byte(`{"documents":[`), sp, []byte("]}\n"))
	return nil
}

// dbListen holds the request until the caller's documents change or the timeout passes. The
// server's shutdown ends it at once with 503, so that a deploy never waits for long polls. Its
// answer is spooled as it is read (spool.go) and the listen keeps its slot among the user's
// listens until the answer is written or the connection is gone, so that the answers clients
// have not read are bounded by those slots.
func (s *Server) dbListen(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	since, timeout, err := listenParams(r)
	if err != nil {
		return err
	}
	// ?continue={horizon}: since is the version of an answer that had "more", and this its
	// "horizon" (docstore.Continue).
	var horizon *int64
	if v := r.URL.Query().Get("continue"); v != "" {
		h, err := strconv.ParseInt(v, 10, 64)
		if err != nil || h < 0 {
			return &status.Error{Code: status.ErrInvalidArgument, Message: fmt.Sprintf("continue %q is not the horizon of an answer with more: a whole number", v)}
		}
		horizon = &h
	}
	// The server's write timeout is shorter than a long poll; the answer's own writes renew it.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(timeout + writeTimeout))
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.shutdownCtx, cancel)
	defer stop()
	// Once the listen starts to wait, the status and headers go out at once: the client knows
	// it is connected (online) without waiting for a change or the timeout. A failure after that
	// can only be said in the body, as an error object, which the client reads as such.
	waited := false
	sp := s.spools.newSpool(u.ID, "", true)
	defer sp.close()
	ch, done, err := s.docs.ListenTo(ctx, u.ID, since, horizon, timeout, &listenAnswer{sp: sp, waiting: func() {
		waited = true
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		http.NewResponseController(w).Flush()
	}})
	defer done()
	if s.shutdownCtx.Err() != nil {
		err = &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", RetryAfter: time.Second,
			Message: "The server is restarting; listen again."}
	}
	switch {
	case !waited && err != nil:
		return err
	case !waited:
		s.sendSpooled(w, r, http.StatusOK, listenHead(ch), sp, listenTail(ch))
	case err != nil:
		if r.Context().Err() != nil {
			return nil // the client went away: nobody to tell
		}
		e := s.publicError(err)
		if e.Status >= http.StatusInternalServerError && e.Cause != nil {
			s.logFailure(w, r, err)
		}
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}})
	default:
		s.sendSpooled(w, r, 0, listenHead(ch), sp, listenTail(ch))
	}
	return nil
}

// listenParams reads ?since={version}&timeout={seconds}s; since defaults to 0 and timeout to
// 30s.
func listenParams(r *http.Request) (since int64, timeout time.Duration, err error) {
	q := r.URL.Query()
	timeout = docstore.MaxListenTimeout
	if v := q.Get("since"); v != "" {
		if since, err = strconv.ParseInt(v, 10, 64); err != nil {
			return 0, 0, &status.Error{Code: status.ErrInvalidArgument, Message: fmt.Sprintf("since %q is not a version: a whole number", v)}
		}
	}
	if v := q.Get("timeout"); v != "" {
		secs, err := strconv.ParseUint(strings.TrimSuffix(v, "s"), 10, 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return 0, 0, &status.Error{Code: status.ErrInvalidArgument, Message: fmt.Sprintf("timeout %q is not a number of seconds such as 30s", v)}
		case err != nil || secs > uint64(docstore.MaxListenTimeout/time.Second):
			return 0, 0, &status.Error{Code: status.ErrInvalidArgument, Message: fmt.Sprintf("timeout %ss is outside 5s to 30s", strings.TrimSuffix(v, "s"))}
		}
		timeout = time.Duration(secs) * time.Second
	}
	return since, timeout, nil
}
