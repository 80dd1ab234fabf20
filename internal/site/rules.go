package site

import (
	"fmt"
	"net/http"
	"strings"
)

// Rule is a route rule: a request for From is redirected to To with Status. From is an exact
// path or holds one "**" that captures a non-empty rest of the path, which To reuses. A rest
// starting with "/" or "\" is not captured (the rule does not match): put after a "/" in To it
// would make "//host" or "/\host", which a browser reads as another host.
type Rule struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Status int    `json:"status,omitempty"`

	prefix, suffix string // From around "**"
	wildcard       bool
}

func (r *Rule) compile() error {
	if r.Status == 0 {
		r.Status = http.StatusTemporaryRedirect
	}
	switch r.Status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return fmt.Errorf("route rule %s: status %d is not a redirect", r.From, r.Status)
	}
	if !strings.HasPrefix(r.From, "/") {
		return fmt.Errorf("route rule %s: from must start with /", r.From)
	}
	n := strings.Count(r.From, "**")
	if n > 1 || strings.Count(r.To, "**") != n {
		return fmt.Errorf("route rule %s → %s: from and to must both hold one ** or none", r.From, r.To)
	}
	r.wildcard = n == 1
	if r.wildcard {
		r.prefix, r.suffix, _ = strings.Cut(r.From, "**")
	}
	return nil
}

// match returns the target of r for path.
func (r *Rule) match(path string) (string, bool) {
	if !r.wildcard {
		return r.To, path == r.From
	}
	if len(path) <= len(r.prefix)+len(r.suffix) || !strings.HasPrefix(path, r.prefix) || !strings.HasSuffix(path, r.suffix) {
		return "", false
	}
	rest := path[len(r.prefix) : len(path)-len(r.suffix)]
	if rest[0] == '/' || rest[0] == '\\' {
		return "", false
	}
	return strings.Replace(r.To, "**", rest, 1), true
}

// Rules returns the table's route rules in the order they are tried (the first removes a
// trailing slash: canonical URLs have none). A rule without status has 307.
func (t *Table) Rules() []Rule {
	out := make([]Rule, len(t.rules))
	copy(out, t.rules)
	return out
}

// Redirect applies the route rules to path, the same way as the front end (the cases both test
// against are testdata/rules.json). Rules are chained, at most MaxRedirectHops of them, so that
// one answer leads straight to the final target: /ja/faq/ → /jp/faq. The status is the first
// matching rule's. A path needing more hops (/a//////////) gets the furthest target reached;
// the client's next request goes on from there. A rule whose target is its input ends the
// chain. A target that is not a local path (empty, or starting with // or /\, which a browser
// would read as another host) is never returned.
func (t *Table) Redirect(path string) (target string, status int, ok bool) {
	current := path
	for range t.maxRedirectHops {
		rule := t.matchRule(current)
		if rule == nil {
			break
		}
		next, _ := rule.match(current)
		if next == current {
			break
		}
		if status == 0 {
			status = rule.Status
		}
		current = next
	}
	if status == 0 || !isLocalPath(current) {
		return "", 0, false
	}
	return current, status, true
}

func (t *Table) matchRule(path string) *Rule {
	for i := range t.rules {
		if _, ok := t.rules[i].match(path); ok {
			return &t.rules[i]
		}
	}
	return nil
}

// isLocalPath reports whether p is a path on this host that no browser reads as another host.
func isLocalPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.HasPrefix(p, `/\`)
}
