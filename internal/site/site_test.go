package site

import (
	"errors"
	"strings"
	"testing"
)

func TestDefault(t *testing.T) {
	t.Parallel()
	tab := Default()
	if got := tab.DefaultLocale().Code; got != "en" {
		t.Errorf("DefaultLocale = %q, want en", got)
	}
	if n := len(tab.Locales()); n != 8 {
		t.Errorf("%d locales, want 8", n)
	}
	if n := len(tab.Pages()); n != 7 {
		t.Errorf("%d pages, want 7", n)
	}
	if n := len(tab.Routes()); n != 56 {
		t.Errorf("%d routes, want 56", n)
	}
	if !strings.HasPrefix(tab.OriginPlaceholder(), "https://") {
		t.Errorf("OriginPlaceholder = %q", tab.OriginPlaceholder())
	}
	want := Limits{PasswordMinLength: 8, PasswordMaxLength: 1024, DisplayNameMaxLength: 100, AvatarMaxBytes: 200_000, AvatarSize: 256, MaxWritesPerCommit: 500}
	if got := tab.Limits(); got != want {
		t.Errorf("Limits = %+v, want %+v", got, want)
	}
	if Default() != tab {
		t.Error("Default parses the table more than once")
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	// limits are valid settings every case carries, so that each fails for its own reason.
	const limits = `"limits":{"passwordMinLength":8,"passwordMaxLength":1024,"displayNameMaxLength":100,"avatarMaxBytes":200000,"avatarSize":256,"maxWritesPerCommit":500},"history":{"collection":"history","maxEntries":10000},"maxRedirectHops":8`
	base := `"originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%C%%","jurisdiction":"%J%%"},"locales":[{"code":"en","name":"English","lang":"en"}],` + limits
	if _, err := Parse([]byte(`{"defaultLocale":"en",` + base + `,"pages":[{"name":"index","path":"/"}]}`)); err != nil {
		t.Fatalf("the valid base table: %v", err)
	}
	tests := map[string]string{
		"not json":            `{`,
		"no default":          `{"defaultLocale":"de",` + base + `,"pages":[{"name":"index","path":"/"}]}`,
		"no home":             `{"defaultLocale":"en",` + base + `,"pages":[{"name":"faq","path":"/faq"}]}`,
		"bad page path":       `{"defaultLocale":"en",` + base + `,"pages":[{"name":"index","path":"/"},{"name":"x","path":"x/y"}]}`,
		"duplicate page":      `{"defaultLocale":"en",` + base + `,"pages":[{"name":"index","path":"/"},{"name":"index","path":"/a"}]}`,
		"bad status":          `{"defaultLocale":"en",` + base + `,"pages":[{"name":"index","path":"/"}],"routeRules":[{"from":"/a","to":"/b","status":200}]}`,
		"unbalanced **":       `{"defaultLocale":"en",` + base + `,"pages":[{"name":"index","path":"/"}],"routeRules":[{"from":"/a/**","to":"/b"}]}`,
		"bad locale code":     `{"defaultLocale":"eng","originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%C%%","jurisdiction":"%J%%"},"locales":[{"code":"eng","name":"E","lang":"en"}],"pages":[{"name":"index","path":"/"}],` + limits + `}`,
		"bad lang":            `{"defaultLocale":"en","originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%C%%","jurisdiction":"%J%%"},"locales":[{"code":"en","name":"E","lang":"not a tag"}],"pages":[{"name":"index","path":"/"}],` + limits + `}`,
		"bad placeholder":     `{"defaultLocale":"en","originPlaceholder":"origin","locales":[{"code":"en","name":"E","lang":"en"}],"pages":[{"name":"index","path":"/"}],` + limits + `}`,
		"duplicate locale":    `{"defaultLocale":"en","originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%C%%","jurisdiction":"%J%%"},"locales":[{"code":"en","name":"E","lang":"en"},{"code":"en","name":"E","lang":"en"}],"pages":[{"name":"index","path":"/"}],` + limits + `}`,
		"same operator token": `{"defaultLocale":"en","originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%X%%","jurisdiction":"%X%%"},"locales":[{"code":"en","name":"E","lang":"en"}],"pages":[{"name":"index","path":"/"}],` + limits + `}`,
		"relative rule from":  `{"defaultLocale":"en",` + base + `,"pages":[{"name":"index","path":"/"}],"routeRules":[{"from":"a","to":"/b"}]}`,
		"no limits":           `{"defaultLocale":"en","originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%C%%","jurisdiction":"%J%%"},"locales":[{"code":"en","name":"E","lang":"en"}],"pages":[{"name":"index","path":"/"}],"maxRedirectHops":8}`,
		"password min > max":  `{"defaultLocale":"en",` + strings.Replace(base, `"passwordMaxLength":1024`, `"passwordMaxLength":7`, 1) + `,"pages":[{"name":"index","path":"/"}]}`,
		"zero avatar bytes":   `{"defaultLocale":"en",` + strings.Replace(base, `"avatarMaxBytes":200000`, `"avatarMaxBytes":0`, 1) + `,"pages":[{"name":"index","path":"/"}]}`,
		"no history cap":      `{"defaultLocale":"en",` + strings.Replace(base, `"maxEntries":10000`, `"maxEntries":0`, 1) + `,"pages":[{"name":"index","path":"/"}]}`,
		"history path":        `{"defaultLocale":"en",` + strings.Replace(base, `"collection":"history"`, `"collection":"a/b"`, 1) + `,"pages":[{"name":"index","path":"/"}]}`,
		"no hop bound":        `{"defaultLocale":"en",` + strings.Replace(base, `"maxRedirectHops":8`, `"maxRedirectHops":0`, 1) + `,"pages":[{"name":"index","path":"/"}]}`,
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := Parse([]byte(data)); err == nil {
				t.Errorf("Parse accepted %s", data)
			}
		})
	}
}

