package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// The goals of issue 27, under each attack.
const (
	goalRSSMB      = 300
	goalHealthzP99 = 50
	goalLightP95   = 100
)

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "**MISS**"
}

// cmdReport prints the results of a run as one Markdown table (what docs/performance.md
// keeps), then each attack's outcomes and notes, and the goals met.
func cmdReport(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: benchattack report RESULTS.jsonl")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	var rows []result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return fmt.Errorf("%s: %w", args[0], err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Printf("| attack | peak RSS MB (≤ %d) | `/healthz` p99 ms (≤ %d) | light commit p50 / p95 ms (p95 ≤ %d) | acknowledged missing (0) | DB growth in the window MB | attacker's outcomes |\n",
		goalRSSMB, goalHealthzP99, goalLightP95)
	fmt.Println("|---|---:|---:|---:|---:|---:|---|")
	misses := 0
	for _, r := range rows {
		rssOK := r.PeakRSSMB <= goalRSSMB && !r.Died
		hOK := r.HealthzP99 >= 0 && r.HealthzP99 <= goalHealthzP99 && r.HealthzFailed == 0
		lOK := r.LightP95 >= 0 && r.LightP95 <= goalLightP95 && r.LightFailed == 0
		mOK := r.Missing == 0
		for _, ok := range []bool{rssOK, hOK, lOK, mOK} {
			if !ok {
				misses++
			}
		}
		rss := fmt.Sprintf("%.0f %s", r.PeakRSSMB, verdict(rssOK))
		if r.MaxRSSMB < r.PeakRSSMB-10 { // the peak came before the window (the attacker's set-up)
			rss += fmt.Sprintf(" (%.0f in the window)", r.MaxRSSMB)
		}
		if r.Died {
			rss = fmt.Sprintf("≥ %.0f, handy died %s", r.PeakRSSMB, verdict(false))
		}
		health := fmt.Sprintf("%.1f %s", r.HealthzP99, verdict(hOK))
		if r.HealthzFailed > 0 {
			health += fmt.Sprintf(" (%d of %d failed)", r.HealthzFailed, r.HealthzN)
		}
		light := fmt.Sprintf("%.1f / %.1f %s", r.LightP50, r.LightP95, verdict(lOK))
		if r.Light429 > 0 || r.LightFailed > 0 {
			light += fmt.Sprintf(" (%d commits, %d 429s waited out, %d failed)", r.LightN, r.Light429, r.LightFailed)
		}
		missing := fmt.Sprintf("%d of %d %s", r.Missing, r.Acked, verdict(mOK))
		if r.Missing < 0 {
			missing = "not checked " + verdict(false)
		}
		outcomes := describe(r.Outcomes)
		if outcomes == "" {
			outcomes = "–"
		}
		fmt.Printf("| %s: %s | %s | %s | %s | %s | %.0f | %s |\n", r.Attack, r.What, rss, health, light, missing, r.DBGrowthMB, outcomes)
	}
	for _, r := range rows {
		if r.Note != "" {
			fmt.Printf("\n- %s: %s", r.Attack, r.Note)
		}
	}
	fmt.Printf("\n\nbenchattack: %d rows, %d goals missed of %d\n", len(rows), misses, 4*len(rows))
	return nil
}
