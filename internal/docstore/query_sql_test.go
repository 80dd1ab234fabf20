package docstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"handy/internal/store"
	"handy/internal/store/storetest"
)

// TestQueryMatchesRun compares Store.Query with the reference evaluator Run
// on random documents and random valid queries, on both engines: the same
// documents in the same order, field for field. HANDY_QUERY_CASES sets the
// number of queries per engine (default 500), HANDY_QUERY_SEED replays a
// failure.
func TestQueryMatchesRun(t *testing.T) {
	cases := envInt(t, "HANDY_QUERY_CASES", 500)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("HANDY_QUERY_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("HANDY_QUERY_SEED: %v", err)
		}
	}
	const perSet = 50 // queries per random data set
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		s := openStore(t, st, testWriteRate())
		ctx := context.Background()
		nonEmpty, drivenByFilter := 0, 0
		var docs []Doc
		for set := 0; set*perSet < cases; set++ {
			setSeed := seed + uint64(set)
			g := &randomGen{r: rand.New(rand.NewPCG(setSeed, 0)), pool: randomPool()}
			old := docs
			docs = g.docs()
			replaceDocs(t, s, old, docs)
			for i := range min(perSet, cases-set*perSet) {
				q := g.query(docs)
				want := Run(q, docs)
				if len(want) > 0 {
					nonEmpty++
				}
				got, err := s.Query(ctx, "u1", q)
				if err != nil {
					t.Fatalf("HANDY_QUERY_SEED=%d, query %d: %s: %v", setSeed, i, describeQuery(q), err)
				}
				if diff := diffDocs(want, got); diff != "" {
					t.Fatalf("HANDY_QUERY_SEED=%d, query %d: %s\n%s\ndocuments:\n%s",
						setSeed, i, describeQuery(q), diff, describeDocs(docs))
				}
				// Query picks one driver; the other must agree too.
				if d := drivingFilter(q); d >= 0 {
					got, err := queryDrivenBy(ctx, s, q, d)
					if err != nil {
						t.Fatalf("HANDY_QUERY_SEED=%d, query %d driven by where[%d]: %s: %v", setSeed, i, d, describeQuery(q), err)
					}
					if diff := diffDocs(want, got); diff != "" {
						t.Fatalf("HANDY_QUERY_SEED=%d, query %d driven by where[%d]: %s\n%s\ndocuments:\n%s",
							setSeed, i, d, describeQuery(q), diff, describeDocs(docs))
					}
					drivenByFilter++
				}
			}
		}
		t.Logf("%d queries (seeds from %d), %d with results, %d also driven by a filter", cases, seed, nonEmpty, drivenByFilter)
	})
}

// queryDrivenBy runs q driven by the filter where[driver], whatever Query
// would choose.
func queryDrivenBy(ctx context.Context, s *Store, q Query, driver int) ([]Doc, error) {
	stmt, ok := planQuery(q, driver)
	if !ok {
		return []Doc{}, nil
	}
	return s.runQuery(ctx, stmt)
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number", name, s)
	}
	return n
}

// diffDocs describes how got differs from want (paths, order, fields), or "".
func diffDocs(want, got []Doc) string {
	line := func(ds []Doc) string {
		ids := make([]string, len(ds))
		for i, d := range ds {
			ids[i] = d.Path.String()
		}
		return "[" + strings.Join(ids, " ") + "]"
	}
	if len(want) != len(got) {
		return fmt.Sprintf("want %s\ngot  %s", line(want), line(got))
	}
	for i := range want {
		if !want[i].Path.Equal(got[i].Path) {
			return fmt.Sprintf("want %s\ngot  %s", line(want), line(got))
		}
		w, errW := EncodeFields(want[i].Fields)
		g, errG := EncodeFields(got[i].Fields)
		if errW != nil || errG != nil || !bytes.Equal(w, g) {
			return fmt.Sprintf("%s: want fields %s, got %s (%v, %v)", want[i].Path.String(), w, g, errW, errG)
		}
	}
	return ""
}

func describeQuery(q Query) string {
	var b strings.Builder
	b.WriteString("where")
	for _, f := range q.Where {
		v, _ := f.Value.MarshalJSON()
		fmt.Fprintf(&b, " [%s %s %s]", f.Field.String(), f.Op, v)
	}
	fmt.Fprintf(&b, " orderBy [%s]", describeOrders(q.OrderBy))
	for _, c := range []struct {
		name string
		c    *Cursor
	}{{"startAt", q.StartAt}, {"endAt", q.EndAt}} {
		if c.c != nil {
			fmt.Fprintf(&b, " %s(before=%v", c.name, c.c.Before)
			for _, v := range c.c.Values {
				j, _ := v.MarshalJSON()
				fmt.Fprintf(&b, " %s", j)
			}
			b.WriteString(")")
		}
	}
	fmt.Fprintf(&b, " limit %d last=%v", q.Limit, q.LimitToLast)
	return b.String()
}

