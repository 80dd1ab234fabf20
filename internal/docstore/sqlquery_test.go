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

	"handy/internal/docstore/query"
	"handy/internal/docstore/query/querytest"
	"handy/internal/docstore/status"
	"handy/internal/docstore/value"
	"handy/internal/docstore/value/valuetest"
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
		var docs []value.Doc
		for set := 0; set*perSet < cases; set++ {
			setSeed := seed + uint64(set)
			g := &randomGen{r: rand.New(rand.NewPCG(setSeed, 0)), pool: randomPool()}
			old := docs
			docs = g.docs()
			replaceDocs(t, s, old, docs)
			for i := range min(perSet, cases-set*perSet) {
				q := g.query(docs)
				want := query.Run(q, docs)
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
func queryDrivenBy(ctx context.Context, s *Store, q query.Query, driver int) ([]value.Doc, error) {
	stmt, ok := planQuery(q, driver)
	if !ok {
		return []value.Doc{}, nil
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
func diffDocs(want, got []value.Doc) string {
	line := func(ds []value.Doc) string {
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
		w, errW := value.EncodeFields(want[i].Fields)
		g, errG := value.EncodeFields(got[i].Fields)
		if errW != nil || errG != nil || !bytes.Equal(w, g) {
			return fmt.Sprintf("%s: want fields %s, got %s (%v, %v)", want[i].Path.String(), w, g, errW, errG)
		}
	}
	return ""
}

func describeQuery(q query.Query) string {
	var b strings.Builder
	b.WriteString("where")
	for _, f := range q.Where {
		v, _ := f.Value.MarshalJSON()
		fmt.Fprintf(&b, " [%s %s %s]", f.Field.String(), f.Op, v)
	}
	fmt.Fprintf(&b, " orderBy [%s]", query.DescribeOrders(q.OrderBy))
	for _, c := range []struct {
		name string
		c    *query.Cursor
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

func describeDocs(docs []value.Doc) string {
	var b strings.Builder
	for _, d := range docs {
		j, _ := value.EncodeFields(d.Fields)
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
		q := query.Query{Parent: mustCollection(t, "users/u1/history")}
		if _, err := s.Query(ctx, "", q); !errors.Is(err, status.ErrUnauthenticated) {
			t.Errorf("no caller: got %v, want unauthenticated", err)
		}
		if _, err := s.Query(ctx, "u2", q); !errors.Is(err, status.ErrPermissionDenied) {
			t.Errorf("another user: got %v, want permission-denied", err)
		}
		if _, err := s.Query(ctx, "u1", query.Query{Parent: mustCollection(t, "users")}); !errors.Is(err, status.ErrPermissionDenied) {
			t.Errorf("the users collection: got %v, want permission-denied", err)
		}
		if docs, err := s.Query(ctx, "u1", q); err != nil || len(docs) != 0 {
			t.Errorf("own empty collection: got %v, %v", docs, err)
		}
		bad := q
		bad.LimitToLast, bad.Limit = true, 1
		if _, err := s.Query(ctx, "u1", bad); !errors.Is(err, status.ErrInvalidArgument) {
			t.Errorf("limitToLast without orderBy: got %v, want invalid-argument", err)
		}
	})
}

func mustCollection(t *testing.T, s string) value.Path {
	t.Helper()
	p, err := value.ParseCollectionPath(s)
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
		querytest.SQ(),
		querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", querytest.One))),
		querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", querytest.Null))),
		querytest.SQ(querytest.Where(querytest.FF("n", "EQUAL", querytest.NaN))),
		querytest.SQ(querytest.Where(querytest.FF("n.x", "EQUAL", querytest.One))),
		querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN", querytest.Two))),
		querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", querytest.NaN))),
		querytest.SQ(querytest.Where(querytest.FF("n", "LESS_THAN_OR_EQUAL", querytest.Null))),
		querytest.SQ(querytest.Where(querytest.FF("n", "GREATER_THAN", `{"arrayValue":{}}`))),
		querytest.SQ(querytest.Where(querytest.And(querytest.FF("n", "GREATER_THAN_OR_EQUAL", querytest.One), querytest.FF("n", "LESS_THAN", `{"doubleValue":2.5}`)))),
		querytest.SQ(querytest.Where(querytest.FF("n", "NOT_EQUAL", querytest.NaN))),
		querytest.SQ(querytest.Where(querytest.Unary("n", "IS_NOT_NULL"))),
		querytest.SQ(querytest.Where(querytest.FF("n", "NOT_IN", querytest.List(querytest.One, querytest.Two)))),
		querytest.SQ(querytest.Where(querytest.FF("n", "NOT_IN", querytest.List(`{"integerValue":"5"}`, querytest.Null)))),
		querytest.SQ(querytest.Where(querytest.FF("n", "IN", querytest.List(querytest.Null, querytest.Two)))),
		querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS", querytest.One))),
		querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS", querytest.List(querytest.StrX)))),
		querytest.SQ(querytest.Where(querytest.FF("tags", "ARRAY_CONTAINS_ANY", querytest.List(querytest.Null, querytest.StrY)))),
		querytest.SQ(querytest.Where(querytest.And(querytest.FF("tags", "ARRAY_CONTAINS", querytest.One), querytest.FF("n", "EQUAL", querytest.One)))),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "GREATER_THAN", querytest.Ref("i")))),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "NOT_IN", querytest.List(querytest.Ref("a"), querytest.Ref("b"))))),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN", `{"referenceValue":"users/u1/history-/a"}`))),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN", `{"referenceValue":"users/u1/histor/zz"}`))),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "GREATER_THAN", `{"referenceValue":"users/u1/history/a/sub/s"}`))),
		// __name__ compared by path when other rows drive: paths elsewhere.
		querytest.SQ(querytest.Where(querytest.FF("__name__", "GREATER_THAN", `{"referenceValue":"users/u1"}`)), querytest.OrderBy("n")),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN", `{"referenceValue":"users/u1"}`)), querytest.OrderBy("n")),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN_OR_EQUAL", `{"referenceValue":"users/u1/history/c/sub/s"}`)), querytest.OrderBy("n")),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "GREATER_THAN", `{"referenceValue":"users/u1/history/c/sub/s"}`)), querytest.OrderBy("n")),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "NOT_EQUAL", `{"referenceValue":"users/u1/history/c/sub/s"}`)), querytest.OrderBy("n")),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "LESS_THAN", `{"referenceValue":"users/u1/history-/a"}`)), querytest.OrderBy("n")),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "IN", querytest.List(querytest.Ref("c"), `{"referenceValue":"users/u1/other/c"}`))), querytest.OrderBy("n")),
		querytest.SQ(querytest.Where(querytest.FF("__name__", "NOT_IN", querytest.List(querytest.Ref("c"), `{"referenceValue":"users/u1/other/c"}`))), querytest.OrderBy("n")),
		querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", true, querytest.One, `{"referenceValue":"users/u1/history/a/sub/s"}`)),
		querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("endAt", false, querytest.One, `{"referenceValue":"users/u1/history/a/sub/s"}`)),
		querytest.SQ(querytest.OrderBy("n", "__name__ DESCENDING")),
		querytest.SQ(querytest.OrderBy("n DESCENDING"), `"limit":2`, `"limitToLast":true`),
		querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("startAt", false, querytest.One, querytest.Ref("a"))),
		querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("endAt", true, querytest.One, querytest.Ref("i"))),
		querytest.SQ(querytest.OrderBy("n DESCENDING"), querytest.Cursor("startAt", false, querytest.Two)),
		querytest.SQ(querytest.OrderBy("n"), querytest.Cursor("endAt", true, querytest.Two), `"limit":2`, `"limitToLast":true`),
		querytest.SQ(querytest.Cursor("startAt", false, `{"stringValue":"c"}`)),
		querytest.SQ(querytest.Where(querytest.FF("n", "NOT_EQUAL", querytest.One)), querytest.Cursor("startAt", false, querytest.NaN), `"limit":3`),
		querytest.SQ(querytest.Where(querytest.FF("other", "GREATER_THAN", querytest.Null)), querytest.OrderBy("tags")),
	}
	// Without h, whose array in an array Firestore cannot store.
	docs := slices.DeleteFunc(querytest.RefDocs(t), func(d value.Doc) bool { return d.Path.ID() == "h" })
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		s := openStore(t, st, testWriteRate())
		replaceDocs(t, s, nil, docs)
		for _, text := range queries {
			q, err := query.Parse("users/u1", []byte(text))
			if err != nil {
				t.Fatalf("ParseQuery(%s): %v", text, err)
			}
			got, err := s.Query(context.Background(), "u1", q)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if diff := diffDocs(query.Run(q, docs), got); diff != "" {
				t.Errorf("%s:\n%s", text, diff)
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
		build := func(tool string, limit int, order bool) query.Query {
			q := historyQuery(t)
			q.Where[0].Value, q.Limit = valuetest.Str(tool), limit
			if !order {
				q.OrderBy = nil
			}
			return q
		}
		tests := []struct {
			name string
			q    query.Query
			want int // the driver
		}{
			{"rare value, limit", build("flip", 5, true), 0},
			{"common value, limit", build("speed", 5, true), -1},
			{"common value, no limit", build("speed", 0, true), 0},
			{"common value, by name", build("speed", 5, false), 0},
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
			if diff := diffDocs(query.Run(tt.q, docs), docsGot); diff != "" {
				t.Errorf("%s:\n%s", tt.name, diff)
			}
		}
	})
}

