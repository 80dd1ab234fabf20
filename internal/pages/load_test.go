package pages

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"

	"handy/internal/config"
	"handy/internal/pages/pagestest"
	"handy/internal/site"
)

func TestLoadRejectsIncompleteBuild(t *testing.T) {
	t.Parallel()
	cfg := config.Config{Addr: "127.0.0.1:0", PublicURL: "http://localhost:8080"}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	withoutFAQ := pagestest.Dist(site.Default())
	delete(withoutFAQ, "de/faq/index.html")
	without404 := pagestest.Dist(site.Default())
	delete(without404, "_errors/ko/404.html")
	withoutAdmin := pagestest.Dist(site.Default())
	delete(withoutAdmin, "_admin/jp/admin/index.html")
	tests := []struct {
		name      string
		dist      fstest.MapFS
		wantInErr string
	}{
		{"fresh clone", fstest.MapFS{".gitkeep": {}}, "missing index.html, flip-image/index.html, area-calculator/index.html and 70 more)"},
		{"one page missing", withoutFAQ, "missing de/faq/index.html)"},
		{"one error page missing", without404, "missing _errors/ko/404.html)"},
		{"one dashboard page missing", withoutAdmin, "missing _admin/ (7 dashboard documents of 8))"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(cfg, site.Default(), tt.dist, logger, Options{})
			if !errors.Is(err, ErrNotBuilt) || !strings.Contains(err.Error(), tt.wantInErr) {
				t.Errorf("Load error = %v, want ErrNotBuilt mentioning %q", err, tt.wantInErr)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestURLOf(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"index.html":           "/",
		"de/index.html":        "/de",
		"de/faq/index.html":    "/de/faq",
		"_payload.json":        "/_payload.json",
		"de/faq/_payload.json": "/de/faq/_payload.json",
		"assets/app.js":        "/assets/app.js",
		"builds/meta/abc.json": "/builds/meta/abc.json",
		"docs/notindex.html":   "/docs/notindex.html",
	}
	for name, want := range tests {
		if got := urlOf(name); got != want {
			t.Errorf("urlOf(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSubstitutions(t *testing.T) {
	t.Parallel()
	table := site.Default()
	op := table.OperatorPlaceholders()
	page := `<a href="` + table.OriginPlaceholder() + `/faq">FAQ</a> <a href="mailto:` + op.ContactEmail + `">` + op.ContactEmail +
		`</a> governed by the law of the country where the operator is established` + op.Jurisdiction + `.`
	tests := []struct {
		name string
		cfg  config.Config
		want string
	}{
		{"defaults", config.Config{PublicURL: "https://tools.example"},
			`<a href="https://tools.example/faq">FAQ</a> <a href="mailto:privacy@tools.example">privacy@tools.example</a> governed by the law of the country where the operator is established.`},
		{"configured", config.Config{PublicURL: "http://localhost:8080", ContactEmail: "legal@handy.example", Jurisdiction: "England & Wales"},
			`<a href="http://localhost:8080/faq">FAQ</a> <a href="mailto:legal@handy.example">legal@handy.example</a> governed by the law of the country where the operator is established (England &amp; Wales).`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := substitutions(table, tt.cfg).Replace(page); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestTagManagerSubstitutionEscapes(t *testing.T) {
	t.Parallel()
	table := site.Default()
	cfg := config.Config{PublicURL: "http://localhost:8080", TagManagerID: "GTM-TEST1234", TagManagerHost: `https://x"</script><b>&\`}
	got := substitutions(table, cfg).Replace(`{"tagManager":"` + table.TagManagerPlaceholder() + `"}`)
	want := `{"tagManager":"https://x\"\u003c/script\u003e\u003cb\u003e\u0026\\/gtm.js?id=GTM-TEST1234"}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
