package pages

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
