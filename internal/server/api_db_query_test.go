package server

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"handy/internal/account"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestDBQuery proves that a query answers {"documents":[...]} with full documents, filtered,
// ordered and limited as asked (limitToLast keeping the query's order), and [] for no match.
func TestDBQuery(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		u := dbSignup(t, apiServer(t, st, account.DefaultLimits), "ada@example.com")
		var ws []string
		for i, tool := range []string{"area", "speed", "area", "area", "speed"} {
			ws = append(ws, update(u.path(fmt.Sprintf("history/h%d", i+1)), fmt.Sprintf(`{"tool":{"stringValue":%q},"n":{"integerValue":"%d"}}`, tool, i+1), ""))
		}
		_, v := commitOK(t, u.commit(writes(ws...)), 5)

		const isArea = `{"fieldFilter":{"field":{"fieldPath":"tool"},"op":"EQUAL","value":{"stringValue":"area"}}}`
		for _, tt := range []struct {
			name, query string
			want        []string // document ids, in order
		}{
			{"where, orderBy descending, limit",
				`{"from":[{"collectionId":"history"}],"where":` + isArea + `,"orderBy":[{"field":{"fieldPath":"n"},"direction":"DESCENDING"}],"limit":2}`,
				[]string{"h4", "h3"}},
			{"range filter, ascending",
				`{"from":[{"collectionId":"history"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN_OR_EQUAL","value":{"integerValue":"2"}}},"orderBy":[{"field":{"fieldPath":"n"}}]}`,
				[]string{"h2", "h3", "h4", "h5"}},
			{"limitToLast",
				`{"from":[{"collectionId":"history"}],"orderBy":[{"field":{"fieldPath":"n"}}],"limit":2,"limitToLast":true}`,
				[]string{"h4", "h5"}},
			{"composite AND with IN, by name",
				`{"from":[{"collectionId":"history"}],"where":{"compositeFilter":{"op":"AND","filters":[{"fieldFilter":{"field":{"fieldPath":"tool"},"op":"IN","value":{"arrayValue":{"values":[{"stringValue":"speed"}]}}}},{"unaryFilter":{"op":"IS_NOT_NULL","field":{"fieldPath":"n"}}}]}}}`,
				[]string{"h2", "h5"}},
			{"startAt cursor",
				`{"from":[{"collectionId":"history"}],"orderBy":[{"field":{"fieldPath":"n"}}],"startAt":{"values":[{"integerValue":"3"}],"before":true}}`,
				[]string{"h3", "h4", "h5"}},
			{"no match", `{"from":[{"collectionId":"history"}],"where":{"fieldFilter":{"field":{"fieldPath":"tool"},"op":"EQUAL","value":{"stringValue":"none"}}}}`,
				[]string{}},
		} {
			a := u.query(u.path(""), tt.query)
			docs, ok := a.body["documents"].([]any)
			if a.status != 200 || !ok || len(a.body) != 1 {
				t.Errorf("%s: %d %s, want 200 {\"documents\":[...]}", tt.name, a.status, a.raw)
				continue
			}
			got := []string{}
			for _, d := range docs {
				d := d.(map[string]any)
				name, _ := d["name"].(string)
				got = append(got, strings.TrimPrefix(name, u.path("history/")))
				if d["fields"] == nil || d["createTime"] == nil || d["updateTime"] == nil || versionOf(t, d["version"]) != v {
					t.Errorf("%s: incomplete document %v", tt.name, d)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
			}
		}
	})
}