func describeDocs(docs []Doc) string {
	var b strings.Builder
	for _, d := range docs {
		j, _ := EncodeFields(d.Fields)
		fmt.Fprintf(&b, "  %s %s\n", d.Path.String(), j)
	}
	return b.String()
}

// TestQueryAccess: the access rule is Get's.
func TestQueryAccess(t *testing.T) {
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		s := openStore(t, st)
		ctx := context.Background()
		q := Query{Parent: mustCollection(t, "users/u1/history")}
		if _, err := s.Query(ctx, "", q); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("no caller: got %v, want unauthenticated", err)
		}
		if _, err := s.Query(ctx, "u2", q); !errors.Is(err, ErrPermissionDenied) {
			t.Errorf("another user: got %v, want permission-denied", err)
		}
		if _, err := s.Query(ctx, "u1", Query{Parent: mustCollection(t, "users")}); !errors.Is(err, ErrPermissionDenied) {
			t.Errorf("the users collection: got %v, want permission-denied", err)
		}
		if docs, err := s.Query(ctx, "u1", q); err != nil || len(docs) != 0 {
			t.Errorf("own empty collection: got %v, %v", docs, err)
		}
		bad := q
		bad.LimitToLast, bad.Limit = true, 1
		if _, err := s.Query(ctx, "u1", bad); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("limitToLast without orderBy: got %v, want invalid-argument", err)
		}
	})
}

func mustCollection(t *testing.T, s string) Path {
	t.Helper()
	p, err := ParseCollectionPath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestQueryReferenceDocs runs the reference evaluator's hand-checked corner
// cases (refDocs, see TestRun) through SQL: each must give Run's answer. The
// random test covers the rest; these are the ones a planner gets wrong first.
func TestQueryReferenceDocs(t *testing.T) {
	queries := []string{
		sq(),
		sq(where(ff("n", "EQUAL", one))),
		sq(where(ff("n", "EQUAL", null))),
		sq(where(ff("n", "EQUAL", nan))),
		sq(where(ff("n.x", "EQUAL", one))),
		sq(where(ff("n", "LESS_THAN", two))),
		sq(where(ff("n", "GREATER_THAN", nan))),
		sq(where(ff("n", "LESS_THAN_OR_EQUAL", null))),
		sq(where(ff("n", "GREATER_THAN", `{"arrayValue":{}}`))),
		sq(where(and(ff("n", "GREATER_THAN_OR_EQUAL", one), ff("n", "LESS_THAN", `{"doubleValue":2.5}`)))),
		sq(where(ff("n", "NOT_EQUAL", nan))),
		sq(where(unary("n", "IS_NOT_NULL"))),
		sq(where(ff("n", "NOT_IN", list(one, two)))),
		sq(where(ff("n", "NOT_IN", list(`{"integerValue":"5"}`, null)))),
		sq(where(ff("n", "IN", list(null, two)))),
		sq(where(ff("tags", "ARRAY_CONTAINS", one))),
		sq(where(ff("tags", "ARRAY_CONTAINS", list(strX)))),
		sq(where(ff("tags", "ARRAY_CONTAINS_ANY", list(null, strY)))),
		sq(where(and(ff("tags", "ARRAY_CONTAINS", one), ff("n", "EQUAL", one)))),
		sq(where(ff("__name__", "GREATER_THAN", ref("i")))),
		sq(where(ff("__name__", "NOT_IN", list(ref("a"), ref("b"))))),
		sq(where(ff("__name__", "LESS_THAN", `{"referenceValue":"users/u1/history-/a"}`))),
		sq(where(ff("__name__", "LESS_THAN", `{"referenceValue":"users/u1/histor/zz"}`))),
		sq(where(ff("__name__", "GREATER_THAN", `{"referenceValue":"users/u1/history/a/sub/s"}`))),
		// __name__ compared by path when other rows drive: paths elsewhere.
		sq(where(ff("__name__", "GREATER_THAN", `{"referenceValue":"users/u1"}`)), orderBy("n")),
		sq(where(ff("__name__", "LESS_THAN", `{"referenceValue":"users/u1"}`)), orderBy("n")),
		sq(where(ff("__name__", "LESS_THAN_OR_EQUAL", `{"referenceValue":"users/u1/history/c/sub/s"}`)), orderBy("n")),
		sq(where(ff("__name__", "GREATER_THAN", `{"referenceValue":"users/u1/history/c/sub/s"}`)), orderBy("n")),
		sq(where(ff("__name__", "NOT_EQUAL", `{"referenceValue":"users/u1/history/c/sub/s"}`)), orderBy("n")),
		sq(where(ff("__name__", "LESS_THAN", `{"referenceValue":"users/u1/history-/a"}`)), orderBy("n")),
		sq(where(ff("__name__", "IN", list(ref("c"), `{"referenceValue":"users/u1/other/c"}`))), orderBy("n")),
		sq(where(ff("__name__", "NOT_IN", list(ref("c"), `{"referenceValue":"users/u1/other/c"}`))), orderBy("n")),
		sq(orderBy("n"), cursor("startAt", true, one, `{"referenceValue":"users/u1/history/a/sub/s"}`)),
		sq(orderBy("n"), cursor("endAt", false, one, `{"referenceValue":"users/u1/history/a/sub/s"}`)),
		sq(orderBy("n", "__name__ DESCENDING")),
		sq(orderBy("n DESCENDING"), `"limit":2`, `"limitToLast":true`),
		sq(orderBy("n"), cursor("startAt", false, one, ref("a"))),
		sq(orderBy("n"), cursor("endAt", true, one, ref("i"))),
		sq(orderBy("n DESCENDING"), cursor("startAt", false, two)),
		sq(orderBy("n"), cursor("endAt", true, two), `"limit":2`, `"limitToLast":true`),
		sq(cursor("startAt", false, `{"stringValue":"c"}`)),
		sq(where(ff("n", "NOT_EQUAL", one)), cursor("startAt", false, nan), `"limit":3`),
		sq(where(ff("other", "GREATER_THAN", null)), orderBy("tags")),
	}
	// Without h, whose array in an array Firestore cannot store.
	docs := slices.DeleteFunc(refDocs(t), func(d Doc) bool { return d.Path.ID() == "h" })
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		s := openStore(t, st, testWriteRate())
		replaceDocs(t, s, nil, docs)
		for _, query := range queries {
			q, err := ParseQuery("users/u1", []byte(query))
			if err != nil {
				t.Fatalf("ParseQuery(%s): %v", query, err)
			}
			got, err := s.Query(context.Background(), "u1", q)
			if err != nil {
				t.Fatalf("%s: %v", query, err)
			}
			if diff := diffDocs(Run(q, docs), got); diff != "" {
				t.Errorf("%s:\n%s", query, diff)
			}
		}
	})
}

