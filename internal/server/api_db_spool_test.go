package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// Spooled answers (spool.go, answer.go) measured, not timed: readers that stop after a few
// bytes cost the server's heap a small buffer each, not their answers, and no database
// connection; resumed, they get their whole answers; a reader that never resumes is cut by the
// write deadline and gives its spool back; past the budgets the answer is 429.

// bigDocBytes is the size of the documents of bigServer's user (bigDocs of them: 32, 4 under
// the race detector).
const bigDocBytes = 1 << 20

// bigDoc is a write of a document of about size bytes at rel under u.
func bigDoc(t *testing.T, u dbUser, rel string, i, size int) docstore.Write {
	t.Helper()
	p, err := value.ParseDocumentPath(u.path(rel))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat(string(rune('a'+i%26)), size-256)
	return docstore.Write{Path: p, Fields: value.Fields{"tool": {Kind: value.String, Str: "area"}, "blob": {Kind: value.String, Str: text}}}
}

// bigServer is a server whose user has bigDocs entries of about bigDocBytes each in "files"
// (a query answer of about 34 MB), written straight through the store; its spools' files go
// to a directory of the test's own.
func bigServer(t *testing.T, st *store.Store) (*Server, dbUser, string) {
	t.Helper()
	srv := newDBServer(t, st, docstore.WithWriteRate(1<<20, 1<<20))
	dir := t.TempDir()
	srv.spools = newSpools(dir, 4<<30, 4<<30)
	u := dbSignup(t, srv.handler, "big@example.com")
	for i := range bigDocs {
		w := bigDoc(t, u, fmt.Sprintf("files/f%02d", i), i, bigDocBytes)
		if _, err := srv.docs.Commit(context.Background(), u.uid, docstore.CommitRequest{Writes: []docstore.Write{w}}); err != nil {
			t.Fatal(err)
		}
	}
	return srv, u, dir
}

const filesQuery = `{"from":[{"collectionId":"files"}],"orderBy":[{"field":{"fieldPath":"tool"}}]}`

// newSlowServer serves h with small kernel send buffers on its connections: without them the
// loopback's socket buffers (megabytes) would take a whole answer of the smaller sizes the race
// detector's runs use, and no write would ever wait. (The client's receive buffer is left
// alone: shrunk after the connection opens, the advertised window stalls the transfer.)
func newSlowServer(h http.Handler) *httptest.Server {
	ts := httptest.NewUnstartedServer(h)
	ts.Listener = smallBuffers{ts.Listener}
	ts.Start()
	return ts
}

type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(16 << 10)
	}
	return c, err
}

// slowReader is a raw connection that sent one request and has read only a few bytes of the
// answer.
type slowReader struct {
	conn net.Conn
	br   *bufio.Reader
}

// startSlow sends u's request to addr and reads the answer's first bytes: "query", "export",
// or a listen's query string.
func startSlow(t *testing.T, addr string, u dbUser, what string) *slowReader {
	t.Helper()
	var req *http.Request
	switch what {
	case "export":
		req = httptest.NewRequest("GET", "http://"+addr+"/api/v1/auth/me/export", nil)
	case "query":
		body := `{"parent":"` + u.path("") + `","structuredQuery":` + filesQuery + `}`
		req = httptest.NewRequest("POST", "http://"+addr+"/api/v1/db/query", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = int64(len(body))
	default:
		req = httptest.NewRequest("GET", "http://"+addr+"/api/v1/db/listen?"+what, nil)
	}
	req.AddCookie(&http.Cookie{Name: xsrfCookie, Value: u.xsrf})
	req.Header.Set(xsrfHeader, u.xsrf)
	req.Header.Set("Authorization", "Bearer "+u.token)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReaderSize(conn, 16) // the smallest buffer: a few bytes read, then nothing
	if _, err := br.Peek(1); err != nil {
		t.Fatal(err)
	}
	return &slowReader{conn, br}
}

// finish reads the rest of the answer.
func (s *slowReader) finish() (*http.Response, []byte, error) {
	res, err := http.ReadResponse(s.br, nil)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return res, body, err
}

// heapInUse is the heap in use after two collections: the second empties the sync.Pools'
// victims (json's encoders', pgx's read buffers), which are not held by anything.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// spooled is the disk bytes srv's spools hold.
func spooled(srv *Server) int64 {
	srv.spools.disk.mu.Lock()
	defer srv.spools.disk.mu.Unlock()
	return srv.spools.disk.used
}

// waitUntil polls cond until it holds, failing the test if it has not after three minutes:
// the deadline only ends a hung test.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
	}
}

