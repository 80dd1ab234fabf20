package site

import (
	"net/http"
	"strings"
	"testing"
)

func TestRedirect(t *testing.T) {
	t.Parallel()
	tab := Default()
	tests := []struct {
		path       string
		wantTarget string
		wantStatus int
	}{
		{"/de/faq/", "/de/faq", 301},
		{"/faq/", "/faq", 301},
		{"/de/", "/de", 301},
		{"/ja", "/jp", 301},
		{"/ja/", "/jp", 301},
		{"/ja/faq", "/jp/faq", 301},
		{"/ja/faq/", "/jp/faq", 301},
		{"/ja/a/b", "/jp/a/b", 301},
		{"/a//", "/a", 301},
		{"/", "", 0},
		{"/faq", "", 0},
		{"/jp/faq", "", 0},
		{"/jab", "", 0},
		{"//", "", 0},
		{"///", "", 0},
		{"//evil.example/", "", 0},
		{`/\evil.example/`, "", 0},
		{"", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			target, status, ok := tab.Redirect(tt.path)
			if ok != (tt.wantStatus != 0) || target != tt.wantTarget || status != tt.wantStatus {
				t.Errorf("Redirect(%q) = %q, %d, %v; want %q, %d", tt.path, target, status, ok, tt.wantTarget, tt.wantStatus)
			}
		})
	}
}

func TestRuleDefaults(t *testing.T) {
	t.Parallel()
	tab, err := Parse([]byte(`{"defaultLocale":"en","originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%C%%","jurisdiction":"%J%%"},
		"locales":[{"code":"en","name":"English","lang":"en"}],"pages":[{"name":"index","path":"/"}],
		"routeRules":[{"from":"/**/","to":"/**","status":301},{"from":"/old","to":"/new"},{"from":"/docs/**","to":"/help/**"},{"from":"/loop","to":"/loop"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	// The site's own table removes trailing slashes first: canonical URLs have none.
	if rules := Default().Rules(); rules[0].From != "/**/" || rules[0].To != "/**" || rules[0].Status != http.StatusMovedPermanently {
		t.Errorf("first rule of site.json = %+v, want the trailing-slash rule", rules[0])
	}
	if target, status, _ := tab.Redirect("/old"); target != "/new" || status != http.StatusTemporaryRedirect {
		t.Errorf("Redirect(/old) = %q %d, want /new 307", target, status)
	}
	if target, _, _ := tab.Redirect("/docs/"); target != "/docs" {
		t.Errorf("Redirect(/docs/) = %q, want /docs (** captures a non-empty rest only)", target)
	}
	if target, _, _ := tab.Redirect("/docs/a/b/"); target != "/help/a/b" {
		t.Errorf("Redirect(/docs/a/b/) = %q, want /help/a/b", target)
	}
	if _, _, ok := tab.Redirect("/loop"); ok {
		t.Error("a rule leading to itself must not redirect")
	}
}

func FuzzMatch(f *testing.F) {
	for _, seed := range []string{"/", "/ja", "/ja/faq/", "/de/faq/", "//", "///x//", `/\x/`, "/ja/**", "/%2F/", "/\x00/"} {
		f.Add(seed)
	}
	tab := Default()
	f.Fuzz(func(t *testing.T, path string) {
		target, status, ok := tab.Redirect(path)
		if !ok {
			return
		}
		if !isLocalPath(target) || target == path {
			t.Fatalf("Redirect(%q) = %q: not a local path or no progress", path, target)
		}
		if status < 300 || status > 399 {
			t.Fatalf("Redirect(%q) status %d", path, status)
		}
		if again, _, ok := tab.Redirect(target); ok && strings.Count(path, "/") < maxRedirectHops {
			t.Fatalf("Redirect(%q) = %q, which redirects again to %q", path, target, again)
		}
	})
}

func FuzzResolve(f *testing.F) {
	for _, seed := range []string{"/", "/de", "/de/faq", "/xx/faq", "/en", "/xx", "/de/", "", "faq", "/\xff/faq", "/de/faq/x"} {
		f.Add(seed)
	}
	tab := Default()
	f.Fuzz(func(t *testing.T, path string) {
		r, err := tab.Resolve(path)
		if err != nil {
			if r != (Route{}) {
				t.Fatalf("Resolve(%q) returned %+v with error %v", path, r, err)
			}
			return
		}
		if r.Path != path || tab.Path(r.Page, r.Locale) != path {
			t.Fatalf("Resolve(%q) = %+v", path, r)
		}
	})
}
