package server

import (
	"net/http"
	"testing"
)

func TestContentNegotiation(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	_, identity := serve(t, s.Handler(), request{target: "/de/area-calculator"})
	tests := []struct{ acceptEncoding, want string }{
		{"", ""},
		{"gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"},
		{"br;q=0, gzip", "gzip"},
		{"gzip;q=0, br;q=0", ""},
		{"identity", ""},
		{"*", "br"},
	}
	etags := make(map[string]string)
	for _, tt := range tests {
		res, body := serve(t, s.Handler(), request{target: "/de/area-calculator", header: map[string]string{"Accept-Encoding": tt.acceptEncoding}})
		if got := res.Header.Get("Content-Encoding"); got != tt.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tt.acceptEncoding, got, tt.want)
		}
		if res.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("Vary = %q", res.Header.Get("Vary"))
		}
		if decode(t, res, body) != identity {
			t.Errorf("Accept-Encoding %q: decoded body differs from the identity", tt.acceptEncoding)
		}
		if tt.want != "" && len(body) >= len(identity) {
			t.Errorf("%s body %d bytes, identity %d", tt.want, len(body), len(identity))
		}
		if prev, ok := etags[res.Header.Get("Etag")]; ok && prev != tt.want {
			t.Errorf("%s and %s variants share ETag %s", prev, tt.want, res.Header.Get("Etag"))
		}
		etags[res.Header.Get("Etag")] = tt.want
	}
	if len(etags) != 3 {
		t.Errorf("%d distinct ETags, want 3 (br, gzip, identity)", len(etags))
	}
	// A file that does not shrink is kept uncompressed only.
	res, _ := serve(t, s.Handler(), request{target: "/favicon.ico", header: map[string]string{"Accept-Encoding": "br, gzip"}})
	if res.Header.Get("Content-Encoding") != "" {
		t.Errorf("/favicon.ico (4 bytes) served with Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
}

func TestConditionalRequests(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpOrigin)
	res, _ := serve(t, s.Handler(), request{target: "/faq", header: map[string]string{"Accept-Encoding": "gzip"}})
	etag := res.Header.Get("Etag")
	tests := []struct {
		name, ifNoneMatch, acceptEncoding string
		want                              int
	}{
		{"match", etag, "gzip", 304},
		{"weak form matches", "W/" + etag, "gzip", 304},
		{"in a list", `"nope", ` + etag + `, "other"`, "gzip", 304},
		{"in a list without spaces", `"nope",` + etag, "gzip", 304},
		{"star", "*", "gzip", 304},
		{"other encoding's tag", etag, "br", 200},
		{"identity asks with gzip tag", etag, "", 200},
		{"no match", `"nope"`, "gzip", 200},
		{"garbage", `,,,W/`, "gzip", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, body := serve(t, s.Handler(), request{target: "/faq", header: map[string]string{"If-None-Match": tt.ifNoneMatch, "Accept-Encoding": tt.acceptEncoding}})
			if res.StatusCode != tt.want {
				t.Fatalf("If-None-Match %q = %d, want %d", tt.ifNoneMatch, res.StatusCode, tt.want)
			}
			if tt.want == http.StatusNotModified {
				if body != "" || res.Header.Get("Etag") != etag || res.Header.Get("Cache-Control") != "no-cache" || res.Header.Get("Vary") == "" {
					t.Errorf("304: body %q, headers %v", body, res.Header)
				}
			}
		})
	}
	res, _ = serve(t, s.Handler(), request{target: "/nope", header: map[string]string{"If-None-Match": "*"}})
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("a 404 answered If-None-Match: * with %d", res.StatusCode)
	}
}
