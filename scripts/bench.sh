#!/usr/bin/env bash
# `make bench`: how fast handy serves a prerendered page next to nginx serving the same bytes,
# then Lighthouse over the pages. See docs/performance.md.
#
# 1. starts ./handy on a free loopback port and fetches /de/area-calculator as gzip;
# 2. starts nginx (scripts/nginx-bench.conf) serving those exact bytes with gzip_static;
# 3. alternates the same wrk command against each (warm-up, then handy, nginx, handy, nginx, ...)
#    and reports the median req/s of each and their ratio: on a 2-core machine shared with wrk,
#    absolute figures move by up to 25 % between runs, the ratio far less;
# 4. runs scripts/lighthouse.mjs against handy;
# 5. runs scripts/bench-flip.mjs: the image flipper on a 24-megapixel JPEG against decode + encode.
# 6. the document store: group commit and query benchmarks on both engines, then 1,000 listens
#    held against a running handy (scripts/benchlisten).
# 7. runs scripts/bench-history.mjs: the history's sync in Chromium, against a handy of its own
#    (a save on screen, durable in IndexedDB, in another tab, on another device, and 1,000 saves
#    queued offline going out).
# 8. the page-view ingest (scripts/bench-pageviews.sh, on SQLite and, under
#    scripts/with-postgres.sh, PostgreSQL): wrk with scripts/pageviews.lua posting valid beacons
#    for BENCH_PAGEVIEWS_DURATION (req/s, p99, errors, views stored = 204s after SIGTERM), then
#    scripts/benchpageviews: SIGTERM under 2,000 beacons/s, stored views = acknowledged beacons.
# 9. the page-view report (scripts/benchstats, on SQLite and, under scripts/with-postgres.sh,
#    PostgreSQL): a year of rollups seeded into a fresh database (366 days, 30,000 views a day
#    over every page and locale), then GET /api/v1/stats of the last 30 and 365 days against a
#    handy of its own with an admin token, one request at a time after a warm-up, then from
#    several clients at once: p50, p95, max, and each answer checked.
#
# Env: BENCH_ROUNDS (3), BENCH_DURATION (10s), BENCH_WARMUP (3s), BENCH_LIGHTHOUSE (1; 0 skips it),
#      BENCH_FLIP (1; 0 skips it), BENCH_FLIP_ROUNDS (5),
#      BENCH_DOCSTORE (1; 0 skips it), BENCH_DOCSTORE_COUNT (5),
#      BENCH_HISTORY (1; 0 skips it), BENCH_HISTORY_SAMPLES (100), BENCH_HISTORY_QUEUED (1000),
#      BENCH_HISTORY_RUNS (3),
#      BENCH_PAGEVIEWS (1; 0 skips it), BENCH_PAGEVIEWS_DURATION (60s),
#      BENCH_PAGEVIEWS_CONNECTIONS (32), BENCH_PAGEVIEWS_RATE (2000),
#      BENCH_STATS (1; 0 skips it), BENCH_STATS_N30 (200), BENCH_STATS_N365 (50),
#      BENCH_STATS_CLIENTS (4; 0 skips the concurrent runs),
#      HANDY (./handy), CHROME_PATH (for Lighthouse).
# Every process it starts is stopped on exit; it listens on 127.0.0.1 only.
set -euo pipefail

cd "$(dirname "$0")/.."

rounds=${BENCH_ROUNDS:-3}
duration=${BENCH_DURATION:-10s}
warmup=${BENCH_WARMUP:-3s}
run_lighthouse=${BENCH_LIGHTHOUSE:-1}
run_flip=${BENCH_FLIP:-1}
handy_bin=${HANDY:-./handy}
page=/de/area-calculator
goal=0.90

die() { echo "bench: $*" >&2; exit 1; }
for tool in curl wrk nginx gzip node; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (make bench installs it via scripts/ensure-tools.sh bench)"
done
[ -x "$handy_bin" ] || die "$handy_bin is missing: run make build"

tmp=$(mktemp -d /tmp/handy-bench.XXXXXX)
handy_pid=""
nginx_pid=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$nginx_pid" ]; then
    if [ -s "$tmp/nginx/nginx.pid" ]; then kill -QUIT "$(cat "$tmp/nginx/nginx.pid")" 2>/dev/null || true; fi
    # The master (nginx_pid) exits once its workers have; make sure it does.
    for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
    kill -TERM "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  if [ -n "$handy_pid" ]; then
    kill -TERM "$handy_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$handy_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$handy_pid" 2>/dev/null || true
    wait "$handy_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A loopback port nothing listens on (the server started on it fails fast if it was taken since).
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  die "no free loopback port found"
}