func TestRoutesAndPaths(t *testing.T) {
	t.Parallel()
	tab := Default()
	tests := []struct{ name, path string }{
		{"index___en", "/"},
		{"faq___en", "/faq"},
		{"index___de", "/de"},
		{"faq___de", "/de/faq"},
		{"flip-image___jp", "/jp/flip-image"},
		{"terms-conditions___zh", "/zh/terms-conditions"},
	}
	byName := make(map[string]string)
	for _, r := range tab.Routes() {
		if _, dup := byName[r.Name]; dup {
			t.Errorf("duplicate route name %q", r.Name)
		}
		byName[r.Name] = r.Path
		if r.Name != r.Page.Name+"___"+r.Locale.Code {
			t.Errorf("route %q: name does not follow {page}___{code}", r.Name)
		}
		if got := tab.Path(r.Page, r.Locale); got != r.Path {
			t.Errorf("Path(%s) = %q, route says %q", r.Name, got, r.Path)
		}
	}
	for _, tt := range tests {
		if got := byName[tt.name]; got != tt.path {
			t.Errorf("route %s path = %q, want %q", tt.name, got, tt.path)
		}
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	tab := Default()
	tests := []struct {
		path     string
		wantName string
		wantErr  error
	}{
		{"/", "index___en", nil},
		{"/faq", "faq___en", nil},
		{"/de", "index___de", nil},
		{"/de/faq", "faq___de", nil},
		{"/jp/speed-calculator", "speed-calculator___jp", nil},
		{"/xx/faq", "", ErrInvalidPath},
		{"/xx", "", ErrInvalidPath},
		{"/en/faq", "", ErrInvalidPath},
		{"/en", "", ErrInvalidPath},
		{"/ja/area-calculator", "", ErrInvalidPath},
		{"/xx/nope", "", ErrUnknownPath},
		{"/xx/", "", ErrUnknownPath},
		{"/XX/faq", "", ErrUnknownPath},
		{"/xyz/faq", "", ErrUnknownPath},
		{"/de/nope", "", ErrUnknownPath},
		{"/de/faq/extra", "", ErrUnknownPath},
		{"/nope", "", ErrUnknownPath},
		{"/faq/", "", ErrUnknownPath},
		{"", "", ErrUnknownPath},
		{"faq", "", ErrUnknownPath},
		{"/index", "", ErrUnknownPath},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			r, err := tab.Resolve(tt.path)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Resolve(%q) error = %v, want %v", tt.path, err, tt.wantErr)
			}
			if r.Name != tt.wantName {
				t.Errorf("Resolve(%q) = %q, want %q", tt.path, r.Name, tt.wantName)
			}
		})
	}
}

func TestLocaleOf(t *testing.T) {
	t.Parallel()
	tab := Default()
	tests := map[string]string{"/de/nope": "de", "/jp": "jp", "/nope": "en", "/xx/faq": "en", "/": "en", "": "en", "/en/x": "en"}
	for path, want := range tests {
		if got := tab.LocaleOf(path).Code; got != want {
			t.Errorf("LocaleOf(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestIsBot(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)":                                                                            true,
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)":                                                                             true,
		"Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)":                                                                 true,
		"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)":                                                                           true,
		"Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse": true,
		"Baiduspider+(+http://www.baidu.com/search/spider.htm)":                                                                                               true,
		"Mozilla/5.0 (compatible; AhrefsBot/7.0)":                                                                                                             true,
		"some-CRAWLER": true,
		"Google":       true,
		"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36":              false,
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15": false,
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0":                                   false,
		"":           false,
		"robotics":   false,
		"googleplex": false,
	}
	for ua, want := range tests {
		if got := IsBot(ua); got != want {
			t.Errorf("IsBot(%q) = %v, want %v", ua, got, want)
		}
	}
}
