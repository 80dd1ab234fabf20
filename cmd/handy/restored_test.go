package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"handy/internal/docstore"
	"handy/internal/store/storetest"
)

// TestRestoredCommand runs `handy restored` in-process on SQLite: it moves the versions by
// docstore.RestoreJump each time it runs, and refuses a data directory without a database
// rather than creating one.
func TestRestoredCommand(t *testing.T) {
	t.Parallel()
	noEnv := func(string) string { return "" }
	data := t.TempDir()
	if code := run([]string{"migrate", "-data-dir", data, "-log-level", "error"}, noEnv, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatalf("migrate exited %d", code)
	}
	for i := int64(1); i <= 2; i++ {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"restored", "-data-dir", data, "-log-level", "error"}, noEnv, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("restored exited %d: %s", code, &stderr)
		}
		if want := fmt.Sprintf("versions continue from %d:", i*docstore.RestoreJump); !strings.HasPrefix(stdout.String(), want) {
			t.Errorf("run %d says %q, want %q…", i, &stdout, want)
		}
	}
	typo := filepath.Join(t.TempDir(), "typo")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"restored", "-data-dir", typo}, noEnv, nil, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "no database at") {
		t.Errorf("restored -data-dir TYPO: exit %d, %q; want 1 and no database at", code, &stderr)
	}
	stdout.Reset()
	if code := run([]string{"restored", "-help"}, noEnv, nil, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "handy restored [flags]") {
		t.Errorf("restored -help: exit %d, %q", code, &stdout)
	}
}

// TestPgRestoreListen performs docs/operations.md's PostgreSQL restore over HTTP: batches
// acknowledged, pg_dump, more batches that a listening browser hears (the restore loses them),
// the server stopped, pg_restore into a new database, `handy restored`, the server started on
// it and a new commit. The browser's listen from the version it heard is a reset to the
// restored documents and the new one, each at a version after the one it heard: it drops the
// lost documents and misses nothing.
func TestPgRestoreListen(t *testing.T) {
	t.Parallel()
	tools := map[string]string{}
	for _, name := range []string{"pg_dump", "pg_restore"} {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("%s not found (%v): install Debian's postgresql-client (scripts/tools/ensure-tools.sh)", name, err)
		}
		tools[name] = path
	}
	bin := buildHandy(t)
	srcURL, dstURL := storetest.URL(t), storetest.URL(t)
	args := func(url string) []string { return []string{"-data-dir", t.TempDir(), "-database-url", url} }
	p := startHandy(t, bin, args(srcURL))
	c := newAPIClient(p.URL)
	u, err := c.signup("pg-restore@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var kept, lost []*killBatch
	for seq := int64(1); seq <= 10; seq++ {
		kept = append(kept, commitBatch(t, c, u, 0, seq))
	}
	dump := filepath.Join(t.TempDir(), "handy.dump")
	if out, err := exec.Command(tools["pg_dump"], "-Fc", "-f", dump, srcURL).CombinedOutput(); err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, out)
	}
	for seq := int64(11); seq <= 15; seq++ {
		lost = append(lost, commitBatch(t, c, u, 0, seq))
	}
	heard := hearLast(t, c, u, lost)
	if err := p.Stop(); err != nil {
		t.Fatalf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}

	if out, err := exec.Command(tools["pg_restore"], "--no-owner", "--exit-on-error", "-d", dstURL, dump).CombinedOutput(); err != nil {
		t.Fatalf("pg_restore: %v\n%s", err, out)
	}
	out, err := runCommand(bin, append([]string{"restored", "-log-level", "error"}, args(dstURL)...)...)
	if err != nil {
		t.Fatalf("handy restored: %v\n%s", err, out)
	}
	t.Logf("handy restored -database-url DST: %s", out)
	next := continueFrom(t, out)
	p = startHandy(t, bin, args(dstURL))
	c = newAPIClient(p.URL)
	after := commitBatch(t, c, u, 1, 1)
	if v := atoi(after.ackVersion(t)); v != next+1 || v <= heard {
		t.Errorf("the first commit after the restore has version %d, want %d (after the %d heard)", v, next+1, heard)
	}
	checkResetAfterRestore(t, c, u, heard, append(kept, after), lost)
	if err := p.Stop(); err != nil {
		t.Errorf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}
}

// commitBatch commits newKillBatch(u, writer, seq) and fails the test unless it is
// acknowledged.
func commitBatch(t *testing.T, c *apiClient, u killUser, writer int, seq int64) *killBatch {
	t.Helper()
	b := newKillBatch(u.id, writer, seq)
	status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
	if err != nil || status != http.StatusOK {
		t.Fatalf("batch %d of writer %d: %d %v %s", seq, writer, status, err, answer)
	}
	b.ack = answer
	return b
}

func (b *killBatch) ackVersion(t *testing.T) string {
	t.Helper()
	var a commitAnswer
	if err := json.Unmarshal(b.ack, &a); err != nil {
		t.Fatalf("batch %d's answer %s: %v", b.id, b.ack, err)
	}
	return a.Version
}

