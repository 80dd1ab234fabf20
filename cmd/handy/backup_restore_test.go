package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"handy/internal/store"
)

// restoreBatches is how many batches are acknowledged before the backup begins; the writer
// then keeps committing through it, and a few more after it ended.
const (
	restoreBatches = 40
	restoreAfter   = 5
	restoreMax     = 5000 // a bound on the writer, should the backup take very long
)

// TestBackupRestore performs docs/operations.md's restore for real: acknowledged writes
// through the HTTP API, `handy backup` while a writer keeps committing, the server stopped,
// the database file replaced by the backup (its -wal and -shm removed), the server started
// again. Every batch acknowledged before the backup began is there as acknowledged (at its
// version moved by the backup's jump), and the restored batches are whole and a prefix of the
// writer's: none begun after the backup ended. A browser that heard those later batches is
// reset on its next listen: to the restored documents, at versions after the one it heard.
func TestBackupRestore(t *testing.T) {
	bin := buildHandy(t)
	data := t.TempDir()
	args := []string{"-data-dir", data, "-write-rate", "1000000"} // the writer is not rate-limited
	p := startHandy(t, bin, args)
	c := newAPIClient(p.URL)
	u, err := c.signup("restore@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		batches []*killBatch // in the order sent, one at a time
		acked   atomic.Int64 // batches acknowledged, a prefix of batches
	)
	commit := func(seq int64) error {
		b := newKillBatch(u.id, 0, seq)
		mu.Lock()
		batches = append(batches, b)
		mu.Unlock()
		status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("batch %d: %d %v %s", seq, status, err, answer)
		}
		mu.Lock()
		b.ack = answer
		mu.Unlock()
		acked.Add(1)
		return nil
	}
	for seq := int64(1); seq <= restoreBatches; seq++ {
		if err := commit(seq); err != nil {
			t.Fatal(err)
		}
	}
	var backupEnded atomic.Bool
	var startedAfterEnd atomic.Int64 // the first batch begun once the backup had ended
	writer := make(chan error, 1)
	go func() {
		for seq := int64(restoreBatches + 1); seq <= restoreMax; seq++ {
			if backupEnded.Load() {
				startedAfterEnd.CompareAndSwap(0, seq)
				if seq >= startedAfterEnd.Load()+restoreAfter {
					break
				}
			}
			if err := commit(seq); err != nil {
				writer <- err
				return
			}
		}
		writer <- nil
	}()

	ackedAtStart := acked.Load()
	dest := filepath.Join(t.TempDir(), "handy-backup.db")
	out, err := runCommand(bin, "backup", "-data-dir", data, dest)
	backupEnded.Store(true)
	if err != nil {
		t.Fatalf("handy backup: %v\n%s", err, out)
	}
	if err := <-writer; err != nil {
		t.Fatal(err)
	}
	firstAfter := startedAfterEnd.Load()
	if firstAfter == 0 { // the writer reached restoreMax during the backup
		firstAfter = int64(len(batches)) + 1
	}
	t.Logf("handy backup -data-dir DATA %s, with %d batches acknowledged before it and %d begun during it:\n%s",
		dest, ackedAtStart, firstAfter-1-ackedAtStart, out)
	m := regexp.MustCompile(`newest commit +version (\d+) at `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no newest commit in the summary:\n%s", out)
	}
	backupVersion, _ := strconv.ParseInt(m[1], 10, 64)
	next := continueFrom(t, out)
	// A browser listening all along heard the batches begun after the backup ended.
	heard := hearLast(t, c, u, batches)
	if heard <= backupVersion {
		t.Fatalf("the browser heard version %d, not after the backup's %d", heard, backupVersion)
	}

	// The restore, as docs/operations.md says: stop, move the database's files away, copy the
	// backup in under a temporary name and rename it, start.
	if err := p.Stop(); err != nil {
		t.Fatalf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}
	live := filepath.Join(data, store.SQLiteFile)
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(live + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if err := copyFile(dest, live+".restoring"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(live+".restoring", live); err != nil {
		t.Fatal(err)
	}
	p = startHandy(t, bin, args)
	c = newAPIClient(p.URL)
	present := checkRestored(t, c, u, batches, ackedAtStart, firstAfter, backupVersion, next-backupVersion)

	// It serves: the page, and a new commit with the session the backup kept.
	if res, err := http.Get(p.URL + "/"); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("GET / after the restore: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	after := commitBatch(t, c, u, 1, 1)
	if v := atoi(after.ackVersion(t)); v != next+1 {
		t.Errorf("the first commit after the restore has version %d, want %d", v, next+1)
	}
	checkResetAfterRestore(t, c, u, heard, append(batches[:present:present], after), batches[firstAfter-1:])
	if err := p.Stop(); err != nil {
		t.Errorf("handy exited with %v after SIGTERM:\n%s", err, p.Log)
	}
}

// checkRestored checks the history after the restore against the batches sent: the first
// ackedAtStart are there as acknowledged; every batch is whole or absent; the present ones are
// a prefix, ending before firstAfter (begun after the backup ended); the newest is the
// backup's newest commit. Every version is the one acknowledged moved by shift, the backup's
// jump. It returns how many batches are there.
func checkRestored(t *testing.T, c *apiClient, u killUser, batches []*killBatch, ackedAtStart, firstAfter, backupVersion, shift int64) int {
	t.Helper()
	docs, err := queryHistory(c, u)
	if err != nil {
		t.Fatal(err)
	}
	present, maxVersion := 0, int64(0)
	for i, b := range batches {
		found := 0
		for k, path := range b.paths {
			d, ok := docs[path]
			if !ok {
				continue
			}
			found++
			delete(docs, path)
			maxVersion = max(maxVersion, atoi(d.Version))
			if d.Fields["query"].StringValue != killQuery(b.id, k) {
				t.Errorf("%s holds %+v, not what batch %d wrote", path, d.Fields, b.id)
			}
			if int64(i) < ackedAtStart {
				var a commitAnswer
				if err := json.Unmarshal(b.ack, &a); err != nil || atoi(d.Version) != atoi(a.Version)+shift || d.UpdateTime != a.WriteResults[k].UpdateTime {
					t.Errorf("%s: version %s, updateTime %s; batch %d was acknowledged with %s (and the restore moves versions by %d)", path, d.Version, d.UpdateTime, b.id, b.ack, shift)
				}
			}
		}
		switch {
		case found != 0 && found != len(b.paths):
			t.Errorf("batch %d restored in part: %d of %d documents", b.id, found, len(b.paths))
		case found == 0 && int64(i) < ackedAtStart:
			t.Errorf("batch %d, acknowledged before the backup began, is lost", b.id)
		case found != 0 && present != i:
			t.Errorf("batch %d restored after a gap: the restored batches are not a prefix", b.id)
		case found != 0 && b.id >= firstAfter:
			t.Errorf("batch %d, begun after the backup ended, is in it", b.id)
		}
		if found != 0 {
			present++
		}
	}
	if len(docs) != 0 {
		t.Errorf("%d documents no batch wrote", len(docs))
	}
	if maxVersion != backupVersion+shift {
		t.Errorf("the newest restored document has version %d; the backup said %d, moved by %d", maxVersion, backupVersion, shift)
	}
	t.Logf("restored %d of %d batches sent (%d acknowledged before the backup began)", present, len(batches), ackedAtStart)
	return present
}

// runCommand runs the handy binary to its end without the caller's HANDY_* variables, and
// returns what it wrote to stdout and stderr.
func runCommand(bin string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HANDY_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(2 * time.Minute): // a hung command fails the test, never a slow one
		cmd.Process.Kill()
		<-done
		return out.String(), fmt.Errorf("%s %v did not end within 2 minutes", bin, args)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
