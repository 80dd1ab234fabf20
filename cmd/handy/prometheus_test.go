package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"handy/internal/handytest"
)

// monitoringYAML returns the YAML blocks of docs/operations.md's Monitoring section: the scrape
// configuration (prometheus.yml) and the alerts (handy-alerts.yml), as an operator copies them.
func monitoringYAML(t *testing.T) (config, alerts string) {
	t.Helper()
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Monitoring\n")
	if !ok {
		t.Fatal("docs/operations.md has no Monitoring section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(section, -1) {
		switch {
		case strings.HasPrefix(m[1], "scrape_configs:"):
			config = m[1]
		case strings.HasPrefix(m[1], "groups:"):
			alerts = m[1]
		}
	}
	if config == "" || alerts == "" {
		t.Fatal("the Monitoring section lacks its prometheus.yml (scrape_configs:) or its alerts (groups:)")
	}
	return config, alerts
}

// prometheusScrapes has Prometheus itself (Debian's) load the documented configuration and
// alerts, pointed at p's metrics at metricsAddr, scrape it and evaluate the alerts: the target
// is up, the build's series arrive, and every rule evaluates without error, none firing.
func prometheusScrapes(t *testing.T, p *handytest.Handy, metricsAddr string) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install Debian's prometheus package (scripts/tools/ensure-tools.sh does)")
	}
	prometheus, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("prometheus not found: install Debian's prometheus package (scripts/tools/ensure-tools.sh does)")
	}
	config, alerts := monitoringYAML(t)
	dir := t.TempDir()
	// The documented files, with this test's target and a 1 s pace instead of the default minute.
	config = "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n" + strings.Replace(config, `"127.0.0.1:9180"`, `"`+metricsAddr+`"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "handy-alerts.yml"), []byte(alerts), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "check", "config", filepath.Join(dir, "prometheus.yml")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "SUCCESS: 8 rules found") {
		t.Fatalf("promtool check config: %v\n%s", err, out)
	}

	addr, err := handytest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	var log handytest.Log
	cmd := exec.Command(prometheus, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})

	query := func(path string, v any) error {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: %s", path, res.Status)
		}
		return json.NewDecoder(res.Body).Decode(v)
	}
	type vector struct {
		Data struct {
			Result []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	type rules struct {
		Data struct {
			Groups []struct {
				Rules []struct {
					Name   string `json:"name"`
					Health string `json:"health"`
					State  string `json:"state"`
					Error  string `json:"lastError"`
				} `json:"rules"`
			} `json:"groups"`
		} `json:"data"`
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var up, build vector
		var r rules
		errUp := query("/api/v1/query?query="+url.QueryEscape(`up{job="handy"}`), &up)
		errBuild := query("/api/v1/query?query="+url.QueryEscape(`handy_build_info{job="handy"}`), &build)
		errRules := query("/api/v1/rules", &r)
		healthy, evaluated := 0, 0
		var problems []string
		for _, g := range r.Data.Groups {
			for _, rule := range g.Rules {
				evaluated++
				switch {
				case rule.Health == "ok" && rule.State == "inactive":
					healthy++
				case rule.Health != "unknown":
					problems = append(problems, fmt.Sprintf("%s: %s, %s %s", rule.Name, rule.Health, rule.State, rule.Error))
				}
			}
		}
		if len(problems) > 0 {
			t.Fatalf("alert rules in trouble: %v", problems)
		}
		if errUp == nil && errBuild == nil && errRules == nil && len(up.Data.Result) == 1 && up.Data.Result[0].Value[1] == "1" &&
			len(build.Data.Result) == 1 && build.Data.Result[0].Metric["version"] == linkedVersion && evaluated == 8 && healthy == 8 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s: up %+v (%v), handy_build_info %+v (%v), %d of %d rules evaluated and quiet (%v); Prometheus:\n%s",
				up, errUp, build, errBuild, healthy, evaluated, errRules, log.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}
