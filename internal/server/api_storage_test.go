package server

import (
	"strings"
	"testing"

	"handy/internal/docstore"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestStorageQuotaHTTP: GET /auth/me shows the storage used and the quota; a commit past the
// quota is 429 resource-exhausted naming it and what to do, and passes once the user has
// deleted enough.
func TestStorageQuotaHTTP(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		h := newDBServer(t, st, docstore.WithStorageQuota(20_000)).handler
		u := dbSignup(t, h, "ada@example.com")
		storage := func() (used, quota float64) {
			t.Helper()
			a := u.do("GET", "/api/v1/auth/me", "", "", nil)
			s, ok := a.body["storage"].(map[string]any)
			if a.status != 200 || !ok {
				t.Fatalf("GET /auth/me: %d %s", a.status, a.raw)
			}
			return s["used"].(float64), s["quota"].(float64)
		}
		profileOnly, quota := storage()
		if profileOnly <= 0 || quota != 20_000 {
			t.Fatalf("after sign-up: %g of %g used; want the profile's bytes of 20000", profileOnly, quota)
		}
		text := `{"stringValue":"` + strings.Repeat("x", 9000) + `"}`
		commitOK(t, u.commit(writes(update(u.path("notes/a"), `{"s":`+text+`}`, ""))), 1)
		if used, _ := storage(); used < profileOnly+9000 {
			t.Errorf("%g bytes used after a 9 kB document, %g before", used, profileOnly)
		}
		a := u.commit(writes(update(u.path("notes/b"), `{"s":`+text+`}`, ""), update(u.path("notes/c"), `{"s":`+text+`}`, "")))
		if a.status != 429 || errCode(a) != "resource-exhausted" || !strings.Contains(errMessage(a), "storage quota") || !strings.Contains(errMessage(a), "delete") {
			t.Fatalf("a commit past the quota: %d %s; want 429 resource-exhausted naming the quota", a.status, a.raw)
		}
		commitOK(t, u.commit(writes(deleteWrite(u.path("notes/a"), ""), update(u.path("notes/b"), `{"s":`+text+`}`, ""))), 2, 0)
		if used, _ := storage(); used >= profileOnly+10_000 {
			t.Errorf("%g bytes used after the deletion, want a 9 kB document's space given back", used)
		}
	})
}
