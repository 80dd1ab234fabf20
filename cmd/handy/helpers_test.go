package main

import (
	"os"
	"testing"

	"handy/internal/handytest"
	"handy/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// startHandy starts the binary with args (and -log-level info) on a free loopback port and
// waits until /readyz answers 200; the test stops it at the latest when it ends. A -data-dir in
// args is the one it runs on (a restart on the same database), else it gets a fresh one.
func startHandy(t *testing.T, bin string, args []string) *handytest.Handy {
	t.Helper()
	o := handytest.Options{Bin: bin, Args: []string{"-log-level", "info"}}
	for i := 0; i < len(args); i++ {
		if args[i] == "-data-dir" && i+1 < len(args) {
			o.DataDir = args[i+1]
			i++
			continue
		}
		o.Args = append(o.Args, args[i])
	}
	return handytest.StartT(t, o)
}

// buildHandy builds the binary into a temporary directory.
func buildHandy(t *testing.T) string { return handytest.Build(t) }
