package value

import (
	"errors"
	"strings"
	"testing"

	"handy/internal/docstore/status"
)

func TestParsePath(t *testing.T) {
	long := strings.Repeat("x", MaxSegmentBytes)
	tests := []struct {
		in       string
		wantErr  string // a part of the message; "" for valid
		document bool
	}{
		{in: "users", document: false},
		{in: "users/u1", document: true},
		{in: "users/u1/history", document: false},
		{in: "users/u1/history/h1", document: true},
		{in: "users/" + long, document: true},
		{in: "users/__", document: true},
		{in: "users/___", document: true},
		{in: "users/.x", document: true},
		{in: "users/ü ñ", document: true},

		{in: "", wantErr: "path is empty"},
		{in: "users//h", wantErr: `path "users//h": an empty document id is invalid`},
		{in: "users/u1//h1", wantErr: `path "users/u1//h1": an empty collection id is invalid`},
		{in: "/users/u1", wantErr: `must not begin with "/"`},
		{in: "users/u1/", wantErr: `ends with "/": its last id is empty`},
		{in: "/", wantErr: `must not begin with "/"`},
		{in: "users/" + long + "x", wantErr: "a document id is longer than 1500 bytes"},
		{in: "users/.", wantErr: `"." is not a valid document id`},
		{in: "users/..", wantErr: `".." is not a valid document id`},
		{in: "__users__/u1", wantErr: `collection id "__users__" is reserved`},
		{in: "users/__u1__", wantErr: `document id "__u1__" is reserved`},
		{in: "users/\xff", wantErr: "not valid UTF-8"},
		{in: strings.Repeat("a/", MaxPathBytes/2) + "a", wantErr: "longer than 6144 bytes"},
	}
	for _, tt := range tests {
		p, err := ParsePath(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, status.ErrInvalidArgument) {
				t.Errorf("ParsePath(%q) = %v, want invalid-argument containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParsePath(%q): %v", tt.in, err)
			continue
		}
		if p.String() != tt.in || p.IsDocument() != tt.document || p.IsCollection() == tt.document {
			t.Errorf("ParsePath(%q) = %q document=%v, want document=%v", tt.in, p, p.IsDocument(), tt.document)
		}
	}
}

func TestParsePathParity(t *testing.T) {
	if _, err := ParseDocumentPath("users/u1/history"); err == nil || err.Error() != "users/u1/history is a collection, not a document" {
		t.Errorf("ParseDocumentPath(collection) = %v", err)
	}
	if _, err := ParseDocumentPath("users/u1/history/h1"); err != nil {
		t.Errorf("ParseDocumentPath(document) = %v", err)
	}
	if _, err := ParseCollectionPath("users/u1"); err == nil || err.Error() != "users/u1 is a document, not a collection" {
		t.Errorf("ParseCollectionPath(document) = %v", err)
	}
	if _, err := ParseCollectionPath("users/u1/history"); err != nil {
		t.Errorf("ParseCollectionPath(collection) = %v", err)
	}
	if _, err := ParseDocumentPath("users//x"); err == nil || !strings.Contains(err.Error(), "empty document id") {
		t.Errorf("ParseDocumentPath(empty id) = %v", err)
	}
}

func TestPathNavigation(t *testing.T) {
	p := mustPath(t, "users/u1/history/h1")
	if got := p.Parent().String(); got != "users/u1/history" {
		t.Errorf("Parent = %q", got)
	}
	if got := p.Parent().Parent().String(); got != "users/u1" {
		t.Errorf("Parent.Parent = %q", got)
	}
	if got := mustPath(t, "users").Parent(); !got.IsRoot() || got.String() != "" || got.IsDocument() || got.IsCollection() {
		t.Errorf("Parent of a top-level collection = %q, want the root", got)
	}
	if p.ID() != "h1" || p.Len() != 4 || p.Segment(2) != "history" || (Path{}).ID() != "" {
		t.Errorf("ID/Len/Segment = %q %d %q", p.ID(), p.Len(), p.Segment(2))
	}
	if !p.HasPrefix(mustPath(t, "users/u1")) || !p.HasPrefix(p) || !p.HasPrefix(Path{}) || p.HasPrefix(mustPath(t, "users/u2")) {
		t.Error("HasPrefix wrong")
	}

	// Child of a parent must not write into the longer path's backing array.
	c, err := p.Parent().Child("h2")
	if err != nil || c.String() != "users/u1/history/h2" || p.String() != "users/u1/history/h1" {
		t.Errorf("Child = %q, %v; original now %q", c, err, p)
	}
	for _, bad := range []string{"", "a/b", "..", "__x__", "\xff"} {
		if _, err := p.Parent().Child(bad); !errors.Is(err, status.ErrInvalidArgument) {
			t.Errorf("Child(%q) = %v, want invalid-argument", bad, err)
		}
	}
}

func TestPathCompare(t *testing.T) {
	// Ascending, segment by segment; "a/b" sorts before "a-/b" although '-' < '/'.
	ordered := []string{"a", "a/b", "a/b/c", "a/b/c/d", "a/c", "a-", "a-/b", "b", "é"}
	for i := range ordered {
		for j := range ordered {
			got := mustPath(t, ordered[i]).Compare(mustPath(t, ordered[j]))
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func TestPathOwner(t *testing.T) {
	tests := []struct {
		in   string
		uid  string
		owns bool
	}{
		{"users", "", false},
		{"users/u1", "u1", true},
		{"users/u1/history", "u1", true},
		{"users/u1/history/h1", "u1", true},
		{"admins/u1", "", false},
		{"other/x/users/u1", "", false},
	}
	for _, tt := range tests {
		uid, ok := mustPath(t, tt.in).Owner()
		if uid != tt.uid || ok != tt.owns {
			t.Errorf("Owner(%q) = %q, %v; want %q, %v", tt.in, uid, ok, tt.uid, tt.owns)
		}
	}
}

func mustPath(t *testing.T, s string) Path {
	t.Helper()
	p, err := ParsePath(s)
	if err != nil {
		t.Fatalf("ParsePath(%q): %v", s, err)
	}
	return p
}
