package pages

import (
	"path"
	"strings"
)

// contentTypeOf returns the Content-Type for a file name. The table is fixed here rather than
// read from the system's MIME tables, so that every machine serves the same headers.
func contentTypeOf(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".webmanifest":
		return "application/manifest+json"
	case ".xml":
		return "application/xml; charset=utf-8"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".avif":
		return "image/avif"
	case ".ico":
		return "image/x-icon"
	case ".woff":
		return "font/woff"
	case ".woff2":
		return "font/woff2"
	case ".wasm":
		return "application/wasm"
	case ".pdf":
		return "application/pdf"
	}
	return "application/octet-stream"
}

// compressible reports whether a file is worth compressing: formats that are compressed
// already would spend start-up time (brotli 11 is slow) to save nothing.
func compressible(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".woff", ".woff2", ".zip", ".gz", ".br", ".mp4", ".webm":
		return false
	}
	return true
}

// substituted reports whether the origin placeholder is replaced in a file: text formats that
// carry absolute URLs.
func substituted(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".json", ".xml", ".txt":
		return true
	}
	return false
}
