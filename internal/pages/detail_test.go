package pages

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDetailEscaped(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	load(t).NotFoundDetail("Page Not Found: /<script>alert('x')</script>\xff").Write(rec, httptest.NewRequest("GET", "/", nil), 404)
	body := rec.Body.String()
	if !strings.Contains(body, `<p class="error-detail">Page Not Found: /&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;`+"\uFFFD</p>") {
		t.Errorf("detail not escaped: %q", body)
	}
}
