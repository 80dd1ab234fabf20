package value

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"handy/internal/docstore/status"
)

// MaxFieldNameBytes is Firestore's limit on one field name.
const MaxFieldNameBytes = 1500

// nameField is Firestore's document-name pseudo field. It is valid only in
// queries (filters, orderBy, cursors), never in written data or masks.
const NameField = "__name__"

// FieldPath is a path to a value inside a document: one field name per map
// level. Each segment is a valid field name (see ValidFieldName).
type FieldPath []string

// ValidFieldName applies the spec's rule for field names, in written data,
// masks, filters and orderings alike: not empty, not both beginning and
// ending with "__", and none of ~ * / [ ]. Like Firestore, it also wants
// valid UTF-8 and at most MaxFieldNameBytes. "Both beginning and ending" is
// Firestore's pattern __.*__, so "__" and "___" are allowed.
//
// Firestore's server lets a back-quoted segment hold ~ * / [ ] (only its SDKs'
// dotted-string parsers refuse them); the spec forbids them in any field
// name, so back-quoting does not lift the rule here.
func ValidFieldName(name string) error {
	switch {
	case name == "":
		return status.Invalidf("field name is empty")
	case len(name) > MaxFieldNameBytes:
		return status.Invalidf("field name %.40q… is longer than %d bytes", name, MaxFieldNameBytes)
	case !utf8.ValidString(name):
		return status.Invalidf("field name %q is not valid UTF-8", name)
	case reservedName(name):
		return status.Invalidf("field name %q is reserved (it begins and ends with __)", name)
	}
	if i := strings.IndexAny(name, "~*/[]"); i >= 0 {
		return status.Invalidf("field name %q contains %q", name, name[i])
	}
	return nil
}

// ParseFieldPath parses Firestore's field path syntax: segments separated by
// dots, each either a simple name (letters, digits and _, not starting with a
// digit) or a back-quoted name in which \` and \\ stand for ` and \
// (`odd.name`.c, `back\`tick`). Every segment must be a valid field name, so
// __name__ is refused here; queries accept it through their own parser.
func ParseFieldPath(s string) (FieldPath, error) {
	f, err := SplitFieldPath(s)
	if err != nil {
		return nil, err
	}
	for _, seg := range f {
		if err := ValidFieldName(seg); err != nil {
			return nil, status.Invalidf("field path %q: %v", s, err)
		}
	}
	return f, nil
}

// parseFieldPath splits s into segments by the syntax alone; names are not
// validated, which lets queries recognise __name__.
func SplitFieldPath(s string) (FieldPath, error) {
	if s == "" {
		return nil, status.Invalidf("field path is empty")
	}
	var f FieldPath
	for i := 0; ; {
		var seg string
		if s[i] == '`' {
			var b strings.Builder
			j := i + 1
			for ; j < len(s) && s[j] != '`'; j++ {
				if s[j] == '\\' {
					if j+1 == len(s) || s[j+1] != '`' && s[j+1] != '\\' {
						return nil, status.Invalidf("field path %q: only \\` and \\\\ may follow \\ in a back-quoted name", s)
					}
					j++
				}
				b.WriteByte(s[j])
			}
			if j == len(s) {
				return nil, status.Invalidf("field path %q has an unterminated back-quoted name", s)
			}
			seg, i = b.String(), j+1
			if seg == "" {
				return nil, status.Invalidf("field path %q has an empty segment", s)
			}
			if i < len(s) && s[i] != '.' {
				return nil, status.Invalidf("field path %q: a back-quoted name must be followed by \".\" or the end", s)
			}
		} else {
			j := i
			for j < len(s) && s[j] != '.' {
				j++
			}
			seg, i = s[i:j], j
			if seg == "" {
				return nil, status.Invalidf("field path %q has an empty segment", s)
			}
			if !simpleName(seg) {
				// The spec's own rule names the fault better than the syntax does.
				if err := ValidFieldName(seg); err != nil {
					return nil, status.Invalidf("field path %q: %v", s, err)
				}
				return nil, status.Invalidf("field path %q: %q must be back-quoted (only letters, digits and _ may stand bare)", s, seg)
			}
		}
		f = append(f, seg)
		if i == len(s) {
			return f, nil
		}
		i++ // the dot
		if i == len(s) {
			return nil, status.Invalidf("field path %q has an empty segment", s)
		}
	}
}

