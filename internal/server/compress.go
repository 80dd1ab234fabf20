package server

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
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

// buildEntries builds every job's entry, compressing with gzip (best) and brotli (quality 11)
// on all CPUs, then hands each to its store func, one at a time. A compressed variant is kept
// only when it is smaller than the identity.
func buildEntries(jobs []entryJob) error {
	entries := make([]*entry, len(jobs))
	errs := make([]error, len(jobs))
	limit := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Go(func() {
			limit <- struct{}{}
			defer func() { <-limit }()
			entries[i], errs[i] = buildEntry(job.spec, gzip.BestCompression, brotli.BestCompression)
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

func brotliBytes(body []byte, level int) ([]byte, error) {
	var b bytes.Buffer
	bw := brotli.NewWriterLevel(&b, level)
	if _, err := bw.Write(body); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	if err := bw.Close(); err != nil {
		return nil, fmt.Errorf("brotli: %w", err)
	}
	return b.Bytes(), nil
}
