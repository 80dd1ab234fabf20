package server

import (
	"path"
	"strings"
)

// contentTypes maps file extensions to Content-Type values. It is fixed here rather than read
// from the system's MIME tables, so that every machine serves the same headers.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".webmanifest": "application/manifest+json",
	".xml":         "application/xml; charset=utf-8",
	".txt":         "text/plain; charset=utf-8",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".jpg":         "image/jpeg",
	".jpeg":        "image/jpeg",
	".gif":         "image/gif",
	".webp":        "image/webp",
	".avif":        "image/avif",
	".ico":         "image/x-icon",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
	".wasm":        "application/wasm",
	".pdf":         "application/pdf",
}

// incompressible lists extensions whose formats are already compressed: gzip and brotli would
// spend start-up time to save nothing.
var incompressible = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".avif": true,
	".woff": true, ".woff2": true, ".zip": true, ".gz": true, ".br": true, ".mp4": true, ".webm": true,
}

// substituted lists the extensions of text files in which the origin placeholder is replaced.
var substituted = map[string]bool{".html": true, ".json": true, ".xml": true, ".txt": true}

// contentTypeOf returns the Content-Type for a file name.
func contentTypeOf(name string) string {
	if ct, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return ct
	}
	return "application/octet-stream"
}
