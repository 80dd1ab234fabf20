package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"handy/internal/buildinfo"
)

// TestVersion runs `handy version` in process: the facts of buildinfo, one per line.
func TestVersion(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"version"}, func(string) string { return "" }, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("handy version exited %d: %s", code, stderr.String())
	}
	b := buildinfo.Get()
	want := "version " + b.Version + "\ncommit  " + b.Commit + "\nbuilt   " + b.Built + "\n"
	if stdout.String() != want || b.Version == "" {
		t.Errorf("handy version printed %q, want %q", stdout.String(), want)
	}
	stdout.Reset()
	if code := run([]string{"version", "-json"}, func(string) string { return "" }, nil, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no arguments") {
		t.Errorf("handy version -json: exit %d, stderr %q; want 2 and a word on its arguments", code, stderr.String())
	}
}

// Link-time facts of the binary buildLinked makes.
const (
	linkedVersion = "v9.8.7-test"
	linkedCommit  = "0123456789abcdef0123456789abcdef01234567"
	linkedBuilt   = "2026-11-28T09:15:00Z"
)

// TestVersionLinked builds handy with the Makefile's -ldflags and runs `handy version`: what
// the build target sets is what the binary says.
func TestVersionLinked(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(buildLinked(t), "version").CombinedOutput()
	want := "version " + linkedVersion + "\ncommit  " + linkedCommit + "\nbuilt   " + linkedBuilt + "\n"
	if err != nil || string(out) != want {
		t.Errorf("handy version: %v, printed %q; want %q", err, out, want)
	}
}

// buildLinked builds handy as the Makefile's build target does, with its LDFLAGS line, the
// facts being linkedVersion, linkedCommit and linkedBuilt.
func buildLinked(t *testing.T) string {
	t.Helper()
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^LDFLAGS = (.+)$`).FindSubmatch(makefile)
	if m == nil {
		t.Fatal("the Makefile has no LDFLAGS = line")
	}
	ldflags := strings.NewReplacer("$(VERSION)", linkedVersion, "$(COMMIT)", linkedCommit, "$(BUILT)", linkedBuilt).Replace(string(m[1]))
	bin := filepath.Join(t.TempDir(), "handy")
	if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, "handy/cmd/handy").CombinedOutput(); err != nil {
		t.Fatalf("go build -ldflags %q: %v\n%s", ldflags, err, out)
	}
	return bin
}
