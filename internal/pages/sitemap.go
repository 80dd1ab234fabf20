package pages

import (
	"encoding/xml"
	"strings"

	"handy/internal/site"
)

// SitemapPath is where a locale's sitemap is served: /sitemap.xml for the default locale,
// /{code}/sitemap.xml for the others.
func SitemapPath(table *site.Table, loc site.Locale) string {
	if table.IsDefault(loc) {
		return "/sitemap.xml"
	}
	return "/" + loc.Code + "/sitemap.xml"
}

// buildSitemap writes the sitemap of loc's pages. Every <url> lists the page in all locales
// (hreflang is the locale's language tag) plus x-default, the default locale's URL.
func buildSitemap(table *site.Table, origin string, loc site.Locale) []byte {
	var b strings.Builder
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	locales := table.Locales()
	for _, page := range table.Pages() {
		b.WriteString("  <url>\n    <loc>")
		writeEscaped(&b, origin+table.Path(page, loc))
		b.WriteString("</loc>\n")
		for _, alt := range locales {
			writeAlternate(&b, alt.Lang, origin+table.Path(page, alt))
		}
		writeAlternate(&b, "x-default", origin+table.Path(page, table.DefaultLocale()))
		b.WriteString("  </url>\n")
	}
	b.WriteString("</urlset>\n")
	return []byte(b.String())
}

func writeAlternate(b *strings.Builder, hreflang, href string) {
	b.WriteString(`    <xhtml:link rel="alternate" hreflang="`)
	writeEscaped(b, hreflang)
	b.WriteString(`" href="`)
	writeEscaped(b, href)
	b.WriteString("\"/>\n")
}

func writeEscaped(b *strings.Builder, s string) {
	xml.EscapeText(b, []byte(s)) //nolint:errcheck // a strings.Builder never fails
}

// buildRobots allows every crawler everywhere and names every sitemap by absolute URL.
func buildRobots(table *site.Table, origin string) []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n\n")
	for _, loc := range table.Locales() {
		b.WriteString("Sitemap: " + origin + SitemapPath(table, loc) + "\n")
	}
	return []byte(b.String())
}
