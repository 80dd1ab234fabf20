package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"handy/internal/analytics"
	"handy/internal/site"
	"handy/internal/store"
)

// weighted picks items in proportion to their weights.
type weighted[T any] struct {
	items []T
	cum   []float64 // running sums of the weights
}

func (w *weighted[T]) add(item T, weight float64) {
	total := 0.0
	if n := len(w.cum); n > 0 {
		total = w.cum[n-1]
	}
	w.items = append(w.items, item)
	w.cum = append(w.cum, total+weight)
}

func (w *weighted[T]) pick(r *rand.Rand) T {
	x := r.Float64() * w.cum[len(w.cum)-1]
	return w.items[min(sort.SearchFloat64s(w.cum, x), len(w.items)-1)]
}

// Page and locale shares: the tools draw most views, English most visitors.
var (
	pageWeights   = map[string]float64{"flip-image": 30, "area-calculator": 22, "speed-calculator": 18, "index": 16, "faq": 7, "privacy-policy": 4, "terms-conditions": 3}
	localeWeights = map[string]float64{"en": 38, "de": 11, "es": 10, "pt": 9, "fr": 9, "jp": 9, "zh": 8, "ko": 6}
)

// localeLangs are the browser languages of each locale's visitors: a few regional tags each.
var localeLangs = map[string][]struct {
	tag    string
	weight float64
}{
	"en": {{"en-US", 60}, {"en-GB", 15}, {"en-IN", 9}, {"en-CA", 6}, {"en", 10}},
	"zh": {{"zh-CN", 78}, {"zh-TW", 14}, {"zh", 8}},
	"pt": {{"pt-BR", 84}, {"pt-PT", 16}},
	"de": {{"de-DE", 70}, {"de", 12}, {"de-AT", 10}, {"de-CH", 8}},
	"fr": {{"fr-FR", 75}, {"fr-CA", 15}, {"fr", 10}},
	"es": {{"es-ES", 45}, {"es-MX", 25}, {"es-419", 18}, {"es", 12}},
	"jp": {{"ja-JP", 65}, {"ja", 35}},
	"ko": {{"ko-KR", 100}},
}

// tailLangs are languages the site does not offer, whose speakers read it anyway (mostly in
// English): the long tail, each rarer than the one before.
var tailLangs = []string{"it-IT", "nl-NL", "pl-PL", "ru-RU", "tr-TR", "sv-SE", "id-ID", "vi-VN", "uk-UA", "cs-CZ"}

// namedReferrers are the hosts that send most referred views (search engines, assistants,
// social sites); tailReferrers more hosts follow them, each rarer than the one before.
var namedReferrers = []struct {
	host   string
	weight float64
}{
	{"www.google.com", 300}, {"www.bing.com", 60}, {"duckduckgo.com", 40}, {"www.google.de", 40},
	{"www.google.fr", 30}, {"www.google.com.br", 30}, {"www.google.co.jp", 30}, {"chatgpt.com", 30},
	{"www.google.es", 25}, {"search.naver.com", 25}, {"www.reddit.com", 25}, {"www.baidu.com", 20},
	{"www.google.co.kr", 15}, {"search.yahoo.co.jp", 15}, {"www.facebook.com", 12}, {"yandex.ru", 10},
	{"www.ecosia.org", 10}, {"t.co", 10}, {"www.perplexity.ai", 8}, {"github.com", 8},
	{"www.youtube.com", 8}, {"news.ycombinator.com", 6}, {"stackoverflow.com", 6}, {"m.facebook.com", 6},
	{"l.instagram.com", 5},
}

const (
	tailReferrers = 275
	// noReferrer is the share of views without a referrer: typed, bookmarked, the site's own
	// links (client-side navigations send none), and referrers cut by the browser's policy.
	noReferrer = 0.72
	// otherLocaleLang: a visitor reading another locale than their browser's language (an
	// English browser on /de/…); tailLang: a language the site does not offer; undLang: none.
	otherLocaleLang = 0.08
	tailLang        = 0.06
	undLang         = 0.01
)