// simpleName reports whether name may appear in a field path without back-quotes.
func simpleName(name string) bool {
	if name == "" || '0' <= name[0] && name[0] <= '9' {
		return false
	}
	for _, c := range []byte(name) {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// String returns the canonical form: simple names bare, others back-quoted.
// ParseFieldPath(f.String()) gives f back for any f it accepted.
func (f FieldPath) String() string {
	var b strings.Builder
	for i, seg := range f {
		if i > 0 {
			b.WriteByte('.')
		}
		if simpleName(seg) {
			b.WriteString(seg)
			continue
		}
		b.WriteByte('`')
		for _, c := range []byte(seg) {
			if c == '`' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
		b.WriteByte('`')
	}
	return b.String()
}

// Compare orders field paths segment by segment (the order in which
// Firestore appends implicit orderings), a path before its extensions.
func (f FieldPath) Compare(g FieldPath) int { return slices.Compare(f, g) }

// Equal reports whether f and g are the same path.
func (f FieldPath) Equal(g FieldPath) bool { return slices.Equal(f, g) }

// isName reports whether f is the document-name pseudo field __name__.
func (f FieldPath) IsName() bool { return len(f) == 1 && f[0] == NameField }

// Get returns the value at f, and whether there is one: every step but the
// last must be a map holding the next name.
func (f FieldPath) Get(fields Fields) (Value, bool) {
	if len(f) == 0 {
		return Value{}, false
	}
	m := fields
	for _, name := range f[:len(f)-1] {
		v, ok := m[name]
		if !ok || v.Kind != Map {
			return Value{}, false
		}
		m = v.Map
	}
	v, ok := m[f[len(f)-1]]
	return v, ok
}

// ApplyMask merges src into dst as an update with an updateMask does: for
// each masked path, the value at that path in src replaces the one in dst, or
// the path is deleted from dst when src has nothing there. Maps on the way to
// a set value are created, replacing any non-map value in the way; fields
// outside the mask stay as they were, and fields of src outside the mask are
// ignored. A path and its extension may both be masked: the result is the
// same either way round.
//
// Neither dst nor src is modified: the maps along each masked path are
// copied, the rest of the result shares values with them.
func ApplyMask(dst, src Fields, mask []FieldPath) Fields {
	out := maps.Clone(dst)
	if out == nil {
		out = Fields{}
	}
	for _, p := range mask {
		if len(p) == 0 {
			continue
		}
		if v, ok := p.Get(src); ok {
			setPath(out, p, v)
		} else {
			deletePath(out, p)
		}
	}
	return out
}

// setPath sets m at p to v. m is owned by the caller; each nested map on the
// way is cloned before it is written so that dst's maps stay untouched.
func setPath(m Fields, p FieldPath, v Value) {
	for _, name := range p[:len(p)-1] {
		next := Fields{}
		if cur, ok := m[name]; ok && cur.Kind == Map {
			next = maps.Clone(cur.Map)
			if next == nil {
				next = Fields{}
			}
		}
		m[name] = Value{Kind: Map, Map: next}
		m = next
	}
	m[p[len(p)-1]] = v
}

// deletePath removes p from m when it is there, cloning the maps on the way;
// it creates nothing.
func deletePath(m Fields, p FieldPath) {
	if _, ok := p.Get(m); !ok {
		return
	}
	for _, name := range p[:len(p)-1] {
		next := maps.Clone(m[name].Map)
		m[name] = Value{Kind: Map, Map: next}
		m = next
	}
	delete(m, p[len(p)-1])
}
