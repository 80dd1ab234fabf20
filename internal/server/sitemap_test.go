package server

import (
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"handy/internal/site"
)

type urlset struct {
	XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []struct {
		Loc   string `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 loc"`
		Links []struct {
			Rel      string `xml:"rel,attr"`
			Hreflang string `xml:"hreflang,attr"`
			Href     string `xml:"href,attr"`
		} `xml:"http://www.w3.org/1999/xhtml link"`
	} `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 url"`
}

func TestSitemaps(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpsOrigin)
	table := site.Default()
	for _, loc := range table.Locales() {
		target := "/" + loc.Code + "/sitemap.xml"
		if table.IsDefault(loc) {
			target = "/sitemap.xml"
		}
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			res, body := serve(t, s.Handler(), request{target: target, header: map[string]string{"Accept-Encoding": "br"}})
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/xml; charset=utf-8" || res.Header.Get("Content-Encoding") != "br" {
				t.Fatalf("GET %s = %d %q %q", target, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"))
			}
			var set urlset
			if err := xml.Unmarshal([]byte(decode(t, res, body)), &set); err != nil {
				t.Fatalf("parse %s: %v", target, err)
			}
			if len(set.URLs) != 7 {
				t.Fatalf("%s has %d URLs, want 7", target, len(set.URLs))
			}
			for i, page := range table.Pages() {
				u := set.URLs[i]
				if want := httpsOrigin + table.Path(page, loc); u.Loc != want {
					t.Errorf("loc = %q, want %q", u.Loc, want)
				}
				if len(u.Links) != 9 {
					t.Fatalf("%s has %d alternates, want 9", u.Loc, len(u.Links))
				}
				want := map[string]string{"x-default": httpsOrigin + page.Path}
				for _, alt := range table.Locales() {
					want[alt.Lang] = httpsOrigin + table.Path(page, alt)
				}
				for _, l := range u.Links {
					if l.Rel != "alternate" || want[l.Hreflang] != l.Href {
						t.Errorf("%s alternate %+v, want %q", u.Loc, l, want[l.Hreflang])
					}
					delete(want, l.Hreflang)
				}
				if len(want) != 0 {
					t.Errorf("%s lacks alternates %v", u.Loc, want)
				}
			}
		})
	}
	for _, target := range []string{"/en/sitemap.xml", "/xx/sitemap.xml", "/de/nope/sitemap.xml"} {
		if res, _ := serve(t, s.Handler(), request{target: target}); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", target, res.StatusCode)
		}
	}
}

func TestRobots(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, httpsOrigin)
	res, body := serve(t, s.Handler(), request{target: "/robots.txt"})
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("GET /robots.txt = %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if !strings.HasPrefix(body, "User-agent: *\nAllow: /\n") {
		t.Errorf("robots.txt = %q", body)
	}
	var sitemaps []string
	for line := range strings.Lines(body) {
		if u, ok := strings.CutPrefix(strings.TrimSpace(line), "Sitemap: "); ok {
			sitemaps = append(sitemaps, u)
		}
	}
	want := []string{httpsOrigin + "/sitemap.xml"}
	for _, loc := range site.Default().Locales()[1:] {
		want = append(want, httpsOrigin+"/"+loc.Code+"/sitemap.xml")
	}
	if strings.Join(sitemaps, " ") != strings.Join(want, " ") {
		t.Errorf("robots.txt sitemaps = %v, want %v", sitemaps, want)
	}
	for _, u := range sitemaps {
		if res, _ := serve(t, s.Handler(), request{target: strings.TrimPrefix(u, httpsOrigin)}); res.StatusCode != 200 {
			t.Errorf("robots.txt names %s, which answers %d", u, res.StatusCode)
		}
	}
}
