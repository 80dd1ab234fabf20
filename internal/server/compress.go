package server

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"sync"

	"github.com/andybalholm/brotli"
)

// entrySpec says how to build an entry from a body.
type entrySpec struct {
	body         []byte
	contentType  string
	cacheControl string
	vary         string
	etag         bool // strong ETag per variant (not for error pages)
	compress     bool
}

// entryJob is an entry to build and where to keep it.
type entryJob struct {
	spec  entrySpec
	store func(*entry)
}

// compression is the levels entries are precompressed at.
type compression struct{ gzip, brotli int }

// bestCompression is what the server serves: the bytes are compressed once, at start-up.
var bestCompression = compression{gzip: gzip.BestCompression, brotli: brotli.BestCompression}

// buildEntries builds every job's entry, compressing at the levels given on all CPUs, then
// hands each to its store func, one at a time. A compressed variant is kept only when it is
// smaller than the identity.
func buildEntries(jobs []entryJob, levels compression) error {
	entries := make([]*entry, len(jobs))
	errs := make([]error, len(jobs))
	limit := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Go(func() {
			limit <- struct{}{}
			defer func() { <-limit }()
			entries[i], errs[i] = buildEntry(job.spec, levels.gzip, levels.brotli)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("compress: %w", err)
	}
	for i, job := range jobs {
		job.store(entries[i])
	}
	return nil
}

// buildEntry compresses spec.body at the given levels (brotliLevel < 0: no brotli).
func buildEntry(spec entrySpec, gzipLevel, brotliLevel int) (*entry, error) {
	e := &entry{
		contentType:  []string{spec.contentType},
		cacheControl: []string{spec.cacheControl},
		vary:         []string{spec.vary},
	}
	e.variants[encIdentity] = newVariant(spec.body, encIdentity, spec.etag)
	if !spec.compress {
		return e, nil
	}
	gz, err := gzipBytes(spec.body, gzipLevel)
	if err != nil {
		return nil, err
	}
	if len(gz) < len(spec.body) {
		e.variants[encGzip] = newVariant(gz, encGzip, spec.etag)
	}
	if brotliLevel < 0 {
		return e, nil
	}
	br, err := brotliBytes(spec.body, brotliLevel)
	if err != nil {
		return nil, err
	}
	if len(br) < len(spec.body) {
		e.variants[encBrotli] = newVariant(br, encBrotli, spec.etag)
	}
	return e, nil
}

func gzipBytes(body []byte, level int) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if _, err := zw.Write(body); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return b.Bytes(), nil
}

// brotliBytes compresses body with a window no larger than body needs (as the brotli tool does):
// the same output size for a small file, without setting up a 4 MiB window for each one.
func brotliBytes(body []byte, level int) ([]byte, error) {
	var b bytes.Buffer
	lgwin := min(max(bits.Len(uint(len(body))), 10), 24)
	bw := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: level, LGWin: lgwin})
	if _, err := bw.Write(body); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	if err := bw.Close(); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	return b.Bytes(), nil
}
