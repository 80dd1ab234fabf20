//go:build deploy

package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"handy/internal/config"
	"handy/internal/handytest"
)

// maxExposure is the most `systemd-analyze security` may rate the unit: 2.0 and under is "OK".
const maxExposure = 2.0

// TestUnitVerifies runs `systemd-analyze verify` on the unit, its ExecStart pointed at a
// freshly built handy (verify checks that the binary exists and is executable): no complaint.
func TestUnitVerifies(t *testing.T) {
	unit, err := os.ReadFile("handy.service")
	if err != nil {
		t.Fatal(err)
	}
	bin := handytest.Build(t)
	execStart := regexp.MustCompile(`(?m)^ExecStart=/usr/local/bin/handy$`)
	if !execStart.Match(unit) {
		t.Fatalf("handy.service: no line ExecStart=/usr/local/bin/handy (the path docs/operations.md installs to)")
	}
	copied := filepath.Join(t.TempDir(), "handy.service")
	if err := os.WriteFile(copied, execStart.ReplaceAll(unit, []byte("ExecStart="+bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("systemd-analyze", "verify", copied).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestUnitSecurity rates the unit with `systemd-analyze security --offline`: its overall
// exposure is at most maxExposure ("OK"), also passed as the threshold, so the command itself
// fails above it.
func TestUnitSecurity(t *testing.T) {
	threshold := strconv.Itoa(int(maxExposure * 10))
	out, err := exec.Command("systemd-analyze", "security", "--offline=true", "--threshold="+threshold, "handy.service").CombinedOutput()
	if err != nil {
		t.Errorf("systemd-analyze security: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`Overall exposure level for handy\.service: ([0-9.]+) (\S+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("no overall exposure level in:\n%s", out)
	}
	exposure, err := strconv.ParseFloat(m[1], 64)
	if err != nil || exposure > maxExposure || m[2] != "OK" {
		t.Errorf("exposure %s %s; want at most %.1f, OK:\n%s", m[1], m[2], maxExposure, out)
	}
	t.Logf("%s", m[0])
}

// TestUnitStopTimeout: systemd waits longer than a graceful shutdown with the default
// -shutdown-timeout can take (the requests in flight, then as long again for the buffered page
// views) before it kills handy.
func TestUnitStopTimeout(t *testing.T) {
	unit, err := os.ReadFile("handy.service")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^TimeoutStopSec=(\S+)$`).FindSubmatch(unit)
	if m == nil {
		t.Fatal("handy.service: no TimeoutStopSec")
	}
	stop, err := time.ParseDuration(string(m[1]))
	if err != nil {
		t.Fatalf("TimeoutStopSec=%s: %v (write it as Go reads it, e.g. 45s)", m[1], err)
	}
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if stop <= 2*cfg.ShutdownTimeout {
		t.Errorf("TimeoutStopSec=%s; want more than twice the shutdown timeout, %s", m[1], cfg.ShutdownTimeout)
	}
}