// noFiles checks that the spools' directory is empty: their files are unlinked once created.
func noFiles(t *testing.T, dir string) {
	t.Helper()
	if names, err := os.ReadDir(dir); err != nil || len(names) > 0 {
		t.Errorf("the spool directory holds %d names (%v): want none, the files unlinked", len(names), err)
	}
}

// TestDBSpoolSlowReaders: readers of queries and exports that stop after a few bytes, once
// their answers are spooled whole, hold the server's heap far below their answers' size and no
// database connection (a query runs meanwhile, and the read slots are free); resumed, each gets
// its whole answer, the same bytes as one read at once. Not parallel: it measures the heap.
func TestDBSpoolSlowReaders(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		const readers = 6 // 3 queries and 3 exports of 34 MB each
		srv, u, dir := bigServer(t, st)
		// The answers are built one at a time (one read slot per user): on a loaded machine the
		// first readers would be cut as stalled (TestDBSpoolStalledReaderCut's business) before
		// the last answer is spooled, and the spools could never all be full at once.
		srv.answerStall = 10 * time.Minute
		wantQuery := u.query(u.path(""), filesQuery)
		wantExport := u.do("GET", "/api/v1/auth/me/export", "", "", nil)
		if wantQuery.status != 200 || len(wantQuery.raw) < bigDocs*(bigDocBytes-256) || wantExport.status != 200 {
			t.Fatalf("query %d (%d bytes), export %d", wantQuery.status, len(wantQuery.raw), wantExport.status)
		}
		ts := newSlowServer(srv.handler)
		defer ts.Close()
		addr := ts.Listener.Addr().String()

		before := heapInUse()
		slow := make([]*slowReader, readers)
		for i := range slow {
			slow[i] = startSlow(t, addr, u, map[bool]string{false: "query", true: "export"}[i%2 == 1])
		}
		// Each answer is spooled whole before it is sent: wait until all of them are.
		total := int64(readers/2)*int64(len(wantQuery.raw)) + int64(readers/2)*int64(len(wantExport.raw))
		waitUntil(t, "the answers spooled", func() bool { return spooled(srv) >= total-int64(readers)*(spoolMemory+1024) })
		growth := int64(heapInUse()) - int64(before)
		t.Logf("%s: %d readers stopped after a few bytes of answers of %.1f MB each: heap %+.1f MiB, %.0f MB spooled on disk",
			st.Engine(), readers, float64(len(wantQuery.raw))/1e6, float64(growth)/(1<<20), float64(spooled(srv))/1e6)
		if limit := int64(16 << 20); growth > limit && !raceDetector {
			t.Errorf("the heap grew by %d MiB with %d stopped readers (answers of %d MB in all): want under %d MiB",
				growth>>20, readers, total/1e6, limit>>20)
		}
		noFiles(t, dir)
		// No database connection nor read slot is held: another query is answered meanwhile.
		if a := u.query(u.path(""), `{"from":[{"collectionId":"none"}]}`); a.status != 200 {
			t.Errorf("a query while the slow readers hold their answers: %d %.200s", a.status, a.raw)
		}

		// Resumed, each reader gets the whole answer: the same bytes (the export's time aside).
		results := make(chan string, readers)
		for i, s := range slow {
			go func() {
				res, body, err := s.finish()
				switch {
				case err != nil:
					results <- fmt.Sprintf("reader %d: %v", i, err)
				case res.StatusCode != 200:
					results <- fmt.Sprintf("reader %d: status %d", i, res.StatusCode)
				case i%2 == 0 && string(body) != wantQuery.raw:
					results <- fmt.Sprintf("reader %d: query answer of %d bytes differs from the %d bytes read at once", i, len(body), len(wantQuery.raw))
				case i%2 == 1 && !sameExport(body, []byte(wantExport.raw)):
					results <- fmt.Sprintf("reader %d: export of %d bytes differs from the %d bytes read at once", i, len(body), len(wantExport.raw))
				default:
					results <- ""
				}
			}()
		}
		for range slow {
			if r := <-results; r != "" {
				t.Error(r)
			}
		}
		waitUntil(t, "the spools given back", func() bool { return spooled(srv) == 0 })
	})
}

