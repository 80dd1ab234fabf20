package pages

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"
)

// InlineHashes are the CSP sources ('sha256-…') of the inline scripts and styles of the build's
// HTML documents, each sorted.
type InlineHashes struct{ Scripts, Styles []string }

// hashInline returns the CSP sources of the inline scripts and styles of the HTML files.
// The pages inline their small stylesheet (a render-blocking request less on first paint) and
// the theme script (which must run before the first paint); allowing exactly those bytes keeps
// 'unsafe-inline' out of the policy. Only elements without attributes count: a <script
// type="application/json"> is data and needs no hash.
func hashInline(files distFiles) InlineHashes {
	return InlineHashes{Scripts: elementHashes(files, "script"), Styles: elementHashes(files, "style")}
}

// elementHashes returns the CSP source ('sha256-…') of the text of every distinct <tag> element
// without attributes in the HTML files, sorted.
func elementHashes(files distFiles, tag string) []string {
	open, end := []byte("<"+tag+">"), []byte("</"+tag+">")
	seen := map[string]bool{}
	collect := func(f rawFile) {
		if !strings.HasSuffix(f.name, ".html") {
			return
		}
		rest := f.body
		for {
			_, after, ok := bytes.Cut(rest, open)
			if !ok {
				return
			}
			text, tail, ok := bytes.Cut(after, end)
			if !ok {
				return
			}
			sum := sha256.Sum256(text)
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
	for _, f := range files.adminPages {
		collect(f)
	}
	hashes := make([]string, 0, len(seen))
	for h := range seen {
		hashes = append(hashes, h)
	}
	slices.Sort(hashes)
	return hashes
}
