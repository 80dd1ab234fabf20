#!/usr/bin/env bash
# scripts/bench/08-pageviews/bench-pageviews.sh [HANDY]: `make bench`'s eighth part, the page-view ingest
# (POST /api/v1/pageviews), on SQLite and, when HANDY_TEST_DATABASE_URL is set (scripts/bench/bench.sh
# runs this under scripts/tools/with-postgres.sh), on PostgreSQL. For each engine:
#   1. starts HANDY (./handy) on a free loopback port, a temporary data directory,
#      -client-ip-header X-Forwarded-For, and runs
#      wrk -t2 -c32 --latency -d$BENCH_PAGEVIEWS_DURATION -s pageviews.lua
#      (valid beacons over every page and locale, a new address per request, a few browsers)
#      paced at about 5,000/s (PAGEVIEWS_DELAY_MS: each connection pauses between answer and next
#      beacon), the goal's figures: req/s, p99, errors; then the same unpaced for
#      BENCH_PAGEVIEWS_MAX_DURATION, handy's capacity; then stops handy with SIGTERM and compares
#      the views stored with the 204s wrk counted;
#   2. go run ./scripts/bench/08-pageviews/benchpageviews sigterm: 2,000 beacons/s, SIGTERM after 5 s, every 204
#      counted exactly; the views stored must equal them.
# One line per figure: the goal and met or MISSED. It fails only when something breaks.
# Env: BENCH_PAGEVIEWS_DURATION (60s; the paced run), BENCH_PAGEVIEWS_MAX_DURATION (20s; 0 skips
#      the unpaced run), BENCH_PAGEVIEWS_CONNECTIONS (32), BENCH_PAGEVIEWS_DELAY_MS (connections ×
#      1000 / 5500, whole ms), BENCH_PAGEVIEWS_RATE (2000, the SIGTERM run's).
set -euo pipefail

part=scripts/bench/08-pageviews
cd "$(dirname "$0")/../../.."
# shellcheck source=scripts/bench/lib.sh
. scripts/bench/lib.sh
handy_bin=${1:-${HANDY:-./handy}}
duration=${BENCH_PAGEVIEWS_DURATION:-60s}
conns=${BENCH_PAGEVIEWS_CONNECTIONS:-32}
rate=${BENCH_PAGEVIEWS_RATE:-2000}
max_duration=${BENCH_PAGEVIEWS_MAX_DURATION:-20s}
# The pause per connection that makes a little over 5,000 beacons/s: 32 connections, 5 ms each
# (wrk's timers fire up to about a millisecond late, and each answer takes its time too).
delay=${BENCH_PAGEVIEWS_DELAY_MS:-$(( conns * 1000 / 5500 ))}

bench_name=bench-pageviews
command -v wrk >/dev/null 2>&1 || die "wrk is missing (scripts/tools/ensure-tools.sh bench installs it)"
[ -x "$handy_bin" ] || die "$handy_bin is missing: run make build"

bench_init bench-pageviews

go build -o "$tmp/benchpageviews" "./$part/benchpageviews"

# A wrk latency ("812.00us", "3.21ms", "1.02s") in milliseconds.
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'; }

