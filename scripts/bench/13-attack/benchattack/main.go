// Command benchattack measures what one hostile free account (or a few) does to a running handy
// for everyone else (issue 27). scripts/bench/13-attack/part.sh starts a fresh handy on SQLite
// per attack and runs, against it:
//
//	benchattack run -url URL -pid PID -attack X -out results.jsonl
//
// which signs up a light user, starts the attacker (this binary's `attack` command, a process
// of its own so that its memory and goroutines are not the measurer's), waits until it has set
// up (stored its large documents), then for -duration samples handy's memory, probes /healthz
// and commits the light user's small history entries, and afterwards reads back every write
// the light user and the attacker got a 200 for. It appends one JSON line of figures to -out;
//
//	benchattack report results.jsonl
//
// prints them as one table with each goal met or missed. See docs/performance.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// attack is one attack: what it is, its accounts and large documents, and the attack itself.
type attack struct {
	name, what string
	setup      func(a *attacker, ctx context.Context) error
	run        func(a *attacker, ctx context.Context)
}

var attacks = []attack{
	{"none", "reference: no attack", nil, nil},
	{"a", "16 parallel queries of 32 × 1 MiB documents (8 read, 4 slowly, 4 never)", (*attacker).setupBig, (*attacker).attackQuery},
	{"b", "16 parallel exports of that account (8 read, 4 slowly, 4 never)", (*attacker).setupBig, (*attacker).attackExport},
	{"c", "48 listens never read, a 3 MiB version a second per account", (*attacker).setupListens, (*attacker).attackListens},
	{"d", "48 parallel 4 MiB commit bodies (4 accounts; valid JSON and garbage)", (*attacker).setupBodies, (*attacker).attackBodies},
	{"e", "one-write commits of a 120,000-element array (4 at once, shrunk on 400)", (*attacker).setupOne, (*attacker).attackHeavy},
	{"f", "page views as fast as 8 connections go, random referrers", nil, (*attacker).attackViews},
	{"g", "slowloris: 16 slow 4 MiB commits (8 accounts), 32 slow sign-ups, 64 slow headers", (*attacker).setupSlow, (*attacker).attackSlow},
}

func findAttack(name string) (attack, error) {
	for _, at := range attacks {
		if at.name == name {
			return at, nil
		}
	}
	return attack{}, fmt.Errorf("unknown attack %q", name)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: benchattack run|attack|report [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "run":
		err = cmdRun(os.Args[2:])
	case "attack":
		err = cmdAttack(os.Args[2:])
	case "report":
		err = cmdReport(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (run, attack, report)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchattack:", err)
		os.Exit(1)
	}
}

// attackResult is what the attacker process prints as its last line.
type attackResult struct {
	Outcomes map[string]int `json:"outcomes"`
	Acked    []ack          `json:"acked"`
	Note     string         `json:"note"`
}

// cmdAttack is the attacker: it sets up, prints "ready", attacks for -duration, then prints its
// attackResult as one JSON line.
func cmdAttack(args []string) error {
	fs := flag.NewFlagSet("attack", flag.ExitOnError)
	base := fs.String("url", "", "handy's origin")
	name := fs.String("attack", "", "the attack: a to g")
	duration := fs.Duration("duration", 30*time.Second, "how long to attack")
	_ = fs.Parse(args)
	at, err := findAttack(*name)
	if err != nil || at.run == nil {
		return errors.Join(err, fmt.Errorf("no attack %q", *name))
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	a := newAttacker(*base)
	a.blob = bigString(blobSize)
	if at.setup != nil {
		if err := at.setup(a, ctx); err != nil {
			return fmt.Errorf("attack %s: set-up: %w", at.name, err)
		}
	}
	fmt.Println("ready")
	actx, cancel := context.WithTimeout(ctx, *duration)
	defer cancel()
	at.run(a, actx)
	res := attackResult{Outcomes: a.out.snapshot(), Acked: a.acked.list, Note: a.note}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// describe is the attacker's outcomes in one line, most frequent first.
func describe(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range m {
		l = append(l, kv{k, v})
	}
	for i := range l { // few entries: a plain insertion sort, most first, then by name
		for j := i; j > 0 && (l[j].v > l[j-1].v || l[j].v == l[j-1].v && l[j].k < l[j-1].k); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
	var parts []string
	for _, e := range l {
		parts = append(parts, fmt.Sprintf("%s: %d", e.k, e.v))
	}
	return strings.Join(parts, ", ")
}
