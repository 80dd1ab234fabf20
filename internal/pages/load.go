package pages

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"path"
	"slices"
	"strings"

	"handy/internal/config"
	"handy/internal/site"
)

// ErrNotBuilt means the front-end build output lacks a page or an error page.
var ErrNotBuilt = errors.New("front end not built: run make build")

// errorsDir holds the static error pages: _errors/{code}/404.html and 500.html.
const errorsDir = "_errors"

// adminDir holds the operator's dashboard, one document per locale laid out as the site's pages
// are (_admin/admin/index.html is /admin, _admin/de/admin/index.html is /de/admin): served only
// when an admin token is configured. The front end alone names its paths.
const adminDir = "_admin"

// rawFile is a file read from the build output, with the public origin substituted.
type rawFile struct {
	name  string // path in the build output
	body  []byte
	built *precompressed // the build's compressed copies, nil if none (or stale: substituted)
}

// gzipSuffix and brotliSuffix name the build's compressed copies of a file (written by
// web/scripts/precompress.mjs): x.js.gz and x.js.br beside x.js.
const gzipSuffix, brotliSuffix = ".gz", ".br"

// distFiles is the build output sorted by what it is for.
type distFiles struct {
	byURL      map[string]rawFile            // served by URL path
	errorPages map[string]map[string]rawFile // locale code → "404"/"500" → page
	adminPages map[string]rawFile            // the dashboard by URL path, one per locale
}

// substitutions replaces the build's placeholders with the configured values: the public origin
// in absolute URLs, the operator's contact address and governing law in the long-form content,
// and the tag manager's container URL (or nothing) in every page's boot data. The config package
// allows no character that would need escaping in HTML or JSON; escaping anyway keeps that a
// local fact.
func substitutions(table *site.Table, cfg config.Config) *strings.Replacer {
	op := table.OperatorPlaceholders()
	jurisdiction := ""
	if cfg.Jurisdiction != "" {
		jurisdiction = " (" + html.EscapeString(cfg.Jurisdiction) + ")"
	}
	pairs := []string{
		table.OriginPlaceholder(), cfg.PublicURL,
		op.ContactEmail, html.EscapeString(cfg.Contact()),
		op.Jurisdiction, jurisdiction,
	}
	if tm := table.TagManagerPlaceholder(); tm != "" {
		// A JSON string inside <script type="application/json">: nothing in it may end the string
		// or the element (control characters are the config's to refuse).
		jsonInScript := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "<", `\u003c`, ">", `\u003e`, "&", `\u0026`)
		pairs = append(pairs, tm, jsonInScript.Replace(cfg.TagManagerScript()))
	}
	return strings.NewReplacer(pairs...)
}

// readDist reads every file of dist, makes the substitutions in text files, pairs each file
// with the compressed copies the build wrote beside it, and checks that every page × locale
// document and every error page is there.
func readDist(dist fs.FS, table *site.Table, subst *strings.Replacer) (distFiles, error) {
	files := distFiles{byURL: make(map[string]rawFile), errorPages: make(map[string]map[string]rawFile), adminPages: make(map[string]rawFile)}
	all := make(map[string][]byte)
	err := fs.WalkDir(dist, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && name != "." {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil // dotfiles (.gitkeep) are never served
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		body, err := fs.ReadFile(dist, name)
		if err != nil {
			return err
		}
		all[name] = body
		return nil
	})
	if err != nil {
		return distFiles{}, fmt.Errorf("read build output: %w", err)
	}
	for name, body := range all {
		if copyOf(all, name) {
			continue
		}
		f := rawFile{name: name, body: body}
		if gz, br := all[name+gzipSuffix], all[name+brotliSuffix]; gz != nil || br != nil {
			f.built = &precompressed{gzip: gz, brotli: br}
		}
		if substituted(name) {
			if f.body = []byte(subst.Replace(string(body))); !bytes.Equal(f.body, body) {
				f.built = nil // compressed before the substitution: the server compresses it
			}
		}
		files.add(f)
	}
	if missing := files.missing(table); len(missing) > 0 {
		more := ""
		if len(missing) > 3 {
			more = fmt.Sprintf(" and %d more", len(missing)-3)
			missing = missing[:3]
		}
		return distFiles{}, fmt.Errorf("%w (missing %s%s)", ErrNotBuilt, strings.Join(missing, ", "), more)
	}
	return files, nil
}

// copyOf reports whether name is the build's compressed copy of another file (x.js.br of x.js).
func copyOf(all map[string][]byte, name string) bool {
	for _, suffix := range []string{gzipSuffix, brotliSuffix} {
		if stem, ok := strings.CutSuffix(name, suffix); ok {
			if _, ok := all[stem]; ok {
				return true
			}
		}
	}
	return false
}

// add files f as an error page, a dashboard page or a file served at its URL.
func (files distFiles) add(f rawFile) {
	if rest, ok := strings.CutPrefix(f.name, errorsDir+"/"); ok {
		if code, page, ok := strings.Cut(rest, "/"); ok && (page == "404.html" || page == "500.html") {
			if files.errorPages[code] == nil {
				files.errorPages[code] = make(map[string]rawFile)
			}
			files.errorPages[code][strings.TrimSuffix(page, ".html")] = f
		}
		return
	}
	if rest, ok := strings.CutPrefix(f.name, adminDir+"/"); ok {
		if strings.HasSuffix(rest, "/index.html") {
			files.adminPages[urlOf(rest)] = f
		}
		return
	}
	files.byURL[urlOf(f.name)] = f // distinct: a directory cannot also be a file
}

// urlOf returns the URL path a build output file is served at. An index.html answers for its
// directory without a trailing slash (faq/index.html → /faq, index.html → /); /index.html is
// not a second URL for the home page.
func urlOf(name string) string {
	if name == "index.html" {
		return "/"
	}
	if dir, ok := strings.CutSuffix(name, "/index.html"); ok {
		return "/" + dir
	}
	return "/" + name
}

// missing lists the required files the build output lacks, in table order.
func (f distFiles) missing(table *site.Table) []string {
	var missing []string
	for _, r := range table.Routes() {
		if _, ok := f.byURL[r.Path]; !ok {
			missing = append(missing, documentOf(r.Path))
		}
	}
	for _, loc := range table.Locales() {
		for _, status := range []string{"404", "500"} {
			if _, ok := f.errorPages[loc.Code][status]; !ok {
				missing = append(missing, path.Join(errorsDir, loc.Code, status+".html"))
			}
		}
	}
	if len(f.adminPages) < len(table.Locales()) {
		missing = append(missing, fmt.Sprintf("%s/ (%d dashboard documents of %d)", adminDir, len(f.adminPages), len(table.Locales())))
	}
	return slices.Clip(missing)
}

// documentOf names the build output file of a page URL: / → index.html, /de/faq → de/faq/index.html.
func documentOf(url string) string {
	if url == "/" {
		return "index.html"
	}
	return strings.TrimPrefix(url, "/") + "/index.html"
}
