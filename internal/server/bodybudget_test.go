package server

import (
	"cmp"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"handy/internal/account"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestBodyBudgetReserveAtomic: however many reservations race, the bytes held never exceed the
// budget (whole or per owner), exactly what fits is admitted, and releasing gives it all back.
func TestBodyBudgetReserveAtomic(t *testing.T) {
	t.Parallel()
	const size, total, perOwner = 1 << 20, 10 << 20, 4 << 20
	b := newBodyBudget(total, perOwner)
	var mu sync.Mutex
	var releases []func()
	refused := map[string]int{}
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			owner := "user " + strconv.Itoa(i%4) // 4 owners × 16 requests of 1 MiB
			release, err := b.reserve(owner, size)
			mu.Lock()
			defer mu.Unlock()
			var e *Error
			switch {
			case err == nil:
				releases = append(releases, release)
			case errors.As(err, &e) && e.Status == http.StatusTooManyRequests && e.Code == "resource-exhausted" && e.RetryAfter > 0:
				refused[owner]++
			default:
				t.Errorf("reserve: %v", err)
			}
		})
	}
	wg.Wait()
	held, _ := b.held("")
	if len(releases) != total/size || held != total {
		t.Fatalf("%d admitted holding %d bytes, want %d holding %d", len(releases), held, total/size, total)
	}
	for i := range 4 {
		if _, ofOwner := b.held("user " + strconv.Itoa(i)); ofOwner > perOwner {
			t.Errorf("user %d holds %d bytes, more than %d", i, ofOwner, perOwner)
		}
	}
	for _, release := range releases {
		release()
		release() // a second call gives nothing back twice
	}
	if held, _ := b.held(""); held != 0 || len(b.large.byOwner) != 0 {
		t.Fatalf("after every release %d bytes held by %d owners", held, len(b.large.byOwner))
	}
}

// TestBodyBudgetSmallPool: a full pool of big bodies leaves small ones their own, which has
// its own bounds, in all and per owner.
func TestBodyBudgetSmallPool(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	b := newBodyBudget(8*mib, 8*mib) // small bodies: 2 MiB in all, 1 MiB per owner
	if _, err := b.reserve("user big", 8*mib); err != nil {
		t.Fatalf("a big body: %v", err)
	}
	if _, err := b.reserve("user big", smallBody+1); err == nil {
		t.Fatal("a body just over smallBody passed a full pool of big bodies")
	}
	for i := range 16 {
		if _, err := b.reserve("user a", smallBody); err != nil {
			t.Fatalf("small body %d of user a: %v", i, err)
		}
	}
	if _, err := b.reserve("user a", 1); err == nil {
		t.Fatal("user a took more than its share of the small bodies' pool")
	}
	for i := range 16 {
		if _, err := b.reserve("user b", smallBody); err != nil {
			t.Fatalf("small body %d of user b: %v", i, err)
		}
	}
	if _, err := b.reserve("user c", 1); err == nil {
		t.Fatal("the small bodies' pool gave more than its total")
	}
	if total, _ := b.held(""); total != 10*mib {
		t.Fatalf("held %d bytes, want 10 MiB", total)
	}
}

// pendingBody is a request in flight whose body arrives only when the test says so.
type pendingBody struct {
	pw   *io.PipeWriter
	done chan answer
}

