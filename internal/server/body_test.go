package server

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestReadJSON: the one reader of request bodies refuses an undeclared media type, a body over
// its limit whether its length is declared or not, and, decoding into a struct, a key that is
// not exactly a field's name or that comes twice; a *[]byte takes the body as it is.
func TestReadJSON(t *testing.T) {
	t.Parallel()
	type dst struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	tests := []struct {
		name, contentType, body string
		unknownLength           bool
		raw                     bool
		code                    string // "" for success
	}{
		{name: "valid", contentType: "application/json", body: `{"email":"a@example.com","password":"x"}`},
		{name: "with charset", contentType: "application/json; charset=utf-8", body: `{"email":"a"}`},
		{name: "text/plain not accepted", contentType: "text/plain", body: `{}`, code: "not-json"},
		{name: "no content type", body: `{}`, code: "not-json"},
		{name: "over the limit", contentType: "application/json", body: `{"email":"` + strings.Repeat("x", 64) + `"}`, code: "too-large"},
		{name: "over the limit, length unknown", contentType: "application/json", body: `{"email":"` + strings.Repeat("x", 64) + `"}`, unknownLength: true, code: "too-large"},
		{name: "unknown field", contentType: "application/json", body: `{"name":"a"}`, code: "unknown-field"},
		{name: "another case", contentType: "application/json", body: `{"EMAIL":"a"}`, code: "unknown-field"},
		{name: "a key twice", contentType: "application/json", body: `{"email":"a","email":"b"}`, code: "duplicate-field"},
		{name: "two objects", contentType: "application/json", body: `{}{}`, code: "invalid-json"},
		{name: "not JSON", contentType: "application/json", body: `email=a`, code: "invalid-json"},
		{name: "wrong type", contentType: "application/json", body: `{"email":1}`, code: "invalid-field"},
		{name: "raw", contentType: "application/json", body: `{"any":"thing","any":1}`, raw: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("POST", "/api/v1/x", strings.NewReader(tt.body))
			if tt.contentType != "" {
				r.Header.Set("Content-Type", tt.contentType)
			}
			if tt.unknownLength {
				r.ContentLength = -1
			}
			var err error
			var d dst
			var raw []byte
			if tt.raw {
				err = readJSON(httptest.NewRecorder(), r, jsonOnly, 64, &raw)
			} else {
				err = readJSON(httptest.NewRecorder(), r, jsonOnly, 64, &d)
			}
			var e *Error
			switch {
			case tt.code == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.code != "" && (!errors.As(err, &e) || e.Code != tt.code):
				t.Errorf("error %v, want the code %q", err, tt.code)
			case tt.raw && string(raw) != tt.body:
				t.Errorf("raw body %q, want %q", raw, tt.body)
			}
		})
	}
}
