package value

import (
	"strings"
	"unicode/utf8"

	"handy/internal/docstore/status"
)

// Limits on document paths, Firestore's: an id or collection id of at most
// 1500 bytes, a whole name of at most 6 KiB. The name limit also bounds the
// depth, so no separate depth limit is needed.
const (
	MaxSegmentBytes = 1500
	MaxPathBytes    = 6144
)

// Path is a slash path of alternating collection ids and document ids:
// "users" (a collection), "users/u1" (a document), "users/u1/history" (a
// collection), "users/u1/history/h1" (a document). The zero Path is the root,
// the parent of top-level collections. A Path is immutable once parsed.
type Path struct{ segments []string }

// ParsePath parses a relative slash path of either parity. Every segment must
// be a valid id: not empty, valid UTF-8, at most MaxSegmentBytes, not "." or
// "..", and not both beginning and ending with "__" (Firestore reserves those
// ids). The path must not begin or end with "/" and is at most MaxPathBytes.
func ParsePath(s string) (Path, error) {
	switch {
	case s == "":
		return Path{}, status.Invalidf("path is empty")
	case len(s) > MaxPathBytes:
		return Path{}, status.Invalidf("path %.40q… is longer than %d bytes", s, MaxPathBytes)
	case !utf8.ValidString(s):
		return Path{}, status.Invalidf("path %q is not valid UTF-8", s)
	case s[0] == '/':
		// Relative names only: a leading or trailing slash is a mistake in
		// how the name was built, better reported than silently trimmed.
		return Path{}, status.Invalidf("path %q must not begin with \"/\"", s)
	}
	if strings.HasSuffix(s, "/") {
		// "users/u1/history/": most likely a document id that came out empty.
		return Path{}, status.Invalidf("path %q ends with \"/\": its last id is empty", s)
	}
	segs := strings.Split(s, "/")
	for i, seg := range segs {
		if err := validSegment(s, i, seg); err != nil {
			return Path{}, err
		}
	}
	return Path{segments: segs}, nil
}

// ParseDocumentPath parses a path that must name a document.
func ParseDocumentPath(s string) (Path, error) {
	p, err := ParsePath(s)
	if err == nil && !p.IsDocument() {
		return Path{}, status.Invalidf("%s is a collection, not a document", s)
	}
	return p, err
}

// ParseCollectionPath parses a path that must name a collection.
func ParseCollectionPath(s string) (Path, error) {
	p, err := ParsePath(s)
	if err == nil && !p.IsCollection() {
		return Path{}, status.Invalidf("%s is a document, not a collection", s)
	}
	return p, err
}

// validSegment checks segment i of path s. Even positions are collection ids,
// odd ones document ids; the message says which, as the spec's "an empty
// document id is invalid" does.
func validSegment(s string, i int, seg string) error {
	kind := "document id"
	if i%2 == 0 {
		kind = "collection id"
	}
	switch {
	case seg == "":
		return status.Invalidf("path %q: an empty %s is invalid", s, kind)
	case len(seg) > MaxSegmentBytes:
		return status.Invalidf("path %q: a %s is longer than %d bytes", s, kind, MaxSegmentBytes)
	case seg == "." || seg == "..":
		return status.Invalidf("path %q: %q is not a valid %s", s, seg, kind)
	case reservedName(seg):
		return status.Invalidf("path %q: %s %q is reserved (it begins and ends with __)", s, kind, seg)
	}
	return nil
}

// reservedName reports Firestore's reserved names, those matching __.*__:
// "__" and "___" do not match, so they stay allowed.
func reservedName(s string) bool {
	return len(s) >= 4 && strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__")
}

// IsRoot reports whether p is the root (the zero Path).
func (p Path) IsRoot() bool { return len(p.segments) == 0 }

// IsDocument reports whether p names a document (an even, non-zero number of segments).
func (p Path) IsDocument() bool { return len(p.segments) > 0 && len(p.segments)%2 == 0 }

// IsCollection reports whether p names a collection (an odd number of segments).
func (p Path) IsCollection() bool { return len(p.segments)%2 == 1 }

// Len returns the number of segments.
func (p Path) Len() int { return len(p.segments) }

// Segment returns segment i (0-based).
func (p Path) Segment(i int) string { return p.segments[i] }

// Parent returns the collection of a document, the document of a collection,
// or the root for a top-level collection (and for the root itself).
func (p Path) Parent() Path {
	if len(p.segments) == 0 {
		return p
	}
	// Capacity clipped so that Child on the parent never writes into p.
	n := len(p.segments) - 1
	return Path{segments: p.segments[:n:n]}
}

// ID returns the last segment: a document's id or a collection's id ("" for the root).
func (p Path) ID() string {
	if len(p.segments) == 0 {
		return ""
	}
	return p.segments[len(p.segments)-1]
}

// Child returns p extended by one segment, validated as ParsePath would.
func (p Path) Child(id string) (Path, error) {
	segs := append(p.segments[:len(p.segments):len(p.segments)], id)
	s := strings.Join(segs, "/")
	if len(s) > MaxPathBytes {
		return Path{}, status.Invalidf("path %.40q… is longer than %d bytes", s, MaxPathBytes)
	}
	if !utf8.ValidString(id) {
		return Path{}, status.Invalidf("path %q is not valid UTF-8", s)
	}
	if strings.Contains(id, "/") {
		return Path{}, status.Invalidf("path %q: id %q contains \"/\"", s, id)
	}
	if err := validSegment(s, len(segs)-1, id); err != nil {
		return Path{}, err
	}
	return Path{segments: segs}, nil
}

// String returns the slash path ("" for the root).
func (p Path) String() string { return strings.Join(p.segments, "/") }

// Equal reports whether p and q name the same collection or document.
func (p Path) Equal(q Path) bool { return p.Compare(q) == 0 }

// Compare orders paths as Firestore orders document names: segment by
// segment (each by UTF-8 bytes), a path before its extensions. This differs
// from comparing the joined strings: "a/b" < "a-/b" here, since "a" < "a-",
// though '-' sorts before '/'.
func (p Path) Compare(q Path) int {
	for i := 0; i < len(p.segments) && i < len(q.segments); i++ {
		if c := strings.Compare(p.segments[i], q.segments[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(p.segments) < len(q.segments):
		return -1
	case len(p.segments) > len(q.segments):
		return 1
	}
	return 0
}

// HasPrefix reports whether q is p or one of its ancestors.
func (p Path) HasPrefix(q Path) bool {
	return len(q.segments) <= len(p.segments) && (Path{segments: p.segments[:len(q.segments)]}).Equal(q)
}

// Owner returns the uid whose data p is: "u1" for users/u1 and everything
// under it. The access rule builds on it: a signed-in user reads and writes
// only paths whose owner is their uid.
func (p Path) Owner() (uid string, ok bool) {
	if len(p.segments) >= 2 && p.segments[0] == "users" {
		return p.segments[1], true
	}
	return "", false
}