// startBody sends a commit declaring length bytes and holds its body back.
func startBody(c *client, path string, length int64) *pendingBody {
	pr, pw := io.Pipe()
	r := httptest.NewRequest("POST", path, pr)
	r.ContentLength = length
	r.RemoteAddr = cmp.Or(c.remote, "192.0.2.10:5555")
	r.Header.Set("Content-Type", "application/json")
	r.AddCookie(&http.Cookie{Name: xsrfCookie, Value: c.xsrf})
	r.Header.Set(xsrfHeader, c.xsrf)
	if c.token != "" {
		r.Header.Set("Authorization", "Bearer"+c.token)
	}
	p := &pendingBody{pw: pw, done: make(chan answer, 1)}
	go func() {
		rec := httptest.NewRecorder()
		c.h.ServeHTTP(rec, r)
		p.done <- answer{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	}()
	return p
}

// waitHeld waits until the budget holds want bytes in all (the requests started have reached
// their reservation); the test's own deadline bounds the wait.
func waitHeld(t *testing.T, b *bodyBudget, want int64) {
	t.Helper()
	for {
		if held, _ := b.held(""); held == want {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestBodyBudget: bodies in flight hold their declared length; past a user's share, or past
// the whole budget, a request is refused 429 resource-exhausted with Retry-After before its
// body is read; a light user's small body passes while a heavy user is refused; and every
// reservation comes back when its request ends, whether it succeeded, failed on its body or
// lost its client mid-body.
func TestBodyBudget(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		s := newAPIServer(t, st, account.DefaultLimits)
		const mib = 1 << 20
		s.bodies = newBodyBudget(10*mib, 8*mib)
		heavy := dbSignup(t, s.handler, "heavy@example.com")
		light := dbSignup(t, s.handler, "light@example.com")
		third := dbSignup(t, s.handler, "third@example.com")

		h1 := startBody(heavy.client, "/api/v1/db/commit", 3*mib)
		h2 := startBody(heavy.client, "/api/v1/db/commit", 3*mib)
		waitHeld(t, s.bodies, 6*mib)
		refusedOwn := heavy.commit(writes(update(heavy.path("history/x"), `{}`, "")) + pad(3*mib))
		if refusedOwn.status != http.StatusTooManyRequests || errCode(refusedOwn) != "resource-exhausted" || refusedOwn.header.Get("Retry-After") == "" {
			t.Fatalf("heavy user's third body: %d %s (Retry-After %q), want 429 resource-exhausted", refusedOwn.status, refusedOwn.raw, refusedOwn.header.Get("Retry-After"))
		}
		small := light.commit(writes(update(light.path(""), `{"preferences":{"mapValue":{}}}`, "")))
		commitOK(t, small, 1)

		t3 := startBody(third.client, "/api/v1/db/commit", 3*mib)
		waitHeld(t, s.bodies, 9*mib)
		refusedAll := light.commit(writes(update(light.path(""), `{}`, "")) + pad(2*mib))
		if refusedAll.status != http.StatusTooManyRequests || errCode(refusedAll) != "resource-exhausted" || refusedAll.header.Get("Retry-After") == "" {
			t.Fatalf("a body past the whole budget: %d %s, want 429 resource-exhausted", refusedAll.status, refusedAll.raw)
		}
		if held, _ := s.bodies.held(""); held != 9*mib {
			t.Fatalf("refusals changed the bytes held: %d", held)
		}

		h1.pw.CloseWithError(errors.New("client went away")) // mid-body
		if a := <-h1.done; a.status < 400 {
			t.Errorf("a body cut short: %d", a.status)
		}
		waitHeld(t, s.bodies, 6*mib)
		go func() {
			_, _ = h2.pw.Write([]byte("not JSON")) // the handler stops reading at the first error
			h2.pw.Close()
		}()
		if a := <-h2.done; a.status != http.StatusBadRequest {
			t.Errorf("a short, invalid body: %d %s, want 400", a.status, a.raw)
		}
		body := writes(update(third.path(""), `{}`, ""))
		go func() {
			_, _ = io.WriteString(t3.pw, body+pad(3*mib-int64(len(body))))
			t3.pw.Close()
		}()
		if a := <-t3.done; a.status != http.StatusOK {
			t.Errorf("a whole body within the budget: %d %s", a.status, a.raw)
		}
		waitHeld(t, s.bodies, 0)
		if len(s.bodies.large.byOwner) != 0 {
			t.Errorf("owners still holding bytes: %v", s.bodies.large.byOwner)
		}
	})
}

// pad is white space that makes a body n bytes longer: valid JSON after the value.
func pad(n int64) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

// TestEveryBodyThroughTheBudget: readJSON is called by readBody alone, and only the middleware
// (which wraps every body in http.MaxBytesReader and the budget's release) and body.go touch a
// request's Body, so every body, the beacon's and the commit's included, is bounded by its size
// while it is read and by the budget before.
func TestEveryBodyThroughTheBudget(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "readJSON" && fn.Name.Name != "readBody" {
						t.Errorf("%s: %s calls readJSON, not readBody: its body would pass the budget by", name, fn.Name.Name)
					}
				case *ast.SelectorExpr:
					if id, ok := n.X.(*ast.Ident); ok && (id.Name == "r" || id.Name == "req") && n.Sel.Name == "Body" &&
						name != "body.go" && name != "middleware.go" {
						t.Errorf("%s: %s reads the request's Body itself", name, fn.Name.Name)
					}
				}
				return true
			})
		}
	}
}
