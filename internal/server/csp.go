package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"
)

// cspFor returns the Content-Security-Policy: only the site's own origin, no inline script
// (hydration data travels in <script type="application/json">), no framing, and no inline style
// but the given ones, allowed by hash.
func cspFor(styleHashes []string) string {
	styleSrc := strings.Join(append([]string{"style-src 'self'"}, styleHashes...), " ")
	return "default-src 'self'; script-src 'self'; " + styleSrc + "; img-src 'self' data: blob:; " +
		"font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; " +
		"form-action 'self'; frame-ancestors 'none'"
}

// inlineStyleHashes returns the CSP source ('sha256-…') of every distinct <style> element in
// the HTML files, sorted. The pages inline their small stylesheet (a render-blocking request
// less on first paint); allowing exactly those bytes keeps 'unsafe-inline' out of the policy.
func inlineStyleHashes(files distFiles) []string {
	seen := map[string]bool{}
	collect := func(f rawFile) {
		if !strings.HasSuffix(f.name, ".html") {
			return
		}
		rest := f.body
		for {
			_, after, ok := bytes.Cut(rest, []byte("<style>"))
			if !ok {
				return
			}
			css, tail, ok := bytes.Cut(after, []byte("</style>"))
			if !ok {
				return
			}
			sum := sha256.Sum256(css)
			seen["'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'"] = true
			rest = tail
		}
	}
	for _, f := range files.byURL {
		collect(f)
	}
	for _, pages := range files.errorPages {
		for _, f := range pages {
			collect(f)
		}
	}
	hashes := make([]string, 0, len(seen))
	for h := range seen {
		hashes = append(hashes, h)
	}
	slices.Sort(hashes)
	return hashes
}
