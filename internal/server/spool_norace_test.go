//go:build !race

package server

// The spool tests' sizes without the race detector: answers of 34 MB, listen answers of 4 MiB
// (see spool_race_test.go).
const (
	raceDetector   = false
	bigDocs        = 32
	listenDocBytes = bigDocBytes
)