// TestQueryChooseDriver: a filter drives when it matches few documents, the
// ordering when the filter matches many; both answer as Run does.
func TestQueryChooseDriver(t *testing.T) {
	docs := historyEntries(400) // tools: area ~240, speed ~156, flip ~4
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		s := openStore(t, st, testWriteRate())
		replaceDocs(t, s, nil, docs)
		ctx := context.Background()
		query := func(tool string, limit int, order bool) Query {
			q := historyQuery(t)
			q.Where[0].Value, q.Limit = qStr(tool), limit
			if !order {
				q.OrderBy = nil
			}
			return q
		}
		tests := []struct {
			name string
			q    Query
			want int // the driver
		}{
			{"rare value, limit", query("flip", 5, true), 0},
			{"common value, limit", query("speed", 5, true), -1},
			{"common value, no limit", query("speed", 0, true), 0},
			{"common value, by name", query("speed", 5, false), 0},
		}
		for _, tt := range tests {
			got, err := s.chooseDriver(ctx, tt.q)
			if err != nil || got != tt.want {
				t.Errorf("%s: driver %d, %v; want %d", tt.name, got, err, tt.want)
			}
			docsGot, err := s.Query(ctx, "u1", tt.q)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if diff := diffDocs(Run(tt.q, docs), docsGot); diff != "" {
				t.Errorf("%s:\n%s", tt.name, diff)
			}
		}
	})
}

// TestQueryUnindexedValue: a value too long to index is invisible to
// filters and orderings on its field path (Query's one exception to Run),
// not to the rest of the document.
func TestQueryUnindexedValue(t *testing.T) {
	long := qStr(strings.Repeat("x", MaxIndexEntryBytes))
	docs := []Doc{
		{Path: mustPath(t, "users/u1/history/a"), Fields: Fields{"s": long, "n": qInt(1)}},
		{Path: mustPath(t, "users/u1/history/b"), Fields: Fields{"s": qStr("short"), "n": qInt(2)}},
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		s := openStore(t, st, testWriteRate())
		replaceDocs(t, s, nil, docs)
		parent := mustCollection(t, "users/u1/history")
		for _, tt := range []struct {
			name string
			q    Query
			want string
		}{
			{"ordered by it", Query{Parent: parent, OrderBy: []Order{{Field: FieldPath{"s"}}}}, "b"},
			{"equal to it", Query{Parent: parent, Where: []Filter{{Field: FieldPath{"s"}, Op: OpEqual, Value: long}}}, ""},
			{"another field", Query{Parent: parent, OrderBy: []Order{{Field: FieldPath{"n"}}}}, "a b"},
		} {
			got, err := s.Query(context.Background(), "u1", tt.q)
			if err != nil || ids(got) != tt.want {
				t.Errorf("%s: got %q, %v; want %q", tt.name, ids(got), err, tt.want)
			}
		}
	})
}