// TestQueryUnindexedValue: a value too long to index is invisible to
// filters and orderings on its field path (Query's one exception to Run),
// not to the rest of the document.
func TestQueryUnindexedValue(t *testing.T) {
	long := valuetest.Str(strings.Repeat("x", MaxIndexEntryBytes))
	docs := []value.Doc{
		{Path: valuetest.MustPath(t, "users/u1/history/a"), Fields: value.Fields{"s": long, "n": valuetest.Int(1)}},
		{Path: valuetest.MustPath(t, "users/u1/history/b"), Fields: value.Fields{"s": valuetest.Str("short"), "n": valuetest.Int(2)}},
	}
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		t.Parallel()
		s := openStore(t, st, testWriteRate())
		replaceDocs(t, s, nil, docs)
		parent := mustCollection(t, "users/u1/history")
		for _, tt := range []struct {
			name string
			q    query.Query
			want string
		}{
			{"ordered by it", query.Query{Parent: parent, OrderBy: []query.Order{{Field: value.FieldPath{"s"}}}}, "b"},
			{"equal to it", query.Query{Parent: parent, Where: []query.Filter{{Field: value.FieldPath{"s"}, Op: query.OpEqual, Value: long}}}, ""},
			{"another field", query.Query{Parent: parent, OrderBy: []query.Order{{Field: value.FieldPath{"n"}}}}, "a b"},
		} {
			got, err := s.Query(context.Background(), "u1", tt.q)
			if err != nil || querytest.IDs(got) != tt.want {
				t.Errorf("%s: got %q, %v; want %q", tt.name, querytest.IDs(got), err, tt.want)
			}
		}
	})
}