# Waits until URL answers (any HTTP status) while PID lives. handy compresses every file at
# start-up (a few seconds on 2 cores).
wait_up() {
  local url=$1 pid=$2 name=$3 log=$4
  for _ in $(seq 300); do
    if ! kill -0 "$pid" 2>/dev/null; then
      cat "$log" >&2 || true
      die "$name exited at start-up"
    fi
    if curl -s -o /dev/null --max-time 1 "$url"; then return 0; fi
    sleep 0.1
  done
  cat "$log" >&2 || true
  die "$name did not answer $url within 30 s"
}

# CPU busy % over one second: wrk and both servers share the cores, so anything else running
# (tests, builds) moves the figures, and not equally for each server.
cpu_busy() {
  local a b
  read -r _ a1 a2 a3 a4 a5 a6 a7 _ </proc/stat
  sleep 1
  read -r _ b1 b2 b3 b4 b5 b6 b7 _ </proc/stat
  a=$((a1 + a2 + a3 + a5 + a6 + a7)); b=$((b1 + b2 + b3 + b5 + b6 + b7))
  local total=$(((b + b4) - (a + a4)))
  [ "$total" -gt 0 ] && echo $((100 * (b - a) / total)) || echo 0
}
busy_before=$(cpu_busy)

echo "bench: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'),"\
  "$(nginx -v 2>&1 | sed 's/.*version: //'), $(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}')"

if [ "$busy_before" -gt 20 ]; then
  echo "bench: WARNING: the CPU was ${busy_before} % busy before the benchmark began (other processes):" \
    "the figures below are unreliable; rerun on an idle machine"
fi

# --- 1. handy --------------------------------------------------------------------------------
handy_port=$(free_port)
handy_url="http://127.0.0.1:$handy_port"
"$handy_bin" -addr "127.0.0.1:$handy_port" -public-url "$handy_url" >"$tmp/handy.log" 2>&1 &
handy_pid=$!
wait_up "$handy_url$page" "$handy_pid" handy "$tmp/handy.log"
echo "bench: handy (pid $handy_pid) on $handy_url"

# The page exactly as handy sends it to a gzip client: status, headers, raw gzip body.
curl -sI -H 'Accept-Encoding: gzip' "$handy_url$page" | tr -d '\r' >"$tmp/handy.head"
status=$(head -n1 "$tmp/handy.head" | awk '{print $2}')
[ "$status" = 200 ] || { cat "$tmp/handy.head" >&2; die "HEAD $page on handy answered $status, not 200"; }
curl -s -D "$tmp/handy.get-head" -o "$tmp/page.gz" -H 'Accept-Encoding: gzip' -w '%{http_code}' "$handy_url$page" >"$tmp/handy.code"
[ "$(cat "$tmp/handy.code")" = 200 ] || die "GET $page on handy answered $(cat "$tmp/handy.code"), not 200"
tr -d '\r' <"$tmp/handy.get-head" >"$tmp/handy.get"
grep -qi '^content-encoding: gzip$' "$tmp/handy.get" || { cat "$tmp/handy.get" >&2; die "handy did not answer $page with Content-Encoding: gzip"; }
gzip -t "$tmp/page.gz" 2>/dev/null || die "handy's gzip body for $page is not valid gzip"
gzip -dc "$tmp/page.gz" >"$tmp/page.html"
echo "bench: $page from handy: 200, gzip, $(wc -c <"$tmp/page.gz") bytes ($(wc -c <"$tmp/page.html") uncompressed)"

