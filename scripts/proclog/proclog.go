// Package proclog keeps what a benchmark's child process writes, for the benchmarks under
// scripts/ that start handy and read its log while it runs.
package proclog

import (
	"strings"
	"sync"
)

// Buffer is a process's output: written by exec's copier, read at any time by the benchmark.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