# wrk_run ENGINE [DATABASE_URL]
wrk_run() {
  local engine=$1 dburl=${2:-} url dir args out
  args=(-client-ip-header X-Forwarded-For -log-level warn)
  [ -z "$dburl" ] || args+=(-database-url "$dburl")
  start_handy "$engine" http "${args[@]}"
  wait_ready "$engine"
  url=${h_url[$engine]}
  dir="$tmp/data-$engine"
  local sum_args=(-data-dir "$dir")
  [ -z "$dburl" ] || sum_args=(-database-url "$dburl")
  local before
  before=$("$tmp/benchpageviews" sum "${sum_args[@]}")
  # One beacon by hand: it must be a 204 (wrk would count a 4xx only as "non-2xx").
  local code
  code=$(curl -s -o "$tmp/one.body" -w '%{http_code}' -X POST "$url/api/v1/pageviews" \
    -H 'Content-Type: text/plain;charset=UTF-8' -H 'Accept-Language: de-DE,de;q=0.9' \
    -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0' \
    -H 'X-Forwarded-For: 192.0.2.1' --data '{"p":"/de/flip-image","l":"de","bl":"de-DE","r":"","s":"desktop"}')
  [ "$code" = 204 ] || { cat "$tmp/one.body" >&2; die "a valid beacon got $code, not 204"; }

  # 1. The goal: about 5,000 beacons/s (each connection pausing $delay ms between answer and
  # next beacon) for $duration; 2. the capacity: as fast as handy answers, for $max_duration.
  verdict() { if [ "$1" = 1 ]; then echo met; else echo MISSED; fi; }
  local acked=0 runs=0
  local label d env
  for label in paced max; do
    if [ "$label" = paced ]; then d=$duration; env=(PAGEVIEWS_DELAY_MS="$delay"); else d=$max_duration; env=(); fi
    [ "$d" != 0 ] && [ "$d" != 0s ] || continue
    echo "bench: $engine: ${env[*]:+${env[*]} }wrk -t2 -c$conns --latency -d$d -s $part/pageviews.lua $url/api/v1/pageviews"
    local secs=${d%s}
    [[ "$secs" =~ ^[0-9]+$ ]] || secs=60
    out=$(env "${env[@]}" timeout $((secs + 60)) wrk -t2 -c"$conns" --latency -d"$d" -s "$part/pageviews.lua" "$url/api/v1/pageviews") \
      || { echo "$out" >&2; die "wrk failed"; }
    local rps p99 total non2xx sockerr
    rps=$(awk '/^Requests\/sec:/ {printf "%.0f", $2}' <<<"$out")
    p99=$(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")
    total=$(awk '/requests in/ {print $1}' <<<"$out")
    non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' <<<"$out"); non2xx=${non2xx:-0}
    sockerr=$(awk '/Socket errors/ {gsub(",", ""); print $4 + $6 + $8 + $10}' <<<"$out"); sockerr=${sockerr:-0}
    acked=$((acked + total - non2xx))
    runs=$((runs + 1))
    local lat="p50 $(to_ms "$(awk '$1 == "50%" {print $2}' <<<"$out")") ms, p90 $(to_ms "$(awk '$1 == "90%" {print $2}' <<<"$out")") ms, max $(to_ms "$(awk '$1 == "Latency" {print $4}' <<<"$out")") ms"
    if [ "$label" = paced ]; then
      printf '  %-10s page views/s sustained over %s: %s (goal ≥ 5,000): %s\n' "$engine" "$d" "$rps" \
        "$(verdict "$(awk -v r="$rps" 'BEGIN {print (r >= 5000)}')")"
      printf '  %-10s p99 latency at that rate: %s ms (goal ≤ 10 ms; %s): %s\n' "$engine" "$p99" "$lat" \
        "$(verdict "$(awk -v p="$p99" 'BEGIN {print (p <= 10)}')")"
      printf '  %-10s errors: %s non-2xx, %s socket errors (goal 0): %s\n' "$engine" "$non2xx" "$sockerr" \
        "$(verdict "$(( non2xx + sockerr == 0 ))")"
    else
      printf '  %-10s capacity, unpaced, over %s: %s page views/s, p99 %s ms (%s), %s non-2xx, %s socket errors\n' \
        "$engine" "$d" "$rps" "$p99" "$lat" "$non2xx" "$sockerr"
    fi
  done
  if ! stop_handy "$engine"; then cat "$tmp/handy-$engine.log" >&2; die "handy did not exit cleanly on SIGTERM"; fi
  local after stored
  after=$("$tmp/benchpageviews" sum "${sum_args[@]}")
  stored=$((after - before - 1)) # the beacon sent by hand
  # wrk stops with up to one request per connection in flight: handy may have taken those
  # (stored) without wrk counting their 204s.
  local slack=$((runs * conns))
  printf '  %-10s stored after SIGTERM: %s views for %s 204s counted by wrk (goal: equal, up to %s in flight when wrk stopped): %s\n' \
    "$engine" "$stored" "$acked" "$slack" "$(verdict "$(( stored >= acked && stored - acked <= slack ))")"
  if grep -q . "$tmp/handy-$engine.log"; then
    echo "  handy's log (warnings and errors), last lines:"
    tail -n 5 "$tmp/handy-$engine.log" | cut -c1-200 | sed 's/^/    /'
  fi
}

sigterm_run() {
  local engine=$1 dburl=${2:-}
  echo "bench: $engine: go run ./$part/benchpageviews sigterm -handy $handy_bin -rate $rate -sigterm-after 5s"
  local args=(sigterm -handy "$handy_bin" -rate "$rate" -sigterm-after 5s)
  [ -z "$dburl" ] || args+=(-database-url "$dburl")
  timeout 300 "$tmp/benchpageviews" "${args[@]}" | sed "s/^no page view lost/  $engine: no page view lost/"
}

wrk_run sqlite
sigterm_run sqlite
if [ -n "${HANDY_TEST_DATABASE_URL:-}" ]; then
  wrk_run postgresql "$HANDY_TEST_DATABASE_URL"
  sigterm_run postgresql "$HANDY_TEST_DATABASE_URL"
else
  echo "bench: no PostgreSQL (HANDY_TEST_DATABASE_URL unset): the PostgreSQL figures are skipped"
fi