# --- 2. nginx, serving the same bytes ---------------------------------------------------------
nginx_port=$(free_port)
while [ "$nginx_port" = "$handy_port" ]; do nginx_port=$(free_port); done
nginx_url="http://127.0.0.1:$nginx_port"
ngx="$tmp/nginx"
mkdir -p "$ngx/html/de" "$ngx/tmp"
cp "$tmp/page.gz" "$ngx/html/de/area-calculator.gz"
cp "$tmp/page.html" "$ngx/html/de/area-calculator"
sed "s/@PORT@/$nginx_port/g" scripts/nginx-bench.conf >"$ngx/nginx.conf"
# handy's other headers, so both responses carry about the same header bytes. Those nginx makes
# itself (or must not repeat) are left out; a value nginx cannot quote safely is skipped.
: >"$ngx/headers.conf"
while IFS= read -r line; do
  name=${line%%:*}
  value=${line#*: }
  case "${name,,}" in
    ''|http/*|date|content-length|content-encoding|content-type|vary|connection|keep-alive|server|transfer-encoding|accept-ranges|last-modified) continue ;;
  esac
  case "$value" in *'$'*|*'\'*) echo "bench: note: not copying header $name to nginx (has \$ or \\)"; continue ;; esac
  printf 'add_header %s "%s";\n' "$name" "${value//\"/\\\"}" >>"$ngx/headers.conf"
done <"$tmp/handy.get"
# nginx runs as root only to drop to nobody: let its workers read the files.
chmod -R a+rX "$tmp"
nginx -t -q -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" 2>"$tmp/nginx-t.log" || { cat "$tmp/nginx-t.log" >&2; die "nginx config test failed"; }
nginx -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!
wait_up "$nginx_url$page" "$nginx_pid" nginx "$ngx/error.log"
for _ in $(seq 50); do [ -s "$ngx/nginx.pid" ] && break; sleep 0.1; done
echo "bench: nginx (pid $(cat "$ngx/nginx.pid" 2>/dev/null || echo "$nginx_pid")) on $nginx_url"

status=$(curl -sI -H 'Accept-Encoding: gzip' "$nginx_url$page" | head -n1 | awk '{print $2}')
[ "$status" = 200 ] || die "HEAD $page on nginx answered $status, not 200"
curl -s -D "$tmp/nginx.get-head" -o "$tmp/nginx.gz" -H 'Accept-Encoding: gzip' -w '%{http_code}' "$nginx_url$page" >"$tmp/nginx.code"
[ "$(cat "$tmp/nginx.code")" = 200 ] || die "GET $page on nginx answered $(cat "$tmp/nginx.code"), not 200"
tr -d '\r' <"$tmp/nginx.get-head" >"$tmp/nginx.get"
cmp -s "$tmp/page.gz" "$tmp/nginx.gz" || die "nginx's body differs from handy's"
grep -qi '^content-encoding: gzip$' "$tmp/nginx.get" || die "nginx did not answer with Content-Encoding: gzip"
echo "bench: both answer 200 with the identical $(wc -c <"$tmp/page.gz")-byte gzip body;" \
  "header bytes: handy $(wc -c <"$tmp/handy.get-head"), nginx $(wc -c <"$tmp/nginx.get-head")"
for s in handy nginx; do
  echo "  $s headers: $(grep -v '^HTTP/\|^$' "$tmp/$s.get" | cut -d: -f1 | paste -sd, -)"
done

# --- 3. alternating wrk runs ------------------------------------------------------------------
wrk_cmd=(wrk -t2 -c64 -H 'Accept-Encoding: gzip')  # + -dDURATION URL
secs=${duration%s}
[[ "$secs" =~ ^[0-9]+$ ]] || secs=60

# Runs wrk against URL, prints a one-line summary, appends req/s to FILE; warns on errors.
bench_run() {
  local label=$1 url=$2 file=$3 d=$4 out rps lat err non2xx
  out=$(timeout $((secs + 30)) "${wrk_cmd[@]}" -d"$d" "$url") || die "wrk failed against $url"
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  lat=$(awk '$1 == "Latency" {print $2}' <<<"$out")
  [ -n "$rps" ] || { echo "$out" >&2; die "could not read Requests/sec from wrk"; }
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' <<<"$out")
  err=$(grep -E '^ *Socket errors' <<<"$out" || true)
  printf '  %-6s %-5s %12s req/s   latency avg %s\n' "$label" "$d" "$rps" "$lat"
  [ -z "$non2xx" ] || echo "  WARNING: $label: $non2xx non-2xx/3xx responses"
  [ -z "$err" ] || echo "  WARNING: $label:$err"
  [ -z "$file" ] || echo "$rps" >>"$file"
}

median() { sort -g "$1" | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

echo
echo "bench: wrk -t2 -c64 -H 'Accept-Encoding: gzip' -d$duration URL — warm-up $warmup each, then $rounds alternating rounds of $duration"
bench_run handy "$handy_url$page" "" "$warmup"
bench_run nginx "$nginx_url$page" "" "$warmup"
: >"$tmp/handy.rps"
: >"$tmp/nginx.rps"
for i in $(seq "$rounds"); do
  bench_run handy "$handy_url$page" "$tmp/handy.rps" "$duration"
  bench_run nginx "$nginx_url$page" "$tmp/nginx.rps" "$duration"
  h=$(sed -n "${i}p" "$tmp/handy.rps")
  n=$(sed -n "${i}p" "$tmp/nginx.rps")
  awk -v i="$i" -v h="$h" -v n="$n" 'BEGIN {printf "  round %d: handy/nginx %.2f\n", i, h / n}'
done
hm=$(median "$tmp/handy.rps")
nm=$(median "$tmp/nginx.rps")
echo
awk -v h="$hm" -v n="$nm" 'BEGIN {printf "median req/s: handy %.0f, nginx %.0f\n", h, n}'
awk -v h="$hm" -v n="$nm" -v g="$goal" 'BEGIN {printf "handy/nginx req/s ratio: %.2f (goal ≥ %.2f)\n", h / n, g}'
if grep -q . "$tmp/handy.log"; then
  lines=$(wc -l <"$tmp/handy.log")
  echo "bench: handy wrote $lines log lines; last ones:"
  tail -n 3 "$tmp/handy.log" | cut -c1-200 | sed 's/^/  /'
fi

# --- 4. Lighthouse against handy --------------------------------------------------------------
if [ "$run_lighthouse" != 0 ]; then
  echo
  echo "bench: node scripts/lighthouse.mjs $handy_url"
  # About 14 runs of 8-12 s each; bounded so a hung Chrome cannot hold the benchmark.
  timeout 240 node scripts/lighthouse.mjs "$handy_url"
fi

# --- 5. The image flipper in Chromium --------------------------------------------------------
if [ "$run_flip" != 0 ]; then
  echo
  echo "bench: node scripts/bench-flip.mjs $handy_url"
  timeout 300 node scripts/bench-flip.mjs "$handy_url"
fi

# --- 6. The document store --------------------------------------------------------------------
# Group commit (64 concurrent clients, one write each, synchronous=FULL on SQLite) and a history
# query, on SQLite and PostgreSQL (a throwaway cluster); then 1,000 long-poll listens held open
# against a running handy: its RSS, and how long until one commit per user has answered all.
# Env: BENCH_DOCSTORE (1; 0 skips it), BENCH_DOCSTORE_COUNT (5 runs of each benchmark).
if [ "${BENCH_DOCSTORE:-1}" != 0 ]; then
  echo
  echo "bench: go test -bench 'CommitParallel|QueryHistory' ./internal/docstore (median of ${BENCH_DOCSTORE_COUNT:-5})"
  scripts/with-postgres.sh go test -run '^$' -bench 'BenchmarkCommitParallel|BenchmarkQueryHistory' \
    -count "${BENCH_DOCSTORE_COUNT:-5}" ./internal/docstore >"$tmp/docstore.txt"
  # One line per benchmark and metric: the median over the runs.
  awk '/^Benchmark/ { name = $1; sub(/-[0-9]+$/, "", name); for (i = 3; i < NF; i += 2) print name, $(i + 1), $i }' \
    "$tmp/docstore.txt" | sort -k1,2 -k3g |
    awk '{ key = $1 " " $2 } key != last && last != "" { flush() } { v[++n] = $3; last = key } END { flush() }
      function flush(  m) { m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        split(last, k, " "); printf "  %-48s %12.1f %s\n", k[1], m, k[2]; n = 0 }'
  echo
  echo "bench: go run ./scripts/benchlisten -handy $handy_bin"
  timeout 300 go run ./scripts/benchlisten -handy "$handy_bin"
fi

# --- 7. The history's sync in Chromium ------------------------------------------------------
# Its own handy (a fresh database: the accounts it makes meet no others), on a free port.
if [ "${BENCH_HISTORY:-1}" != 0 ]; then
  echo
  echo "bench: node scripts/bench-history.mjs $handy_bin"
  # About three minutes on an idle 2-core machine; bounded so a hung Chromium cannot hold it.
  timeout 600 node scripts/bench-history.mjs "$handy_bin"
fi

# --- 8. The page-view ingest ----------------------------------------------------------------
# Its own handy per engine (a fresh database, -client-ip-header X-Forwarded-For), on free ports;
# PostgreSQL is the throwaway cluster of scripts/with-postgres.sh (fsync=off), when its binaries
# are installed (scripts/ensure-tools.sh installs them).
if [ "${BENCH_PAGEVIEWS:-1}" != 0 ]; then
  echo
  echo "bench: scripts/bench-pageviews.sh $handy_bin"
  if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    scripts/with-postgres.sh scripts/bench-pageviews.sh "$handy_bin"
  else
    scripts/bench-pageviews.sh "$handy_bin"
  fi
fi

# --- 9. The page-view report ----------------------------------------------------------------
# Per engine, a fresh database seeded with a year of page views (about 6,000 rows of
# analytics_views a day, whose triggers fill the rollups the report reads), then a handy of its
# own with an admin token answering GET /api/v1/stats: the latency of the /admin dashboard's
# data. PostgreSQL is the throwaway cluster of scripts/with-postgres.sh (fsync=off; a database
# of its own in it), when its binaries are installed.
if [ "${BENCH_STATS:-1}" != 0 ]; then
  echo
  go build -o "$tmp/benchstats" ./scripts/benchstats
  stats_args=(run -handy "$handy_bin" -n30 "${BENCH_STATS_N30:-200}" -n365 "${BENCH_STATS_N365:-50}"
    -clients "${BENCH_STATS_CLIENTS:-4}")
  echo "bench: scripts/benchstats ${stats_args[*]}"
  # Seeding takes 30-90 s per engine on this machine, the requests about a minute.
  if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    timeout 1200 scripts/with-postgres.sh "$tmp/benchstats" "${stats_args[@]}"
  else
    timeout 1200 "$tmp/benchstats" "${stats_args[@]}"
  fi
fi
