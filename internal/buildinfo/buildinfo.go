// Package buildinfo says which build of handy is running: its version, the commit it was built
// from and when. The Makefile's build target sets them with -ldflags -X (git describe, git
// rev-parse HEAD, the UTC time); a plain `go build` falls back to what the Go toolchain
// recorded (vcs.revision and vcs.time, when built in a git checkout with -buildvcs). `handy
// version`, the start-up log and the handy_build_info metric read them from here.
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// Set at link time by the Makefile (-ldflags "-X handy/internal/buildinfo.version=…"); strings,
// since -X sets nothing else. Never written at run time.
var (
	version string
	commit  string
	built   string
)

// Unknown stands for a fact the build did not record.
const Unknown = "unknown"

// Info is one build's facts. Every field is set: Unknown when the build did not record it.
type Info struct {
	Version string // git describe --always --dirty ("v1.2.0", "6419ae3-dirty"), or "devel"
	Commit  string // the full commit hash
	Built   string // the build time, RFC 3339 in UTC; for a go build, the commit's time
}

// Get returns the running binary's build facts.
func Get() Info { return get() }

var get = sync.OnceValue(func() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(version, commit, built, bi)
})

// resolve prefers the link-time values and fills what they lack from the toolchain's record.
func resolve(version, commit, built string, bi *debug.BuildInfo) Info {
	var revision, vcsTime string
	modified := false
	if bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	info := Info{Version: version, Commit: commit, Built: built}
	if info.Commit == "" {
		info.Commit = revision
	}
	if info.Built == "" {
		info.Built = vcsTime
	}
	if info.Version == "" {
		switch {
		case bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)":
			info.Version = bi.Main.Version // go install handy@version
		case revision != "":
			// As git describe --always --dirty names an untagged commit.
			info.Version = revision[:min(len(revision), 7)]
			if modified {
				info.Version += "-dirty"
			}
		default:
			info.Version = "devel"
		}
	}
	if info.Commit == "" {
		info.Commit = Unknown
	}
	if info.Built == "" {
		info.Built = Unknown
	}
	return info
}
