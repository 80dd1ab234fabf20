package server

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

// Cache-Control values.
const (
	cacheRevalidate = "no-cache"                            // HTML, JSON and other files: always revalidate (ETag)
	cacheImmutable  = "public, max-age=31536000, immutable" // /assets/*: content-hashed names
	cacheNoStore    = "no-store"                            // error pages
)

// Vary values.
const (
	varyEncoding = "Accept-Encoding"
	varyRoot     = "Accept-Encoding, Cookie, Accept-Language" // / depends on the language cookie and header
)