// hearLast listens as a browser that heard every batch before the last of batches: the
// answer is the last batch, no reset, and its version is the one returned.
func hearLast(t *testing.T, c *apiClient, u killUser, batches []*killBatch) int64 {
	t.Helper()
	last := batches[len(batches)-1]
	a, err := c.listen(u.token, atoi(batches[len(batches)-2].ackVersion(t)), "")
	if err != nil || a.Reset || a.Version != last.ackVersion(t) || !slices.Equal(names(a.Changes), sorted(last.paths)) {
		t.Fatalf("listen before the restore: %+v (%v); want batch %d at %s", a, err, last.id, last.ackVersion(t))
	}
	return atoi(a.Version)
}

// checkResetAfterRestore listens from heard, a version the old server handed out after the
// copy, following the pages: the answer is a reset to exactly the user's document and those of
// want, each at a version after heard, none of lost's; listening on from it is no reset.
func checkResetAfterRestore(t *testing.T, c *apiClient, u killUser, heard int64, want, lost []*killBatch) {
	t.Helper()
	got := map[string]int64{}
	since, horizon, pages := heard, "", 0
	for {
		a, err := c.listen(u.token, since, horizon)
		if err != nil {
			t.Fatal(err)
		}
		if pages++; a.Reset != (pages == 1) {
			t.Fatalf("page %d of the listen from %d: reset %v; want a reset, then its pages", pages, heard, a.Reset)
		}
		for _, ch := range a.Changes {
			if ch.Deleted {
				t.Errorf("the reset brings a deletion of %s", ch.Name)
			}
			got[ch.Name] = atoi(ch.Version)
		}
		since = atoi(a.Version)
		if !a.More {
			break
		}
		horizon = a.Horizon
	}
	// The user's own document, made at sign-up before the copy, and the batches' documents.
	wantNames := map[string]bool{"users/" + u.id: true}
	if _, ok := got["users/"+u.id]; !ok {
		t.Errorf("the reset lacks the user's document users/%s", u.id)
	}
	for _, b := range want {
		for _, p := range b.paths {
			wantNames[p] = true
			if _, ok := got[p]; !ok {
				t.Errorf("the reset lacks %s (batch %d)", p, b.id)
			}
		}
	}
	for _, b := range lost {
		for _, p := range b.paths {
			if _, ok := got[p]; ok {
				t.Errorf("the reset brings %s, of batch %d the restore lost", p, b.id)
			}
		}
	}
	for name, v := range got {
		if !wantNames[name] {
			t.Errorf("the reset brings %s, which no restored batch wrote", name)
		}
		if v <= heard {
			t.Errorf("%s comes at version %d, not after the %d heard: a browser keeps its own copy of it", name, v, heard)
		}
	}
	t.Logf("the listen from %d (heard before the restore): a reset to %d documents in %d pages, then from %d", heard, len(got), pages, since)
	next := commitBatch(t, c, u, 2, 1)
	a, err := c.listen(u.token, since, "")
	if err != nil || a.Reset || !slices.Equal(names(a.Changes), sorted(next.paths)) {
		t.Errorf("listening on from the reset: %+v (%v); want batch %d, no reset", a, err, next.id)
	}
}

// listenAnswer is a listen's answer.
type listenAnswer struct {
	Reset   bool           `json:"reset"`
	Version string         `json:"version"`
	Changes []listenChange `json:"changes"`
	More    bool           `json:"more"`
	Horizon string         `json:"horizon"`
}

type listenChange struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Deleted bool   `json:"deleted"`
}

// listen is GET /api/v1/db/listen from since (with continue=horizon unless empty). Only
// called where changes are due, so it answers at once.
func (c *apiClient) listen(token string, since int64, horizon string) (listenAnswer, error) {
	q := "since=" + strconv.FormatInt(since, 10) + "&timeout=5s"
	if horizon != "" {
		q += "&continue=" + horizon
	}
	req, err := http.NewRequest(http.MethodGet, c.base+"/api/v1/db/listen?"+q, nil)
	if err != nil {
		return listenAnswer{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.http.Do(req)
	if err != nil {
		return listenAnswer{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	var a listenAnswer
	if err != nil || resp.StatusCode != http.StatusOK || json.Unmarshal(body, &a) != nil || a.Version == "" {
		return listenAnswer{}, fmt.Errorf("listen ?%s: %d %v %.300s", q, resp.StatusCode, err, body)
	}
	return a, nil
}

// continueFrom reads "versions continue from N" from a command's output.
func continueFrom(t *testing.T, out string) int64 {
	t.Helper()
	m := regexp.MustCompile(`versions continue from (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no \"versions continue from\" in:\n%s", out)
	}
	return atoi(m[1])
}

func names(changes []listenChange) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.Name
	}
	return sorted(out)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
