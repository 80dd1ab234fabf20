package site

import (
	"strings"
	"testing"
)

// TestAPI: the embedded api.json parses, and every endpoint's path is relative to the base.
func TestAPI(t *testing.T) {
	t.Parallel()
	a := DefaultAPI()
	if a.Base != "/api/v1" || a.XSRF.Cookie != "XSRF-TOKEN" || a.XSRF.Header != "X-XSRF-TOKEN" || len(a.AccountErrors) == 0 {
		t.Errorf("api.json = %+v", a)
	}
	for name, p := range a.Paths {
		if p == "" || strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
			t.Errorf("%s: path %q, want one relative to the base, without a trailing slash", name, p)
		}
	}
	if got := a.Path("authMe"); got != "/api/v1/auth/me" {
		t.Errorf(`Path("authMe") = %q`, got)
	}
	if got := a.Path("nope"); got != "" {
		t.Errorf(`Path("nope") = %q, want ""`, got)
	}
}