// model is the traffic the seed draws a day's views from.
type model struct {
	pairs    weighted[[2]string] // page, locale
	langs    map[string]*weighted[string]
	tail     weighted[string]
	refs     weighted[string]
	screens  weighted[string]
	nLangs   int
	nReferer int
}

func newModel(table *site.Table, seed uint64) *model {
	r := rand.New(rand.NewPCG(seed, 0))
	m := &model{langs: make(map[string]*weighted[string])}
	langs := map[string]bool{"und": true}
	for _, p := range table.Pages() {
		for _, l := range table.Locales() {
			// Each pair its own luck (a page translated better, linked from a forum in one
			// language): the shares of page × locale, each moved by up to ±40 %.
			w := pageWeights[p.Name] * localeWeights[l.Code] * (0.6 + 0.8*r.Float64())
			if w == 0 {
				w = 1 // a page or locale added to site.json since: a little traffic
			}
			m.pairs.add([2]string{p.Name, l.Code}, w)
		}
	}
	for code, tags := range localeLangs {
		w := &weighted[string]{}
		for _, t := range tags {
			w.add(t.tag, t.weight)
			langs[t.tag] = true
		}
		m.langs[code] = w
	}
	for i, tag := range tailLangs {
		m.tail.add(tag, 1/float64(i+1))
		langs[tag] = true
	}
	for _, h := range namedReferrers {
		m.refs.add(h.host, h.weight)
	}
	for i := range tailReferrers {
		m.refs.add(fmt.Sprintf("site-%03d.example", i+1), 20/math.Pow(float64(i+1), 0.9))
	}
	m.screens.add(analytics.ScreenPhone, 52)
	m.screens.add(analytics.ScreenDesktop, 40)
	m.screens.add(analytics.ScreenTablet, 8)
	m.nLangs, m.nReferer = len(langs), len(m.refs.items)
	return m
}

// lang is the browser language of a visitor of locale.
func (m *model) lang(r *rand.Rand, locale string) string {
	x := r.Float64()
	switch {
	case x < undLang:
		return "und"
	case x < undLang+tailLang:
		return m.tail.pick(r)
	case x < undLang+tailLang+otherLocaleLang:
		return m.langs["en"].pick(r)
	}
	if w, ok := m.langs[locale]; ok {
		return w.pick(r)
	}
	return "und"
}

// viewCount is one row of analytics_views: a day's views of one page, locale, browser
// language, referrer and screen class.
type viewCount struct {
	day, page, locale, lang, referrer, screen string
	views                                     int64
}

// day draws n views of day d (deterministic for a seed and a day) and adds them up as the ingest
// does: one count per distinct page, locale, language, referrer and screen.
func (m *model) day(seed uint64, d string, n int) []viewCount {
	t, _ := time.Parse(time.DateOnly, d)
	r := rand.New(rand.NewPCG(seed, uint64(t.Unix()/86400)))
	type key struct{ page, locale, lang, ref, screen string }
	counts := make(map[key]int64, n/4)
	for range n {
		pl := m.pairs.pick(r)
		ref := ""
		if r.Float64() >= noReferrer {
			ref = m.refs.pick(r)
		}
		counts[key{pl[0], pl[1], m.lang(r, pl[1]), ref, m.screens.pick(r)}]++
	}
	out := make([]viewCount, 0, len(counts))
	for k, v := range counts {
		out = append(out, viewCount{d, k.page, k.locale, k.lang, k.ref, k.screen, v})
	}
	return out
}

// seedStats is what a seed wrote.
type seedStats struct {
	days, views int64
	rowsPerDay  []int // distinct rows of analytics_views, per day
	langs, refs int   // distinct languages and referrer hosts the model draws from
	took        time.Duration
	first, last string
	viewsPerDay int
}

