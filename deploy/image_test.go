//go:build deploy

// Package deploy holds what operators deploy handy with: the container image's Containerfile
// (built by `make image`, scripts/image/build.sh) and the systemd unit. Its tests check them with
// the tools operators and runtimes use, and only under the build tag deploy: `make test-deploy`
// (part of `make test`) builds the image first and runs them as root, which running the image's
// entry point as its user needs. They need skopeo, umoci and systemd-analyze
// (scripts/tools/ensure-tools.sh image installs them).
package deploy

import (
	"archive/tar"
	"context"
	"crypto/x509"
	"debug/elf"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"handy/internal/handytest"
)

// imageConfig is what the test reads of the image's configuration (Docker's format, which
// keeps the health check; the OCI format has no field for it).
type imageConfig struct {
	Config containerConfig `json:"config"`
}

// containerConfig is how a container of the image runs.
type containerConfig struct {
	User         string
	Env          []string
	Entrypoint   []string
	Cmd          []string
	WorkingDir   string
	Volumes      map[string]struct{}
	ExposedPorts map[string]struct{}
	Labels       map[string]string
	Healthcheck  *struct{ Test []string }
}

// archivePath is the image `make image` wrote, or HANDY_IMAGE.
func archivePath(t *testing.T) string {
	t.Helper()
	path := os.Getenv("HANDY_IMAGE")
	if path == "" {
		path = filepath.Join("..", "build", "handy-image.tar")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no image: %v (`make test-deploy` builds it with `make image`)", err)
	}
	return path
}

// readConfig reads the image's configuration from the OCI archive: index.json, its one
// manifest, the manifest's config.
func readConfig(t *testing.T, archive string) imageConfig {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	small := map[string][]byte{} // index.json and the JSON blobs; the layers are skipped
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		if h.Typeflag == tar.TypeReg && h.Size < 1<<20 {
			if small[strings.TrimPrefix(h.Name, "./")], err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	blob := func(digest string, v any) {
		t.Helper()
		b, ok := small["blobs/"+strings.Replace(digest, ":", "/", 1)]
		if !ok {
			t.Fatalf("%s: no blob %s", archive, digest)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: blob %s: %v", archive, digest, err)
		}
	}
	var index struct{ Manifests []struct{ Digest string } }
	if err := json.Unmarshal(small["index.json"], &index); err != nil || len(index.Manifests) != 1 {
		t.Fatalf("%s: index.json: %v, %d manifests; want one", archive, err, len(index.Manifests))
	}
	var manifest struct{ Config struct{ Digest string } }
	blob(index.Manifests[0].Digest, &manifest)
	var cfg imageConfig
	blob(manifest.Config.Digest, &cfg)
	return cfg
}

// TestImage checks the image's configuration, unpacks it with skopeo and umoci, checks its
// files, and runs its entry point as a container runtime would (chrooted, as its user, with its
// environment): it serves, its health check passes, SIGTERM stops it cleanly, and its database
// is in /data and still there after a restart.
func TestImage(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("the image test runs the entry point chrooted as the image's user: run it as root (CI does)")
	}
	archive := archivePath(t)
	cfg := readConfig(t, archive).Config
	uid, gid := checkConfig(t, cfg)

	dir := t.TempDir()
	layout, bundle := filepath.Join(dir, "layout"), filepath.Join(dir, "bundle")
	command(t, "skopeo", "copy", "--quiet", "oci-archive:"+archive, "oci:"+layout+":handy")
	command(t, "umoci", "unpack", "--image", layout+":handy", bundle)
	root := filepath.Join(bundle, "rootfs")
	checkFiles(t, root, uid, gid)

	container := &handytest.Container{Root: root, UID: uid, GID: gid, Dir: cfg.WorkingDir, Env: cfg.Env}
	start := func() *handytest.Handy {
		return handytest.StartT(t, handytest.Options{Bin: cfg.Entrypoint[0], Args: cfg.Entrypoint[1:], Container: container})
	}
	h := start()
	checkServes(t, h)
	if code, out := healthcheck(t, container, cfg.Healthcheck.Test[1:], h.Env); code != 0 {
		t.Errorf("health check %v exited %d: %s", cfg.Healthcheck.Test, code, out)
	}
	account := signUp(t, h.URL)
	stopCleanly(t, h)
	if code, _ := healthcheck(t, container, cfg.Healthcheck.Test[1:], h.Env); code != 1 {
		t.Errorf("health check with the server stopped exited %d, want 1", code)
	}
	db := filepath.Join(root, "data", "handy.db")
	if st, err := os.Stat(db); err != nil {
		t.Fatalf("the database is not in /data: %v", err)
	} else if owner := st.Sys().(*syscall.Stat_t); owner.Uid != uid || owner.Gid != gid {
		t.Errorf("/data/handy.db owned by %d:%d, want %d:%d", owner.Uid, owner.Gid, uid, gid)
	}

	h = start()
	signIn(t, h.URL, account)
	stopCleanly(t, h)
}

