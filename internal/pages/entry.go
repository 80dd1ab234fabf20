package pages

import (
	"net/http"
	"strconv"
	"sync/atomic"
)

// encoding is a content coding the server can answer with, in order of preference.
type encoding int

const (
	encIdentity encoding = iota
	encGzip
	encBrotli
	numEncodings
)

// variant is one encoding of a file, with its header values computed once so that serving it
// only assigns slices into the header map.
type variant struct {
	body            []byte
	etag            string   // strong, quoted; empty for error pages
	etagHeader      []string // nil when etag is empty
	contentEncoding []string // nil for identity
	contentLength   []string
}

// Entry is a file held in memory in every encoding worth keeping. variants[encIdentity] is
// always set; the others only when they are smaller. A variant is replaced only by a smaller
// one of the same encoding, made in the background (Pages.CompressBest), while requests read.
type Entry struct {
	contentType  []string
	cacheControl []string
	vary         []string
	variants     [numEncodings]atomic.Pointer[variant]
}

// pick returns the variant to send for the request's Accept-Encoding header values.
func (e *Entry) pick(acceptEncoding []string) *variant {
	br, gz := acceptedEncodings(acceptEncoding)
	if v := e.variants[encBrotli].Load(); br && v != nil {
		return v
	}
	if v := e.variants[encGzip].Load(); gz && v != nil {
		return v
	}
	return e.variants[encIdentity].Load()
}

// Write answers r with e and status. For a 200 whose ETag the client holds, it answers 304.
// A HEAD request gets the headers alone.
func (e *Entry) Write(w http.ResponseWriter, r *http.Request, status int) {
	v := e.pick(r.Header["Accept-Encoding"])
	h := w.Header()
	h["Cache-Control"] = e.cacheControl
	h["Vary"] = e.vary
	if v.etagHeader != nil {
		h["Etag"] = v.etagHeader
		if status == http.StatusOK && noneMatch(r.Header["If-None-Match"], v.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h["Content-Type"] = e.contentType
	h["Content-Length"] = v.contentLength
	if v.contentEncoding != nil {
		h["Content-Encoding"] = v.contentEncoding
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		// A failed write means the client went away: there is no one left to tell.
		w.Write(v.body)
	}
}

// String returns the encoding's Content-Encoding value.
func (e encoding) String() string {
	switch e {
	case encGzip:
		return "gzip"
	case encBrotli:
		return "br"
	}
	return "identity"
}

// newVariant wraps body with its precomputed header values.
func newVariant(body []byte, enc encoding, withETag bool) *variant {
	v := &variant{body: body, contentLength: []string{strconv.Itoa(len(body))}}
	if enc != encIdentity {
		v.contentEncoding = []string{enc.String()}
	}
	if withETag {
		v.etag = strongETag(body)
		v.etagHeader = []string{v.etag}
	}
	return v
}

// Vary returns the entry's Vary header value, for a redirect that depends on what the entry's
// answer depends on.
func (e *Entry) Vary() []string { return e.vary }
