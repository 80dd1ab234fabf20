package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
)

// Request bodies: every endpoint that takes one reads it with Server.readBody, which reserves
// it in the body budget and reads it with readJSON.
const (
	// maxJSONBody bounds an API request body; the largest is a profile with its avatar.
	maxJSONBody = 256 << 10
	// maxCommitBody bounds a commit's body: a full document of 1 MiB (DocumentSize) takes more
	// than that in the JSON encoding.
	maxCommitBody = 4 << 20
)

// jsonOnly is what the API's endpoints accept as a body's media type.
var jsonOnly = []string{"application/json"}

// readBody reads r's body into dst as readJSON does, for the signed-in user uid ("" for an
// anonymous request, whose bodies count against its client address). Before a byte is read it
// reserves the body's declared length (or limit, when none is declared) in the server's body
// budget, the caller's share and the whole, else refuses with 429 resource-exhausted and
// Retry-After. Through the middleware the reservation is held until the request ends, so that
// it covers the handler's parse of the body too.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, uid string, accept []string, limit int64, dst any) error {
	if r.ContentLength > limit {
		return readJSON(w, r, accept, limit, dst) // refused unread: 413, or 415
	}
	reserve := limit
	if r.ContentLength >= 0 {
		reserve = r.ContentLength
	}
	owner := "user " + uid
	if uid == "" {
		owner = "address " + s.clientAddress(r)
	}
	release, err := s.bodies.reserve(owner, reserve)
	if err != nil {
		return err
	}
	if h, ok := r.Body.(*heldBody); ok {
		h.keep(release)
	} else {
		defer release() // not through the middleware (a handler's unit test): held while reading
	}
	return readJSON(w, r, accept, limit, dst)
}

// readJSON reads r's body into dst. The body must be declared as one of the media types accept
// (else 415) and be at most limit bytes, which is checked before reading when the length is
// declared and while reading otherwise (else 413). dst is either
//   - a *[]byte, which takes the body as it is, for an endpoint whose parser has messages of
//     its own (the document store's commit),
//   - a *keysOf[T], which takes it as it is too, once its keys are checked as a decode into T
//     would check them (the page-view beacon, which the analytics parse), or
//   - a pointer to a struct, into which the body is decoded strictly: one JSON object, each of
//     whose keys is, byte for byte and once, the JSON name of one of the struct's fields
//     (encoding/json alone would take {"EMAIL":…} for "email", and the last of two "email"s).
func readJSON(w http.ResponseWriter, r *http.Request, accept []string, limit int64, dst any) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || !slices.Contains(accept, mt) {
		return &Error{Status: http.StatusUnsupportedMediaType, Code: "not-json",
			Message: "The body must be JSON (Content-Type: " + strings.Join(accept, " or ") + ")."}
	}
	tooLarge := &Error{Status: http.StatusRequestEntityTooLarge, Code: "too-large",
		Message: fmt.Sprintf("The request body is larger than %d bytes.", limit)}
	if r.ContentLength > limit {
		return tooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge
	}
	if err != nil {
		return &Error{Status: http.StatusBadRequest, Code: "invalid-json", Message: "The body could not be read.", Cause: err}
	}
	switch d := dst.(type) {
	case *[]byte:
		*d = body
		return nil
	case keyChecker:
		return d.keep(body)
	}
	return decodeStrict(body, dst)
}

// keysOf is a body kept as it is for a parser of its own, whose keys readJSON has checked
// against T's fields: the parser then sees no key it would match loosely or take twice.
type keysOf[T any] struct{ body []byte }

// keyChecker is what readJSON sees of any keysOf.
type keyChecker interface{ keep(body []byte) error }

func (k *keysOf[T]) keep(body []byte) error {
	if err := exactKeys(body, jsonFieldNames(reflect.TypeFor[T]())); err != nil {
		return err
	}
	k.body = body
	return nil
}

// decodeStrict decodes body, one JSON object, into dst, a pointer to a struct, refusing what
// readJSON says it refuses.
func decodeStrict(body []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		var syntax *json.SyntaxError
		var typeErr *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return badRequest("invalid-json", "The body is not valid JSON.")
		case errors.As(err, &typeErr):
			return badRequest("invalid-field", fmt.Sprintf("The field %q has the wrong type.", typeErr.Field))
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return badRequest("unknown-field", "The body has an unknown field: "+strings.TrimPrefix(err.Error(), "json: unknown field ")+".")
		default:
			return badRequest("invalid-json", "The body is not valid JSON.")
		}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("invalid-json", "The body must be a single JSON object.")
	}
	return exactKeys(body, jsonFieldNames(reflect.TypeOf(dst).Elem()))
}

// exactKeys refuses a key of the body's object that is not, byte for byte, one of names, and a
// key given twice; decodeStrict has checked everything else.
func exactKeys(body []byte, names map[string]bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return badRequest("invalid-json", "The body must be a single JSON object.")
	}
	seen := make(map[string]bool, len(names))
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return badRequest("invalid-json", "The body must be a single JSON object.")
		}
		switch {
		case !names[key]:
			return badRequest("unknown-field", fmt.Sprintf("The body has an unknown field: %q.", key))
		case seen[key]:
			return badRequest("duplicate-field", fmt.Sprintf("The body has the field %q twice.", key))
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return badRequest("invalid-json", "The body is not valid JSON.")
		}
	}
	return nil
}

// jsonFieldNames returns the JSON names of a struct type's exported fields.
func jsonFieldNames(t reflect.Type) map[string]bool {
	names := make(map[string]bool, t.NumField())
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names[name] = true
	}
	return names
}