// checkConfig checks the image's configuration and returns its user's numeric ids.
func checkConfig(t *testing.T, cfg containerConfig) (uid, gid uint32) {
	t.Helper()
	ids := regexp.MustCompile(`^([0-9]+):([0-9]+)$`).FindStringSubmatch(cfg.User)
	if ids == nil || ids[1] == "0" || ids[2] == "0" {
		t.Fatalf("user %q; want numeric uid:gid, not root (a runtime needs no /etc/passwd lookup for it)", cfg.User)
	}
	u, _ := strconv.ParseUint(ids[1], 10, 32)
	g, _ := strconv.ParseUint(ids[2], 10, 32)
	for _, kv := range []string{"HANDY_DATA_DIR=/data", "HANDY_ADDR=:8080"} {
		if !slices.Contains(cfg.Env, kv) {
			t.Errorf("env %q lacks %s", cfg.Env, kv)
		}
	}
	if !slices.Equal(cfg.Entrypoint, []string{"/handy"}) || len(cfg.Cmd) != 0 {
		t.Errorf("entry point %q, cmd %q; want [/handy] and none (arguments are flags)", cfg.Entrypoint, cfg.Cmd)
	}
	if _, ok := cfg.Volumes["/data"]; !ok || len(cfg.Volumes) != 1 {
		t.Errorf("volumes %v; want /data", cfg.Volumes)
	}
	if _, ok := cfg.ExposedPorts["8080/tcp"]; !ok {
		t.Errorf("exposed ports %v; want 8080/tcp", cfg.ExposedPorts)
	}
	if cfg.Healthcheck == nil || !slices.Equal(cfg.Healthcheck.Test, []string{"CMD", "/handy", "healthcheck"}) {
		t.Fatalf("health check %+v; want CMD /handy healthcheck", cfg.Healthcheck)
	}
	labels := cfg.Labels
	if want := os.Getenv("HANDY_IMAGE_VERSION"); labels["org.opencontainers.image.version"] == "" || (want != "" && labels["org.opencontainers.image.version"] != want) {
		t.Errorf("version label %q; want %q (git describe, from the Makefile)", labels["org.opencontainers.image.version"], want)
	}
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(labels["org.opencontainers.image.revision"]) {
		t.Errorf("revision label %q; want a commit", labels["org.opencontainers.image.revision"])
	}
	if _, err := time.Parse(time.RFC3339, labels["org.opencontainers.image.created"]); err != nil {
		t.Errorf("created label: %v", err)
	}
	if labels["org.opencontainers.image.title"] != "handy" {
		t.Errorf("title label %q", labels["org.opencontainers.image.title"])
	}
	return uint32(u), uint32(g)
}

// checkFiles checks the unpacked root: the binary static (a scratch image has no C library
// to load), the CA certificates, the user's entries, /data the user's alone, /tmp writable by
// all.
func checkFiles(t *testing.T, root string, uid, gid uint32) {
	t.Helper()
	bin, err := elf.Open(filepath.Join(root, "handy"))
	if err != nil {
		t.Fatalf("/handy: %v", err)
	}
	defer bin.Close()
	for _, p := range bin.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("/handy is dynamically linked (an ELF interpreter); build it with CGO_ENABLED=0")
		}
	}
	pem, err := os.ReadFile(filepath.Join(root, "etc/ssl/certs/ca-certificates.crt"))
	if err != nil || !x509.NewCertPool().AppendCertsFromPEM(pem) {
		t.Errorf("CA certificates: %v, or no PEM certificate in them", err)
	}
	for file, want := range map[string]string{
		"etc/passwd": fmt.Sprintf("handy:x:%d:%d:", uid, gid),
		"etc/group":  fmt.Sprintf("handy:x:%d:", gid),
	} {
		if b, err := os.ReadFile(filepath.Join(root, file)); err != nil || !strings.HasPrefix(string(b), want) {
			t.Errorf("/%s: %v %q; want an entry %q", file, err, b, want)
		}
	}
	for path, want := range map[string]struct {
		mode     os.FileMode
		uid, gid uint32
	}{
		"data":  {os.ModeDir | 0o700, uid, gid},
		"tmp":   {os.ModeDir | os.ModeSticky | 0o777, 0, 0},
		"handy": {0o755, 0, 0},
	} {
		st, err := os.Stat(filepath.Join(root, path))
		if err != nil {
			t.Errorf("/%s: %v", path, err)
			continue
		}
		owner := st.Sys().(*syscall.Stat_t)
		if st.Mode() != want.mode || owner.Uid != want.uid || owner.Gid != want.gid {
			t.Errorf("/%s: %v %d:%d; want %v %d:%d", path, st.Mode(), owner.Uid, owner.Gid, want.mode, want.uid, want.gid)
		}
	}
}

// command runs a tool, failing the test with its output; the deadline only ends a hung run.
func command(t *testing.T, name string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// healthcheck runs the image's health-check command in the container (chrooted, as its user,
// with the entry point's environment), as a runtime's exec would, and returns its exit code
// and output.
func healthcheck(t *testing.T, c *handytest.Container, argv, env []string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, c.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: c.Root, Credential: &syscall.Credential{Uid: c.UID, Gid: c.GID}}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("health check: %v", err)
	}
	return 0, string(out)
}

// stopCleanly sends SIGTERM: handy exits 0 having logged "stopped".
func stopCleanly(t *testing.T, h *handytest.Handy) {
	t.Helper()
	if err := h.Stop(); err != nil {
		t.Fatalf("SIGTERM: %v\n%s", err, h.Log)
	}
	if !strings.Contains(h.Log.String(), "msg=stopped") {
		t.Errorf("no \"stopped\" in the log:\n%s", h.Log)
	}
}
