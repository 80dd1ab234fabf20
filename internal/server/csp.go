package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"
)

// inlineHashes are the CSP sources of the pages' inline scripts and styles, and the origins of a
// tag manager and its tags (none unless one is configured).
type inlineHashes struct{ scripts, styles, tagManager []string }

// cspFor returns the Content-Security-Policy: only the site's own origin, no framing, and no
// inline script or style but the given ones, allowed by hash (hydration data travels in
// <script type="application/json">, which is data, not script). A tag manager's origins are
// allowed to serve scripts, receive requests and serve images (its tracking pixels); nothing
// else changes, and inline script stays forbidden.
func cspFor(h inlineHashes) string {
	scriptSrc := strings.Join(slices.Concat([]string{"script-src 'self'"}, h.tagManager, h.scripts), " ")
	styleSrc := strings.Join(append([]string{"style-src 'self'"}, h.styles...), " ")
	tagManager := strings.Join(slices.Concat([]string{""}, h.tagManager), " ") // "" or " https://…"
	return "default-src 'self'; " + scriptSrc + "; " + styleSrc + "; img-src 'self' data: blob:" + tagManager + "; " +
		"font-src 'self'; connect-src 'self'" + tagManager + "; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; " +
		"form-action 'self'; frame-ancestors 'none'"
}

// withTagManager adds the configured tag manager's origins (none without one) to the sources.
func withTagManager(h inlineHashes, origins []string) inlineHashes {
	h.tagManager = origins
	return h
}

// hashInline returns the CSP sources of the inline scripts and styles of the HTML files.
// The pages inline their small stylesheet (a render-blocking request less on first paint) and
// the theme script (which must run before the first paint); allowing exactly those bytes keeps
// 'unsafe-inline' out of the policy. Only elements without attributes count: a <script
// type="application/json"> is data and needs no hash.
func hashInline(files distFiles) inlineHashes {
	return inlineHashes{scripts: elementHashes(files, "script"), styles: elementHashes(files, "style")}
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
