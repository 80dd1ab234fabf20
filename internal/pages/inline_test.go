package pages

import "testing"

func TestHashInline(t *testing.T) {
	t.Parallel()
	files := distFiles{
		byURL: map[string]rawFile{
			"/":       {name: "index.html", body: []byte("<head><script>s()</script><style>a{}</style><style>b{}</style></head>")},
			"/data":   {name: "data/index.html", body: []byte(`<script type="application/json">{}</script><script>s()</script>`)}, // data: no hash
			"/faq":    {name: "faq/index.html", body: []byte("<style>a{}</style>")},
			"/x.css":  {name: "x.css", body: []byte("<style>c{}</style>")},     // not HTML: ignored
			"/broken": {name: "broken/index.html", body: []byte("<style>d{}")}, // unterminated: ignored
		},
		errorPages: map[string]map[string]rawFile{"en": {"404": {name: "_errors/en/404.html", body: []byte("<style>e{}</style>")}}},
	}
	h := hashInline(files)
	if want := []string{"'sha256-DUQvyBW3cp321tqiTMq5r0hc4ZZBR1LgXRjYIlCoW8A='"}; len(h.Scripts) != 1 || h.Scripts[0] != want[0] {
		t.Errorf("script hashes = %q, want %q", h.Scripts, want)
	}
	got := h.Styles
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
}
