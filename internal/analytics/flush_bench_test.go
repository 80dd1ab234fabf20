package analytics

import (
	"fmt"
	"io"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"handy/internal/site"
	"handy/internal/store/storetest"
)

// BenchmarkFlush writes flushes of 1,000 views, each from a new visitor, over many combinations
// of page, language, referrer and screen (about 600 distinct rows a flush): the writer's
// transaction, triggers included, on each engine. The views are recorded with the timer
// stopped.
func BenchmarkFlush(b *testing.B) {
	paths := [][2]string{{"/", "en"}, {"/de/faq", "de"}, {"/jp/flip-image", "jp"}, {"/area-calculator", "en"},
		{"/es/speed-calculator", "es"}, {"/flip-image", "en"}, {"/ko", "ko"}}
	langs := []string{"en-US", "de-DE", "ja", "en-GB", "es-ES", "ko-KR", "fr-FR", "it-IT", "pt-BR", ""}
	refs := []string{"", "", "", "www.google.com", "duckduckgo.com", "news.example", "blog.example", "forum.example"}
	screens := []string{ScreenPhone, ScreenDesktop, ScreenTablet}
	for _, e := range storetest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			st := e.Open(b)
			in, err := New(b.Context(), st, site.Default(), testOrigin, WithFlush(time.Hour, 1<<30),
				WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { in.Close(b.Context()) })
			n := 0
			var w writerState
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				for range 1000 {
					p := paths[n%len(paths)]
					body := fmt.Sprintf(`{"p":%q,"l":%q,"bl":%q,"r":%q,"s":%q}`, p[0], p[1], langs[(n/7)%len(langs)], refs[(n/11)%len(refs)], screens[(n/3)%len(screens)])
					if err := in.Record(Hit{Body: []byte(body), Header: browserHeader(browserAgents[0]), Address: fmt.Sprintf("10.%d.%d.%d", n>>16&255, n>>8&255, n&255)}); err != nil {
						b.Fatal(err)
					}
					n++
				}
				b.StartTimer()
				before := cpuTime()
				if _, err := in.flushOnce(&w); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - before
			}
			// The wall time is mostly the commit's fsync on SQLite, and waits on PostgreSQL's
			// processes; this process's CPU time is the writer's own work (and SQLite's).
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
