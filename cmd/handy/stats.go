package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"handy/internal/analytics"
	"handy/internal/config"
	"handy/internal/site"
)

// runStats is `handy stats [-from D] [-to D] [flags]`: the page-view report, read from the
// database the flags name (the operator on the machine needs no token), printed as tables.
func runStats(args []string, getenv func(string) string, now func() time.Time, stdout, stderr io.Writer) int {
	fromParam, toParam, rest, err := splitRangeFlags(args)
	if err != nil {
		fmt.Fprintln(stderr, "handy stats:", err)
		return 2
	}
	cfg, err := config.Load(rest, getenv)
	if errors.Is(err, flag.ErrHelp) {
		if err := config.Usage(stdout); err != nil {
			return 1
		}
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "handy stats:", err)
		return 2
	}
	from, to, err := analytics.ParseRange(fromParam, toParam, now())
	if err != nil {
		var rangeErr *analytics.RangeError
		if errors.As(err, &rangeErr) {
			fmt.Fprintln(stderr, "handy stats: -"+rangeErr.Param+":", rangeErr.Message)
		} else {
			fmt.Fprintln(stderr, "handy stats:", err)
		}
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := openStore(ctx, cfg, cfg.Logger(stderr))
	if err != nil {
		fmt.Fprintln(stderr, "handy stats:", err)
		return 1
	}
	defer st.Close()
	report, err := analytics.NewReporter(st, site.Default(), now).Report(ctx, from, to)
	if err != nil {
		fmt.Fprintln(stderr, "handy stats:", err)
		return 1
	}
	if err := printReport(stdout, report); err != nil {
		fmt.Fprintln(stderr, "handy stats:", err)
		return 1
	}
	return 0
}

// splitRangeFlags takes -from and -to (either form: -from D, -from=D, with one or two dashes)
// out of args, leaving the server's flags to config.Load.
func splitRangeFlags(args []string) (from, to string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(args[i], "-"), "-"), "=")
		if !strings.HasPrefix(args[i], "-") || name != "from" && name != "to" {
			rest = append(rest, args[i])
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return "", "", nil, fmt.Errorf("flag needs an argument: -%s", name)
			}
			i++
			value = args[i]
		}
		if name == "from" {
			from = value
		} else {
			to = value
		}
	}
	return from, to, rest, nil
}

// printReport writes the report as aligned tables: the summary, the daily series, each top
// list.
func printReport(w io.Writer, r *analytics.Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	t := r.Totals
	fmt.Fprintf(tw, "Page views from %s to %s (UTC)\n\n", r.From, r.To)
	fmt.Fprintf(tw, "Visitors in the last %d minutes:\t%d\n", r.Realtime.Minutes, r.Realtime.Visitors)
	fmt.Fprintf(tw, "Views:\t%d\n", t.Views)
	fmt.Fprintf(tw, "Visitors (each day's, summed):\t%d\n", t.Visitors)
	fmt.Fprintf(tw, "Bot views dropped:\t%d (%.1f%% of all views)\n", t.Bots, 100*t.BotShare)
	fmt.Fprint(tw, "\nDAY\tVIEWS\tVISITORS\tBOTS\n")
	for _, d := range r.Days {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\n", d.Day, d.Views, d.Visitors, d.Bots)
	}
	fmt.Fprint(tw, "\nPAGE\tVIEWS\n")
	for _, p := range r.Pages {
		fmt.Fprintf(tw, "%s\t%d\n", p.Path, p.Views)
	}
	for _, list := range []struct {
		title  string
		counts []analytics.Count
	}{{"LOCALE", r.Locales}, {"BROWSER LANGUAGE", r.Langs}, {"REFERRER", r.Refs}, {"SCREEN", r.Screens}} {
		fmt.Fprintf(tw, "\n%s\tVIEWS\n", list.title)
		for _, c := range list.counts {
			fmt.Fprintf(tw, "%s\t%d\n", c.Name, c.Views)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
