package main

import (
	"fmt"
	"io"

	"handy/internal/buildinfo"
)

// runVersion is `handy version`: the build's version, commit and time, one per line.
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "handy: version takes no arguments, got %q\n", args[0])
		return 2
	}
	b := buildinfo.Get()
	if _, err := fmt.Fprintf(stdout, "version %s\ncommit  %s\nbuilt   %s\n", b.Version, b.Commit, b.Built); err != nil {
		return 1
	}
	return 0
}
