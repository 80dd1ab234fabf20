package pages

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/andybalholm/brotli"
)

// compressCache keeps the best-level compressed copies of the files the build could not
// compress (the pages, with the configuration written in) in a directory, named by the SHA-256
// of the file: a restart with the same build and configuration serves them from the start,
// instead of recompressing for seconds on one core (Pages.CompressBest). A copy is used only if it
// decodes to the file, so a torn or altered one costs a recompression, never a wrong answer.
type compressCache struct{ dir string }

// cacheKey names a body's copies.
func cacheKey(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

const cacheSuffixGzip, cacheSuffixBrotli = ".gz", ".br"

// load returns the cached copies of body, whose key is key, or nil when there are none that
// decode to it.
func (c *compressCache) load(key string, body []byte) *precompressed {
	name := filepath.Join(c.dir, key)
	gz, errGz := os.ReadFile(name + cacheSuffixGzip)
	br, errBr := os.ReadFile(name + cacheSuffixBrotli)
	if errGz != nil || errBr != nil {
		return nil
	}
	gzr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil || !decodesTo(gzr, body) || !decodesTo(brotli.NewReader(bytes.NewReader(br)), body) {
		return nil
	}
	return &precompressed{gzip: gz, brotli: br}
}

// decodesTo reports whether r yields exactly want.
func decodesTo(r io.Reader, want []byte) bool {
	got, err := io.ReadAll(io.LimitReader(r, int64(len(want))+1))
	return err == nil && bytes.Equal(got, want)
}

// store writes body's copies, each to a temporary file renamed into place, so that a copy is
// whole or absent, even after a crash.
func (c *compressCache) store(body []byte, p precompressed) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("Compression cache: %w", err)
	}
	key := cacheKey(body)
	for suffix, data := range map[string][]byte{cacheSuffixGzip: p.gzip, cacheSuffixBrotli: p.brotli} {
		if err := writeAtomically(filepath.Join(c.dir, key+suffix), data); err != nil {
			return fmt.Errorf("Compression cache: %w", err)
		}
	}
	return nil
}

func writeAtomically(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// prune removes every file but the copies of the keys in keep (an older build's, a temporary
// file a crash left), so that the directory holds one build's pages and no more.
func (c *compressCache) prune(keep map[string]bool) error {
	entries, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("Compression cache: %w", err)
	}
	var errs []error
	for _, e := range entries {
		key := strings.TrimSuffix(strings.TrimSuffix(e.Name(), cacheSuffixGzip), cacheSuffixBrotli)
		if !e.Type().IsRegular() || keep[key] && key != e.Name() {
			continue // not a file of ours, or a copy in use
		}
		if err := os.Remove(filepath.Join(c.dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("Compression cache: %w", err)
	}
	return nil
}