// sameExport reports whether two exports are the same but for their exportedAt.
func sameExport(a, b []byte) bool {
	_, restA, okA := bytes.Cut(a, []byte(`,"user":`))
	_, restB, okB := bytes.Cut(b, []byte(`,"user":`))
	return okA && okB && bytes.Equal(restA, restB)
}

// TestDBSpoolStalledReaderCut: a reader that never reads past its first bytes is cut once a
// write has waited the stall bound (shortened here), and its spool is given back: what it then
// reads is an incomplete answer, never a valid but truncated one.
func TestDBSpoolStalledReaderCut(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		srv, u, _ := bigServer(t, st)
		srv.answerStall = 200 * time.Millisecond
		ts := newSlowServer(srv.handler)
		defer ts.Close()
		for _, what := range []string{"query", "export"} {
			s := startSlow(t, ts.Listener.Addr().String(), u, what)
			waitUntil(t, what+" spooled", func() bool { return spooled(srv) > 0 })
			waitUntil(t, what+" cut and its spool given back", func() bool { return spooled(srv) == 0 })
			res, body, err := s.finish()
			if err == nil && res.StatusCode == 200 && json.Valid(body) {
				t.Errorf("%s: the stalled reader got a whole answer of %d bytes, want it cut", what, len(body))
			}
		}
	})
}

// TestDBSpoolBudgets: past the user's disk budget, and past the server's, an answer is
// refused with 429 resource-exhausted, a Retry-After and the limit's flag; an answer alone
// larger than the user's budget says so; answers that fit in memory are not refused.
func TestDBSpoolBudgets(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		srv, u, dir := bigServer(t, st)
		refused := func(a answer, flag, part string) {
			t.Helper()
			if a.status != 429 || errCode(a) != "resource-exhausted" || a.header.Get("Retry-After") == "" ||
				!strings.Contains(errMessage(a), flag) || !strings.Contains(errMessage(a), part) {
				t.Errorf("want 429 naming %s (%q): %d %v %.200s", flag, part, a.status, a.header, a.raw)
			}
		}
		answer := int64(len(u.query(u.path(""), filesQuery).raw))
		commitOK(t, u.commit(writes(update(u.path("notes/n1"), `{"text":{"stringValue":"small"}}`, ""))), 1)
		notes := `{"from":[{"collectionId":"notes"}]}`

		srv.spools = newSpools(dir, 4<<30, answer/2)
		refused(u.query(u.path(""), filesQuery), "-answer-spool-bytes-per-user", "this answer is larger")

		// One stalled answer holds the user's budget: the next is refused, a small one is not.
		srv.spools = newSpools(dir, 4<<30, answer*3/2)
		ts := newSlowServer(srv.handler)
		defer ts.Close()
		stalled := startSlow(t, ts.Listener.Addr().String(), u, "query")
		defer stalled.conn.Close() // before ts.Close, which waits for its connection
		waitUntil(t, "the query spooled", func() bool { return spooled(srv) >= answer-spoolMemory-1024 })
		refused(u.query(u.path(""), filesQuery), "-answer-spool-bytes-per-user", "read them")
		if a := u.query(u.path(""), notes); a.status != 200 || !strings.Contains(a.raw, "small") {
			t.Errorf("a small answer while the user's budget is held: %d %.200s", a.status, a.raw)
		}

		// Another user's answer past the server's budget is refused too.
		srv.spools.disk.mu.Lock()
		srv.spools.disk.total = answer * 3 / 2
		srv.spools.disk.mu.Unlock()
		other := dbSignup(t, srv.handler, "other@example.com")
		var ws []docstore.Write
		for i := range bigDocs * 3 / 4 {
			ws = append(ws, bigDoc(t, other, fmt.Sprintf("files/f%02d", i), i, bigDocBytes))
		}
		for _, w := range ws {
			if _, err := srv.docs.Commit(context.Background(), other.uid, docstore.CommitRequest{Writes: []docstore.Write{w}}); err != nil {
				t.Fatal(err)
			}
		}
		refused(other.query(other.path(""), filesQuery), "-answer-spool-bytes", "the answers the server is sending")
	})
}
