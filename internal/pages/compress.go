package pages

import (
	"bytes"
	"compress/gzip"
	"context"
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
	// built holds the gzip and brotli variants the build made (web/scripts/precompress.mjs), at
	// the best levels; nil when it made none, and then Load compresses the body itself.
	built *precompressed
}

// precompressed is the compressed copies of a file the build wrote beside it (x.js.gz and
// x.js.br beside x.js); each is nil where it was not smaller than the file.
type precompressed struct{ gzip, brotli []byte }

// entryJob is an entry to build and where to keep it.
type entryJob struct {
	spec  entrySpec
	store func(*Entry)
}

// Compression is the levels entries are compressed at: gzip's (compress/gzip) and brotli's
// (0 to 11).
type Compression struct{ Gzip, Brotli int }

// startCompression is what Load compresses at the files the build could not: those the
// configuration is written into (the pages and their payloads, about 4 MB). The fastest levels
// that still pay: 0.1 s on 2 cores, for output 30 % larger than bestCompression's, which
// CompressBest then makes in the background.
var startCompression = Compression{Gzip: gzip.BestSpeed, Brotli: 2}

// bestCompression is the levels CompressBest recompresses at, and the build's (precompress.mjs).
var bestCompression = Compression{Gzip: gzip.BestCompression, Brotli: brotli.BestCompression}

// buildEntries builds every job's entry, compressing at the levels given on all CPUs, then
// hands each to its store func, one at a time. It returns the entries whose brotli variant was
// made below bestCompression's levels, for CompressBest.
func buildEntries(jobs []entryJob, levels Compression) ([]*Entry, error) {
	entries := make([]*Entry, len(jobs))
	errs := make([]error, len(jobs))
	limit := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Go(func() {
			limit <- struct{}{}
			defer func() { <-limit }()
			entries[i], errs[i] = buildEntry(job.spec, levels.Gzip, levels.Brotli)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("compress: %w", err)
	}
	var below []*Entry
	for i, job := range jobs {
		job.store(entries[i])
		if job.spec.compress && job.spec.built == nil && levels != bestCompression {
			below = append(below, entries[i])
		}
	}
	return below, nil
}

// buildEntry makes an entry of spec.body: its compressed variants are the build's, or made at
// the given levels (brotliLevel < 0: no brotli). A compressed variant is kept only when it is
// smaller than the body.
func buildEntry(spec entrySpec, gzipLevel, brotliLevel int) (*Entry, error) {
	e := &Entry{
		contentType:  []string{spec.contentType},
		cacheControl: []string{spec.cacheControl},
		vary:         []string{spec.vary},
	}
	e.variants[encIdentity].Store(newVariant(spec.body, encIdentity, spec.etag))
	if !spec.compress {
		return e, nil
	}
	built := spec.built
	if built == nil {
		gz, err := gzipBytes(spec.body, gzipLevel)
		if err != nil {
			return nil, err
		}
		built = &precompressed{gzip: gz}
		if brotliLevel >= 0 {
			if built.brotli, err = brotliBytes(spec.body, brotliLevel); err != nil {
				return nil, err
			}
		}
	}
	e.keepIfSmaller(encGzip, built.gzip, spec.etag)
	e.keepIfSmaller(encBrotli, built.brotli, spec.etag)
	return e, nil
}

// keepIfSmaller makes body the entry's enc variant if it is smaller than the identity and than
// the variant it replaces.
func (e *Entry) keepIfSmaller(enc encoding, body []byte, withETag bool) {
	if body == nil || len(body) >= len(e.variants[encIdentity].Load().body) {
		return
	}
	if cur := e.variants[enc].Load(); cur != nil && len(body) >= len(cur.body) {
		return
	}
	e.variants[enc].Store(newVariant(body, enc, withETag))
}

// compressBest recompresses each entry at bestCompression's levels, one at a time, until all
// are done or ctx ends, and hands each entry's body and copies to done.
func compressBest(ctx context.Context, entries []*Entry, done func(body []byte, p precompressed)) error {
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		identity := e.variants[encIdentity].Load()
		gz, err := gzipBytes(identity.body, bestCompression.Gzip)
		if err != nil {
			return err
		}
		br, err := brotliBytes(identity.body, bestCompression.Brotli)
		if err != nil {
			return err
		}
		e.keepIfSmaller(encGzip, gz, identity.etag != "")
		e.keepIfSmaller(encBrotli, br, identity.etag != "")
		done(identity.body, precompressed{gzip: gz, brotli: br})
	}
	return nil
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
