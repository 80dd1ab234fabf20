//go:build race

package server

// Under the race detector, which makes encoding many times slower and its own allocations
// blur the heap's figure, the spool tests move less data and do not assert the heap's growth
// (they still check every behaviour).
const (
	raceDetector   = true
	bigDocs        = 4
	listenDocBytes = 64 << 10
)
