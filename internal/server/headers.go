package server

import (
	"slices"
	"strings"

	"handy/internal/pages"
)

// header is one response header with its value computed once.
type header struct {
	key   string // canonical form, as net/http stores it
	value []string
}

// securityHeaders returns the headers set on every response. HSTS is sent only when the
// public URL is https: over plain http it would be ignored, or worse, pin a local test host.
func securityHeaders(https bool, inline inlineHashes) []header {
	h := []header{
		{"Content-Security-Policy", []string{cspFor(inline)}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Referrer-Policy", []string{"strict-origin-when-cross-origin"}},
		{"Cross-Origin-Opener-Policy", []string{"same-origin"}},
		{"Permissions-Policy", []string{"camera=(), microphone=(), geolocation=(), payment=(), usb=()"}},
		{"X-Frame-Options", []string{"DENY"}},
	}
	if https {
		h = append(h, header{"Strict-Transport-Security", []string{"max-age=63072000; includeSubDomains"}})
	}
	return h
}

// cacheNoStore keeps an answer out of every cache: the API's, errors, health checks.
const cacheNoStore = "no-store"

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

// withTagManager is the sources of the build's inline hashes and the configured tag manager's
// origins (none without one).
func withTagManager(h pages.InlineHashes, origins []string) inlineHashes {
	return inlineHashes{scripts: h.Scripts, styles: h.Styles, tagManager: origins}
}
