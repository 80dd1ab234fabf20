// Package web hands the built front end (web/dist, written by `make build`) to the Go server.
package web

import (
	"embed"
	"io/fs"
)

// dist holds the front-end build output. It always contains .gitkeep, so the package
// compiles (and `go vet ./...` works) on a fresh clone before the front end is built.
//
//go:embed all:dist
var dist embed.FS

// Dist returns the build output rooted at web/dist.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is a constant, valid path: unreachable
	}
	return sub
}
