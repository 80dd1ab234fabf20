package site

import (
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// ruleSuites is testdata/rules.json, which the front end's tests read too: both
// implementations of the route rules must answer every case alike.
type ruleSuites struct {
	Suites []struct {
		Name string `json:"name"`
		// Rules are the rules to apply; null means site.json's own.
		Rules json.RawMessage `json:"rules"`
		Cases []struct {
			Path   string `json:"path"`
			Target string `json:"target"` // "" with status 0: no redirect
			Status int    `json:"status"`
		} `json:"cases"`
	} `json:"suites"`
}

func TestRedirect(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/rules.json")
	if err != nil {
		t.Fatal(err)
	}
	var all ruleSuites
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatalf("testdata/rules.json: %v", err)
	}
	if len(all.Suites) == 0 {
		t.Fatal("testdata/rules.json has no suites")
	}
	for _, suite := range all.Suites {
		t.Run(suite.Name, func(t *testing.T) {
			t.Parallel()
			tab := tableWithRules(t, suite.Rules)
			for _, c := range suite.Cases {
				target, status, ok := tab.Redirect(c.Path)
				if ok != (c.Status != 0) || target != c.Target || status != c.Status {
					t.Errorf("Redirect(%q) = %q, %d, %v; want %q, %d", c.Path, target, status, ok, c.Target, c.Status)
				}
			}
		})
	}
}

// tableWithRules returns the site's table, or, when rules is not null, a minimal table with
// those rules and the site's other settings (the hop bound among them).
func tableWithRules(t *testing.T, rules json.RawMessage) *Table {
	t.Helper()
	def := Default()
	if len(rules) == 0 || string(rules) == "null" {
		return def
	}
	limits, err := json.Marshal(def.Limits())
	if err != nil {
		t.Fatal(err)
	}
	history, err := json.Marshal(def.History())
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Parse([]byte(`{"defaultLocale":"en","originPlaceholder":"https://o.invalid","operatorPlaceholders":{"contactEmail":"%C%%","jurisdiction":"%J%%"},
		"locales":[{"code":"en","name":"English","lang":"en"}],"pages":[{"name":"index","path":"/"}],
		"limits":` + string(limits) + `,"history":` + string(history) + `,"maxRedirectHops":` + strconv.Itoa(def.MaxRedirectHops()) + `,"routeRules":` + string(rules) + `}`))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestSiteRules(t *testing.T) {
	t.Parallel()
	// The site's own table removes trailing slashes first: canonical URLs have none.
	if rules := Default().Rules(); rules[0].From != "/**/" || rules[0].To != "/**" || rules[0].Status != http.StatusMovedPermanently {
		t.Errorf("first rule of site.json = %+v, want the trailing-slash rule", rules[0])
	}
	// testdata/rules.json chains exactly as many hops as site.json allows.
	if got := Default().MaxRedirectHops(); got != 8 {
		t.Errorf("maxRedirectHops = %d; the hop cases of testdata/rules.json are written for 8", got)
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
		if again, _, ok := tab.Redirect(target); ok && strings.Count(path, "/") < tab.MaxRedirectHops() {
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