// seed writes days days of rollups ending today (UTC), viewsPerDay views each, one transaction
// per day, into st (migrated, without analytics yet).
func seed(ctx context.Context, st *store.Store, table *site.Table, today time.Time, days, viewsPerDay int, rngSeed uint64) (*seedStats, error) {
	var existing int64
	if err := st.QueryRow(ctx, "SELECT COUNT(*) FROM analytics_days").Scan(&existing); err != nil {
		return nil, fmt.Errorf("seed: count analytics_days: %w", err)
	}
	if existing > 0 {
		return nil, errors.New("seed: the database already holds page-view counts; seed an empty one")
	}
	m := newModel(table, rngSeed)
	s := &seedStats{langs: m.nLangs, refs: m.nReferer, viewsPerDay: viewsPerDay}
	start := time.Now()
	for i := days - 1; i >= 0; i-- {
		d := today.AddDate(0, 0, -i).Format(time.DateOnly)
		counts := m.day(rngSeed, d, viewsPerDay)
		// A visitor views 1.5–1.7 pages a day; bots are a fifth to a third of the views.
		r := rand.New(rand.NewPCG(rngSeed^0x5eed, uint64(i)))
		visitors := int64(float64(viewsPerDay) / (1.5 + 0.2*r.Float64()))
		bots := int64(float64(viewsPerDay) * (0.2 + 0.13*r.Float64()))
		err := st.InTx(ctx, func(tx *store.Tx) error {
			if err := insertViews(ctx, tx, counts); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "INSERT INTO analytics_days (day, visitors, bots) VALUES (?, ?, ?)", d, visitors, bots); err != nil {
				return fmt.Errorf("add the day: %w", err)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("seed %s: %w", d, err)
		}
		s.days++
		s.views += int64(viewsPerDay)
		s.rowsPerDay = append(s.rowsPerDay, len(counts))
		if s.first == "" {
			s.first = d
		}
		s.last = d
	}
	s.took = time.Since(start)
	if st.Engine() == store.Postgres {
		// A year of data has been analysed and vacuumed by autovacuum many times over; a
		// database filled a second ago has not, and its planner would guess.
		if _, err := st.Exec(ctx, "VACUUM ANALYZE"); err != nil {
			return nil, fmt.Errorf("seed: vacuum analyze: %w", err)
		}
	}
	return s, nil
}

// rowsPerInsert bounds a multi-row INSERT as the writer does: 500 rows of 7 values.
const rowsPerInsert = 500

// insertViews writes a day's rows into analytics_views with multi-row INSERTs; the triggers of
// migration 0007 add them to the per-dimension rollups, as they do the writer's.
func insertViews(ctx context.Context, tx *store.Tx, counts []viewCount) error {
	for chunk := range slices.Chunk(counts, rowsPerInsert) {
		args := make([]any, 0, 7*len(chunk))
		for _, c := range chunk {
			args = append(args, c.day, c.page, c.locale, c.lang, c.referrer, c.screen, c.views)
		}
		values := strings.Repeat("(?, ?, ?, ?, ?, ?, ?), ", len(chunk)-1) + "(?, ?, ?, ?, ?, ?, ?)"
		if _, err := tx.Exec(ctx, "INSERT INTO analytics_views (day, page, locale, lang, referrer, screen, views) VALUES "+values, args...); err != nil {
			return fmt.Errorf("add views: %w", err)
		}
	}
	return nil
}

// rowsSummary is "min 3,812, median 4,021, max 4,230".
func (s *seedStats) rowsSummary() string {
	r := slices.Clone(s.rowsPerDay)
	slices.Sort(r)
	total := 0
	for _, n := range r {
		total += n
	}
	return fmt.Sprintf("%s rows in all; a day: min %s, median %s, max %s", thousands(int64(total)),
		thousands(int64(r[0])), thousands(int64(r[len(r)/2])), thousands(int64(r[len(r)-1])))
}

// thousands writes n with commas: 10,980,000.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}
