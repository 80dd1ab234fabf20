package analytics

import (
	"errors"
	"strings"
	"testing"

	"handy/internal/site"
)

func TestParseBeacon(t *testing.T) {
	t.Parallel()
	p := newPages(site.Default(), "handy.example")
	long := strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 61) // 253
	tests := []struct {
		name string
		body string
		want view   // when valid
		bad  string // the field named by the error ("json" for the body as a whole)
	}{
		{name: "English home", body: `{"p":"/","l":"en","bl":"en-US","r":"","s":"desktop"}`,
			want: view{"index", "en", "en-US", "", "desktop"}},
		{name: "German page", body: `{"p":"/de/faq","l":"de","bl":"de-DE","r":"www.google.com","s":"phone"}`,
			want: view{"faq", "de", "de-DE", "www.google.com", "phone"}},
		{name: "Japanese home", body: `{"p":"/jp","l":"jp","bl":"ja","r":"","s":"tablet"}`,
			want: view{"index", "jp", "ja", "", "tablet"}},
		{name: "language case normalised", body: `{"p":"/faq","l":"en","bl":"EN-us","r":"","s":"desktop"}`,
			want: view{"faq", "en", "en-US", "", "desktop"}},
		{name: "language script kept, extension dropped", body: `{"p":"/zh","l":"zh","bl":"zh-hans-cn-u-nu-hanidec","r":"","s":"phone"}`,
			want: view{"index", "zh", "zh-Hans-CN", "", "phone"}},
		{name: "unknown language", body: `{"p":"/","l":"en","bl":"xx-YY","r":"","s":"phone"}`,
			want: view{"index", "en", "und", "", "phone"}},
		{name: "no language", body: `{"p":"/","l":"en","bl":"","r":"","s":"phone"}`,
			want: view{"index", "en", "und", "", "phone"}},
		{name: "missing optional fields", body: `{"p":"/","l":"en","s":"phone"}`,
			want: view{"index", "en", "und", "", "phone"}},
		{name: "referrer lower-cased", body: `{"p":"/","l":"en","bl":"en","r":"News.Example.COM","s":"phone"}`,
			want: view{"index", "en", "en", "news.example.com", "phone"}},
		{name: "referrer with the root's dot", body: `{"p":"/","l":"en","bl":"en","r":"example.org.","s":"phone"}`,
			want: view{"index", "en", "en", "example.org", "phone"}},
		{name: "referrer is the site itself", body: `{"p":"/","l":"en","bl":"en","r":"Handy.Example","s":"phone"}`,
			want: view{"index", "en", "en", "", "phone"}},
		{name: "referrer an IPv4 address", body: `{"p":"/","l":"en","bl":"en","r":"192.168.0.10","s":"phone"}`,
			want: view{"index", "en", "en", "", "phone"}},
		{name: "referrer an IPv6 address", body: `{"p":"/","l":"en","bl":"en","r":"[2001:db8::1]","s":"phone"}`,
			want: view{"index", "en", "en", "", "phone"}},
		{name: "referrer of 253 characters", body: `{"p":"/","l":"en","bl":"en","r":"` + long + `","s":"phone"}`,
			want: view{"index", "en", "en", long, "phone"}},

		{name: "unknown path", body: `{"p":"/nope","l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "path with query", body: `{"p":"/faq?x=1","l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "path with fragment", body: `{"p":"/faq#top","l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "path with trailing slash", body: `{"p":"/faq/","l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "English prefix", body: `{"p":"/en/faq","l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "absolute URL", body: `{"p":"https://handy.example/faq","l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "no path", body: `{"l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "unknown locale", body: `{"p":"/","l":"xx","bl":"en","r":"","s":"phone"}`, bad: "l"},
		{name: "locale of another path", body: `{"p":"/de/faq","l":"en","bl":"en","r":"","s":"phone"}`, bad: "l"},
		{name: "locale as lang", body: `{"p":"/jp","l":"ja","bl":"ja","r":"","s":"phone"}`, bad: "l"},
		{name: "language not a tag", body: `{"p":"/","l":"en","bl":"english please","r":"","s":"phone"}`, bad: "bl"},
		{name: "language with underscore", body: `{"p":"/","l":"en","bl":"en_US","r":"","s":"phone"}`, bad: "bl"},
		{name: "language too long", body: `{"p":"/","l":"en","bl":"` + strings.Repeat("en-", 12) + `en","r":"","s":"phone"}`, bad: "bl"},
		{name: "language ill-formed", body: `{"p":"/","l":"en","bl":"123","r":"","s":"phone"}`, bad: "bl"},
		{name: "referrer with scheme", body: `{"p":"/","l":"en","bl":"en","r":"https://example.com","s":"phone"}`, bad: "r"},
		{name: "referrer with port", body: `{"p":"/","l":"en","bl":"en","r":"example.com:8080","s":"phone"}`, bad: "r"},
		{name: "referrer with path", body: `{"p":"/","l":"en","bl":"en","r":"example.com/page","s":"phone"}`, bad: "r"},
		{name: "referrer with space", body: `{"p":"/","l":"en","bl":"en","r":"exa mple.com","s":"phone"}`, bad: "r"},
		{name: "referrer empty label", body: `{"p":"/","l":"en","bl":"en","r":"example..com","s":"phone"}`, bad: "r"},
		{name: "referrer label starting with a hyphen", body: `{"p":"/","l":"en","bl":"en","r":"-example.com","s":"phone"}`, bad: "r"},
		{name: "referrer not ASCII", body: `{"p":"/","l":"en","bl":"en","r":"bücher.de","s":"phone"}`, bad: "r"},
		{name: "referrer too long", body: `{"p":"/","l":"en","bl":"en","r":"` + long + `x","s":"phone"}`, bad: "r"},
		{name: "referrer bracketed name", body: `{"p":"/","l":"en","bl":"en","r":"[example.com]","s":"phone"}`, bad: "r"},
		{name: "unknown screen", body: `{"p":"/","l":"en","bl":"en","r":"","s":"watch"}`, bad: "s"},
		{name: "screen in capitals", body: `{"p":"/","l":"en","bl":"en","r":"","s":"Phone"}`, bad: "s"},
		{name: "no screen", body: `{"p":"/","l":"en","bl":"en","r":""}`, bad: "s"},
		{name: "path a number", body: `{"p":1,"l":"en","bl":"en","r":"","s":"phone"}`, bad: "p"},
		{name: "screen null is empty", body: `{"p":"/","l":"en","bl":"en","r":"","s":null}`, bad: "s"},
		{name: "unknown field", body: `{"p":"/","l":"en","bl":"en","r":"","s":"phone","ua":"x"}`, bad: "json"},
		{name: "array", body: `[{"p":"/"}]`, bad: "json"},
		{name: "two objects", body: `{"p":"/","l":"en","s":"phone"}{}`, bad: "json"},
		{name: "not JSON", body: `p=/&l=en`, bad: "json"},
		{name: "empty body", body: ``, bad: "json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := p.parse([]byte(tt.body))
			if tt.bad == "" {
				if err != nil || got != tt.want {
					t.Errorf("parse = %+v, %v; want %+v", got, err, tt.want)
				}
				return
			}
			var be *BeaconError
			if !errors.As(err, &be) {
				t.Fatalf("parse = %+v, %v; want a BeaconError on %s", got, err, tt.bad)
			}
			field := be.Field
			if field == "" {
				field = "json"
			}
			if field != tt.bad {
				t.Errorf("error on %q (%s), want on %q", field, be.Message, tt.bad)
			}
			if be.Field != "" && !strings.Contains(be.Message, `"`+be.Field+`"`) {
				t.Errorf("message %q does not name the field %q", be.Message, be.Field)
			}
		})
	}
}

// Every prerendered page path is accepted with its own locale: the 56 routes of site.json.
func TestEveryPagePathIsAccepted(t *testing.T) {
	t.Parallel()
	p := newPages(site.Default(), "handy.example")
	routes := site.Default().Routes()
	if len(routes) != len(site.Default().Pages())*len(site.Default().Locales()) {
		t.Fatalf("%d routes", len(routes))
	}
	for _, r := range routes {
		body := `{"p":"` + r.Path + `","l":"` + r.Locale.Code + `","bl":"en","r":"","s":"desktop"}`
		v, err := p.parse([]byte(body))
		if err != nil || v.page != r.Page.Name || v.locale != r.Locale.Code {
			t.Errorf("%s: %+v, %v", r.Path, v, err)
		}
	}
}
