package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	vcs := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "6419ae3f0c1d2e3f4a5b6c7d8e9f00112233445"},
		{Key: "vcs.time", Value: "2026-11-27T18:02:11Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, c := range []struct {
		name                   string
		version, commit, built string
		bi                     *debug.BuildInfo
		want                   Info
	}{
		{"link-time values win", "v1.2.0", "abc", "2026-11-28T09:00:00Z", vcs, Info{"v1.2.0", "abc", "2026-11-28T09:00:00Z"}},
		{"the toolchain's record", "", "", "", vcs, Info{"6419ae3-dirty", "6419ae3f0c1d2e3f4a5b6c7d8e9f00112233445", "2026-11-27T18:02:11Z"}},
		{"a module version", "", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, Info{"v0.3.0", Unknown, Unknown}},
		{"nothing recorded", "", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, Info{"devel", Unknown, Unknown}},
		{"no build info", "", "", "", nil, Info{"devel", Unknown, Unknown}},
	} {
		if got := resolve(c.version, c.commit, c.built, c.bi); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
