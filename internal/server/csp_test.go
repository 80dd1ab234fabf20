package server

import "testing"

func TestInlineStyleHashes(t *testing.T) {
	t.Parallel()
	files := distFiles{
		byURL: map[string]rawFile{
			"/":       {name: "index.html", body: []byte("<head><style>a{}</style><style>b{}</style></head>")},
			"/faq":    {name: "faq/index.html", body: []byte("<style>a{}</style>")},
			"/x.css":  {name: "x.css", body: []byte("<style>c{}</style>")},     // not HTML: ignored
			"/broken": {name: "broken/index.html", body: []byte("<style>d{}")}, // unterminated: ignored
		},
		errorPages: map[string]map[string]rawFile{"en": {"404": {name: "_errors/en/404.html", body: []byte("<style>e{}</style>")}}},
	}
	got := inlineStyleHashes(files)
	want := []string{ // sha256 of the three distinct stylesheets, sorted
		"'sha256-7yqHVAesot11p6HczDsgKRipvI5UPgs97z80zNXlans='", // b{}
		"'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk='", // a{}
		"'sha256-m9sGOvaSeazAMABnzn72cEGuTume/QEvVY8WWoYCj/s='", // e{}
	}
	if len(got) != len(want) {
		t.Fatalf("hashes = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("hash %d = %s, want %s", i, got[i], want[i])
		}
	}
	if csp := cspFor(got[:1]); csp != "default-src 'self'; script-src 'self'; style-src 'self' "+want[0]+"; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'" {
		t.Errorf("csp = %s", csp)
	}
}
