package pages

import (
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// acceptedEncodings reads Accept-Encoding header values and reports whether brotli and gzip
// are acceptable. The server's preference (br > gzip > identity) decides between acceptable
// codings; a weight only matters when it is 0 (refused). It does not allocate.
func acceptedEncodings(values []string) (br, gz bool) {
	const unset, yes, no = 0, 1, 2
	var brState, gzState, anyState int
	for _, value := range values {
		for item := range strings.SplitSeq(value, ",") {
			name, params, _ := strings.Cut(item, ";")
			state := yes
			if refused(params) {
				state = no
			}
			switch name = strings.TrimSpace(name); {
			case strings.EqualFold(name, "br"):
				brState = state
			case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
				gzState = state
			case name == "*":
				anyState = state
			}
		}
	}
	br = brState == yes || brState == unset && anyState == yes
	gz = gzState == yes || gzState == unset && anyState == yes
	return br, gz
}

// refused reports whether an Accept-Encoding item's parameters carry q=0. A weight that does
// not parse counts as refusal.
func refused(params string) bool {
	for param := range strings.SplitSeq(params, ";") {
		key, value, _ := strings.Cut(param, "=")
		if !strings.EqualFold(strings.TrimSpace(key), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		return err != nil || !(q > 0 && q <= 1)
	}
	return false
}

// noneMatch reports whether If-None-Match header values match etag, by weak comparison
// (RFC 9110 §13.1.2): W/"x" matches "x", and * matches any current representation.
func noneMatch(values []string, etag string) bool {
	for _, value := range values {
		for candidate := range strings.SplitSeq(value, ",") {
			candidate = strings.TrimSpace(candidate)
			if candidate == "*" || strings.TrimPrefix(candidate, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// strongETag returns a quoted entity tag derived from body alone, so that every instance of
// the server gives the same bytes the same tag.
func strongETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
}
