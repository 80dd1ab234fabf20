#!/usr/bin/env bash
# `make bench`: how fast handy serves a prerendered page next to a bare net/http server, Caddy and
# nginx serving the same bytes, over plain HTTP and over TLS; Lighthouse over the pages; then
# handy under a mixed load. See docs/performance.md.
#
# 1. makes a self-signed ECDSA P-256 certificate for 127.0.0.1 (openssl) and starts ./handy
#    twice on free loopback ports, over plain HTTP and over HTTPS (-tls-cert), each on a fresh
#    data dir (and, unless BENCH_LOAD=0, a third for part 10); waits for each to log that its
#    pages are compressed at the best levels (wait_compressed: a WARNING after 60 s), then
#    fetches /de/area-calculator as gzip from both (the page names its origin, so the two differ
#    in a few bytes: each mode's servers serve that mode's bytes);
# 2. starts a bare net/http server (scripts/benchbare), Caddy (scripts/caddy-bench.Caddyfile,
#    file_server with precompressed gzip) and nginx (scripts/nginx-bench.conf, gzip_static),
#    each on a plain and a TLS port, serving those exact bytes with handy's other headers, and
#    checks every one (200, the identical body, about the same header bytes);
# 3. per mode (plain HTTP, then TLS), alternates the same wrk command against the four (a warm-up
#    each, then handy, bare, caddy, nginx, handy, ...) and reports the median req/s of each and
#    the ratios handy/bare (goal ≥ 0.95), handy/caddy (goal ≥ 2) and handy/nginx (goal ≥ 0.90 over
#    plain HTTP): on a 2-core machine shared with wrk, absolute figures move by up to 25 % between
#    runs, the ratios far less;
# 4. runs scripts/lighthouse.mjs against handy: all 56 pages, three runs one after another (about
#    25 minutes), and the lowest score per category and longest tool-page TBT of each run;
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
# 10. the load test, against the third handy (HTTPS, its own fresh database): one account signed
#    up, then for BENCH_LOAD_DURATION at once: wrk over every page and payload of web/dist
#    (scripts/load-pages.lua, 192 connections), wrk over the account's API reads
#    (scripts/load-api.lua, 64 connections) and a stream of wrong sign-ins to that account
#    (scripts/load-signin.lua, 2 connections, paced): req/s, p50/p99/max and every status per
#    stream, the page p99 against its goal (≤ 50 ms), handy's peak RSS; ERROR lines for any
#    status other than 2xx/304 (pages, API) or 401/429 (wrong sign-ins) and any socket error.
# 11. start-up (scripts/benchstart): exec to /jp/faq served in brotli, BENCH_START_RUNS times on a
#    database made by a first start, alternating with a bare net/http server's exec to its first
#    answer; every page checked compressed at that moment: medians and the ratio (goal ≤ 0.5 s).
# 12. the lossless JPEG transform in Node (scripts/bench-lossless.mjs): a quarter turn of a 24 MP
#    photo against a horizontal flip, alternated, by phase (goal: the turn within 1.1× the flip).
#
# Env: BENCH_ROUNDS (3), BENCH_DURATION (10s), BENCH_WARMUP (3s), BENCH_MODES ("plain tls"),
#      BENCH_LIGHTHOUSE (1; 0 skips it), BENCH_LIGHTHOUSE_RUNS (3),
#      BENCH_FLIP (1; 0 skips it), BENCH_FLIP_ROUNDS (5),
#      BENCH_DOCSTORE (1; 0 skips it), BENCH_DOCSTORE_COUNT (5),
#      BENCH_HISTORY (1; 0 skips it), BENCH_HISTORY_SAMPLES (100), BENCH_HISTORY_QUEUED (1000),
#      BENCH_HISTORY_RUNS (3),
#      BENCH_PAGEVIEWS (1; 0 skips it), BENCH_PAGEVIEWS_DURATION (60s),
#      BENCH_PAGEVIEWS_CONNECTIONS (32), BENCH_PAGEVIEWS_RATE (2000),
#      BENCH_STATS (1; 0 skips it), BENCH_STATS_N30 (200), BENCH_STATS_N365 (50),
#      BENCH_STATS_CLIENTS (4; 0 skips the concurrent runs),
#      BENCH_LOAD (1; 0 skips it), BENCH_LOAD_DURATION (60s), BENCH_LOAD_PAGE_CONNECTIONS (192),
#      BENCH_LOAD_API_CONNECTIONS (64), BENCH_LOAD_SIGNIN_CONNECTIONS (2),
#      BENCH_LOAD_SIGNIN_DELAY_MS (10: each sign-in connection's pause between answer and next),
#      BENCH_START (1; 0 skips it), BENCH_START_RUNS (15),
#      BENCH_LOSSLESS (1; 0 skips it), BENCH_LOSSLESS_ROUNDS (its own default),
#      HANDY (./handy), CHROME_PATH (for Lighthouse).
# Every process it starts is stopped on exit; it listens on 127.0.0.1 only.
set -euo pipefail

cd "$(dirname "$0")/.."

rounds=${BENCH_ROUNDS:-3}
duration=${BENCH_DURATION:-10s}
warmup=${BENCH_WARMUP:-3s}
modes=${BENCH_MODES:-plain tls}
run_lighthouse=${BENCH_LIGHTHOUSE:-1}
run_flip=${BENCH_FLIP:-1}
run_load=${BENCH_LOAD:-1}
handy_bin=${HANDY:-./handy}
page=/de/area-calculator
goal=0.90       # handy/nginx, plain HTTP
goal_bare=0.95  # handy/bare net/http
goal_caddy=2    # handy/Caddy

die() { echo "bench: $*" >&2; exit 1; }
for tool in curl wrk nginx caddy openssl go gzip node; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (make bench installs it via scripts/ensure-tools.sh bench)"
done
[ -x "$handy_bin" ] || die "$handy_bin is missing: run make build"
for mode in $modes; do
  case $mode in plain|tls) ;; *) die "BENCH_MODES: unknown mode $mode (plain, tls)" ;; esac
done

tmp=$(mktemp -d /tmp/handy-bench.XXXXXX)
declare -A h_pid=() h_url=() h_started=()  # by name: plain, tls, load
nginx_pid=""
caddy_pid=""
bare_pid=""
load_pids=()
# Stops PID: SIGTERM, then SIGKILL after 5 s.
stop_pid() {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  local pid
  for pid in "${load_pids[@]}"; do stop_pid "$pid"; done
  if [ -n "$nginx_pid" ]; then
    if [ -s "$tmp/nginx/nginx.pid" ]; then kill -QUIT "$(cat "$tmp/nginx/nginx.pid")" 2>/dev/null || true; fi
    # The master (nginx_pid) exits once its workers have; make sure it does.
    for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
    stop_pid "$nginx_pid"
  fi
  stop_pid "$caddy_pid"
  stop_pid "$bare_pid"
  for pid in "${h_pid[@]}"; do stop_pid "$pid"; done
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# free_port VAR: a loopback port nothing listens on and not handed out before, into VAR (the
# server started on it fails fast if it was taken since).
used_ports=" "
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 40000))
    case "$used_ports" in *" $p "*) continue ;; esac
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      used_ports+="$p "
      printf -v "$1" '%s' "$p"
      return 0
    fi
  done
  die "no free loopback port found"
}

# curl as the checks use it: HTTP/1.1 (what wrk speaks) and the benchmark's own certificate.
curl_() { curl -s --http1.1 --cacert "$tmp/cert.pem" "$@"; }

# Waits until URL answers (any HTTP status) while PID lives. handy compresses every file at
# start-up (a few seconds on 2 cores, more with several started at once).
wait_up() {
  local url=$1 pid=$2 name=$3 log=$4
  for _ in $(seq 900); do
    if ! kill -0 "$pid" 2>/dev/null; then
      cat "$log" >&2 || true
      die "$name exited at start-up"
    fi
    if curl_ -o /dev/null --max-time 1 "$url"; then return 0; fi
    sleep 0.1
  done
  cat "$log" >&2 || true
  die "$name did not answer $url within 90 s"
}

# wait_compressed LOG [STARTED]: waits until handy's LOG says its pages are compressed at the
# best levels (handy answers at once with quickly compressed pages and recompresses them in the
# background), at most 60 s after STARTED ($SECONDS when it was started; default now): the bytes
# measured must be the final ones. Without the line, a WARNING, and the benchmark goes on.
compressed_line='pages compressed at the best levels'
wait_compressed() {
  local log=$1 started=${2:-$SECONDS}
  while [ $((SECONDS - started)) -lt 60 ]; do
    if grep -qF "$compressed_line" "$log" 2>/dev/null; then
      echo "bench: $(basename "$log" .log): pages compressed at the best levels, $((SECONDS - started)) s after start"
      return 0
    fi
    sleep 0.2
  done
  echo "bench: WARNING: $(basename "$log" .log) did not log \"$compressed_line\" within 60 s of its start:" \
    "measuring the bytes it serves now, which may not be the final ones"
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
  "$(nginx -v 2>&1 | sed 's/.*version: //'), Caddy $(caddy version 2>/dev/null | awk '{print $1}'),"\
  "$(go version | awk '{print $3}'), $(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}')"

if [ "$busy_before" -gt 20 ]; then
  echo "bench: WARNING: the CPU was ${busy_before} % busy before the benchmark began (other processes):" \
    "the figures below are unreliable; rerun on an idle machine"
fi

# --- 1. handy, over plain HTTP and over TLS ---------------------------------------------------
# One self-signed certificate for every server (the same key type for all: ECDSA P-256).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>"$tmp/openssl.log" || { cat "$tmp/openssl.log" >&2; die "openssl could not make the certificate"; }

# start_handy NAME SCHEME: ./handy on a free port, a fresh data dir, TLS on for https.
start_handy() {
  local name=$1 scheme=$2 port url args
  free_port port
  url="$scheme://127.0.0.1:$port"
  args=(-addr "127.0.0.1:$port" -public-url "$url" -data-dir "$tmp/data-$name")
  [ "$scheme" = http ] || args+=(-tls-cert "$tmp/cert.pem" -tls-key "$tmp/key.pem")
  "$handy_bin" "${args[@]}" >"$tmp/handy-$name.log" 2>&1 &
  h_pid[$name]=$!
  h_url[$name]=$url
  h_started[$name]=$SECONDS
}
# Started together, so that their start-up compressions overlap and wait_compressed's 60 s run
# once; the load test's handy (part 10) is started here for the same reason and stays idle.
start_handy plain http
start_handy tls https
[ "$run_load" = 0 ] || start_handy load https
for name in "${!h_pid[@]}"; do
  wait_up "${h_url[$name]}$page" "${h_pid[$name]}" "handy ($name)" "$tmp/handy-$name.log"
done
for name in plain tls load; do
  [ -n "${h_pid[$name]:-}" ] || continue
  wait_compressed "$tmp/handy-$name.log" "${h_started[$name]}"
  echo "bench: handy (pid ${h_pid[$name]}) on ${h_url[$name]}"
done
handy_url=${h_url[plain]}  # parts 4 and 5

# fetch NAME URL: the page exactly as NAME sends it to a gzip client (status, headers, raw gzip
# body) into $tmp/NAME.get (headers), $tmp/NAME.gz (body); checks 200 (HEAD and GET) and gzip.
fetch() {
  local name=$1 url=$2 status
  status=$(curl_ -I -H 'Accept-Encoding: gzip' "$url" | head -n1 | awk '{print $2}')
  [ "$status" = 200 ] || die "HEAD $page on $name answered $status, not 200"
  curl_ -D "$tmp/$name.get-head" -o "$tmp/$name.gz" -H 'Accept-Encoding: gzip' -w '%{http_code}' "$url" >"$tmp/$name.code"
  [ "$(cat "$tmp/$name.code")" = 200 ] || die "GET $page on $name answered $(cat "$tmp/$name.code"), not 200"
  tr -d '\r' <"$tmp/$name.get-head" >"$tmp/$name.get"
  grep -qi '^content-encoding: gzip$' "$tmp/$name.get" || { cat "$tmp/$name.get" >&2; die "$name did not answer $page with Content-Encoding: gzip"; }
}
# $tmp/page-MODE.gz and .html: what the other servers serve in each mode.
for mode in plain tls; do
  fetch "handy-$mode" "${h_url[$mode]}$page"
  cp "$tmp/handy-$mode.gz" "$tmp/page-$mode.gz"
  gzip -t "$tmp/page-$mode.gz" 2>/dev/null || die "handy's gzip body for $page ($mode) is not valid gzip"
  gzip -dc "$tmp/page-$mode.gz" >"$tmp/page-$mode.html"
  echo "bench: $page from handy ($mode): 200, gzip, $(wc -c <"$tmp/page-$mode.gz") bytes ($(wc -c <"$tmp/page-$mode.html") uncompressed)"
done

# --- 2. bare net/http, Caddy and nginx, serving the same bytes --------------------------------
# copy_headers HEAD KIND OUT: handy's other headers (from the response head HEAD), so that every
# server sends about the same header bytes, as nginx add_header lines or a Caddy header block.
# Those the server makes itself (or must not repeat) are left out; a value it cannot quote
# safely is skipped, with a note.
copy_headers() {
  local head=$1 kind=$2 out=$3 line name value
  : >"$out"
  # Caddy: deferred, so that handy's ETag and Content-Type win over file_server's; the headers
  # Caddy adds and handy does not send are removed.
  [ "$kind" = nginx ] || printf 'header {\n\tdefer\n\t-Server\n\t-Last-Modified\n\t-Accept-Ranges\n' >>"$out"
  while IFS= read -r line; do
    name=${line%%:*}
    value=${line#*: }
    case "${name,,}" in
      ''|http/*|date|content-length|content-encoding|vary|connection|keep-alive|server|transfer-encoding|accept-ranges|last-modified) continue ;;
      content-type) [ "$kind" = caddy ] || continue ;;
    esac
    if [ "$kind" = nginx ]; then
      case "$value" in *'$'*|*\\*) echo "bench: note: not copying header $name to nginx (has \$ or \\)"; continue ;; esac
      printf 'add_header %s "%s";\n' "$name" "${value//\"/\\\"}" >>"$out"
    else
      case "$value" in *'{'*|*'}'*|*\\*) echo "bench: note: not copying header $name to Caddy (has {, } or \\)"; continue ;; esac
      printf '\t%s "%s"\n' "$name" "${value//\"/\\\"}" >>"$out"
    fi
  done <"$head"
  [ "$kind" = nginx ] || echo '}' >>"$out"
}

declare -A plain_url=() tls_url=()
plain_url[handy]=$handy_url
tls_url[handy]=${h_url[tls]}

# The bare net/http server.
p1="" p2=""
go build -o "$tmp/benchbare" ./scripts/benchbare
free_port p1; free_port p2
plain_url[bare]="http://127.0.0.1:$p1"
tls_url[bare]="https://127.0.0.1:$p2"
"$tmp/benchbare" -path "$page" -addr "127.0.0.1:$p1" \
  -gzip "$tmp/page-plain.gz" -plain "$tmp/page-plain.html" -headers "$tmp/handy-plain.get" \
  -tls-addr "127.0.0.1:$p2" -tls-cert "$tmp/cert.pem" -tls-key "$tmp/key.pem" \
  -tls-gzip "$tmp/page-tls.gz" -tls-plain "$tmp/page-tls.html" -tls-headers "$tmp/handy-tls.get" \
  >"$tmp/bare.log" 2>&1 &
bare_pid=$!

# The page files of each mode under PREFIX/html and PREFIX/html-tls.
place_pages() {
  mkdir -p "$1/html/de" "$1/html-tls/de"
  cp "$tmp/page-plain.gz" "$1/html/de/area-calculator.gz"
  cp "$tmp/page-plain.html" "$1/html/de/area-calculator"
  cp "$tmp/page-tls.gz" "$1/html-tls/de/area-calculator.gz"
  cp "$tmp/page-tls.html" "$1/html-tls/de/area-calculator"
}

# Caddy.
cdy="$tmp/caddy"
mkdir -p "$cdy/home"
place_pages "$cdy"
copy_headers "$tmp/handy-plain.get" caddy "$cdy/headers.caddy"
copy_headers "$tmp/handy-tls.get" caddy "$cdy/headers-tls.caddy"
free_port p1; free_port p2
plain_url[caddy]="http://127.0.0.1:$p1"
tls_url[caddy]="https://127.0.0.1:$p2"
sed -e "s|@DIR@|$cdy|g" -e "s/@TLS_PORT@/$p2/g" -e "s/@PORT@/$p1/g" \
  -e "s|@CERT@|$tmp/cert.pem|g" -e "s|@KEY@|$tmp/key.pem|g" scripts/caddy-bench.Caddyfile >"$cdy/Caddyfile"
# Its storage and config directories in the temp dir, not the user's.
HOME="$cdy/home" XDG_DATA_HOME="$cdy/home" XDG_CONFIG_HOME="$cdy/home" \
  caddy run --config "$cdy/Caddyfile" --adapter caddyfile >"$tmp/caddy.log" 2>&1 &
caddy_pid=$!

# nginx.
ngx="$tmp/nginx"
mkdir -p "$ngx/tmp"
place_pages "$ngx"
copy_headers "$tmp/handy-plain.get" nginx "$ngx/headers.conf"
copy_headers "$tmp/handy-tls.get" nginx "$ngx/headers-tls.conf"
free_port p1; free_port p2
plain_url[nginx]="http://127.0.0.1:$p1"
tls_url[nginx]="https://127.0.0.1:$p2"
sed -e "s/@TLS_PORT@/$p2/g" -e "s/@PORT@/$p1/g" -e "s|@CERT@|$tmp/cert.pem|g" -e "s|@KEY@|$tmp/key.pem|g" \
  scripts/nginx-bench.conf >"$ngx/nginx.conf"
# nginx runs as root only to drop to nobody: let its workers read the files.
chmod -R a+rX "$tmp"
nginx -t -q -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" 2>"$tmp/nginx-t.log" || { cat "$tmp/nginx-t.log" >&2; die "nginx config test failed"; }
nginx -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" >"$tmp/nginx.log" 2>&1 &
nginx_pid=$!

wait_up "${plain_url[bare]}$page" "$bare_pid" "bare net/http" "$tmp/bare.log"
wait_up "${plain_url[caddy]}$page" "$caddy_pid" Caddy "$tmp/caddy.log"
wait_up "${plain_url[nginx]}$page" "$nginx_pid" nginx "$ngx/error.log"
for _ in $(seq 50); do [ -s "$ngx/nginx.pid" ] && break; sleep 0.1; done
echo "bench: bare net/http (pid $bare_pid) on ${plain_url[bare]} and ${tls_url[bare]}"
echo "bench: Caddy (pid $caddy_pid) on ${plain_url[caddy]} and ${tls_url[caddy]}"
echo "bench: nginx (pid $(cat "$ngx/nginx.pid" 2>/dev/null || echo "$nginx_pid")) on ${plain_url[nginx]} and ${tls_url[nginx]}"

servers=(handy bare caddy nginx)
for mode in plain tls; do
  for s in bare caddy nginx; do
    if [ "$mode" = plain ]; then u=${plain_url[$s]}; else u=${tls_url[$s]}; fi
    fetch "$s-$mode" "$u$page"
    cmp -s "$tmp/page-$mode.gz" "$tmp/$s-$mode.gz" || die "$s's body ($mode) differs from handy's"
  done
  hb=$(wc -c <"$tmp/handy-$mode.get-head")
  line="bench: $mode: all four answer 200 with the identical $(wc -c <"$tmp/page-$mode.gz")-byte gzip body; header bytes: handy $hb"
  for s in bare caddy nginx; do
    b=$(wc -c <"$tmp/$s-$mode.get-head")
    line+=", $s $b"
    # Within 10 % of handy's, else the comparison is not of like with like.
    [ $((b * 10)) -ge $((hb * 9)) ] && [ $((b * 10)) -le $((hb * 11)) ] \
      || echo "bench: WARNING: $s sends $b header bytes ($mode) where handy sends $hb"
  done
  echo "$line"
  for s in "${servers[@]}"; do
    echo "  $s headers: $(grep -v '^HTTP/\|^$' "$tmp/$s-$mode.get" | cut -d: -f1 | paste -sd, -)"
  done
done

# --- 3. alternating wrk runs, plain HTTP and TLS ----------------------------------------------
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
# ratio_line LABEL H O GOAL: "LABEL req/s ratio: R (goal ≥ G): met|MISSED"; GOAL "" for none.
ratio_line() {
  awk -v l="$1" -v h="$2" -v o="$3" -v g="$4" 'BEGIN {
    r = h / o
    if (g == "") printf "%s req/s ratio: %.2f\n", l, r
    else printf "%s req/s ratio: %.2f (goal ≥ %.2f): %s\n", l, r, g, (r >= g ? "met" : "MISSED") }'
}

for mode in $modes; do
  declare -A murl=()
  for s in "${servers[@]}"; do
    if [ "$mode" = plain ]; then murl[$s]=${plain_url[$s]}$page; else murl[$s]=${tls_url[$s]}$page; fi
  done
  if [ "$mode" = plain ]; then what="plain HTTP"; else what="TLS"; fi
  echo
  echo "bench: $what: wrk -t2 -c64 -H 'Accept-Encoding: gzip' -d$duration URL — warm-up $warmup each," \
    "then $rounds rounds alternating ${servers[*]}"
  for s in "${servers[@]}"; do bench_run "$s" "${murl[$s]}" "" "$warmup"; : >"$tmp/$mode-$s.rps"; done
  for i in $(seq "$rounds"); do
    for s in "${servers[@]}"; do bench_run "$s" "${murl[$s]}" "$tmp/$mode-$s.rps" "$duration"; done
    awk -v i="$i" -v h="$(sed -n "${i}p" "$tmp/$mode-handy.rps")" -v b="$(sed -n "${i}p" "$tmp/$mode-bare.rps")" \
      -v c="$(sed -n "${i}p" "$tmp/$mode-caddy.rps")" -v n="$(sed -n "${i}p" "$tmp/$mode-nginx.rps")" \
      'BEGIN {printf "  round %d: handy/bare %.2f, handy/caddy %.2f, handy/nginx %.2f\n", i, h / b, h / c, h / n}'
  done
  hm=$(median "$tmp/$mode-handy.rps"); bm=$(median "$tmp/$mode-bare.rps")
  cm=$(median "$tmp/$mode-caddy.rps"); nm=$(median "$tmp/$mode-nginx.rps")
  echo
  awk -v w="$what" -v h="$hm" -v b="$bm" -v c="$cm" -v n="$nm" \
    'BEGIN {printf "%s: median req/s: handy %.0f, bare net/http %.0f, caddy %.0f, nginx %.0f\n", w, h, b, c, n}'
  echo "$what: $(ratio_line handy/bare "$hm" "$bm" "$goal_bare")"
  echo "$what: $(ratio_line handy/caddy "$hm" "$cm" "$goal_caddy")"
  if [ "$mode" = plain ]; then
    echo "$what: $(ratio_line handy/nginx "$hm" "$nm" "$goal")"
  else
    echo "$what: $(ratio_line handy/nginx "$hm" "$nm" "") (the goal of $goal is plain HTTP's)"
  fi
  unset murl
done
for name in plain tls; do
  log="$tmp/handy-$name.log"
  if grep -q . "$log"; then
    echo "bench: handy ($name) wrote $(wc -l <"$log") log lines; last ones:"
    tail -n 3 "$log" | cut -c1-200 | sed 's/^/  /'
  fi
done

# --- 4. Lighthouse against handy --------------------------------------------------------------
if [ "$run_lighthouse" != 0 ]; then
  echo
  echo "bench: node scripts/lighthouse.mjs $handy_url"
  # 56 pages of 8-12 s each per run; bounded so that a hung Chrome cannot hold the benchmark.
  lh_runs=${BENCH_LIGHTHOUSE_RUNS:-3}
  LH_RUNS=$lh_runs timeout $((lh_runs * 56 * 20)) node scripts/lighthouse.mjs "$handy_url"
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

# --- 10. The load test --------------------------------------------------------------------------
# The third handy of part 1 (HTTPS, a fresh database, default flags), idle until now. One account
# signed up, then for BENCH_LOAD_DURATION, at once: pages and payloads, the account's API reads,
# and wrong sign-ins to it, each a wrk of its own so that each has its own latency distribution.
# Every status is counted (scripts/load-status.lua); anything but 2xx/304 (pages, API reads) or
# 401/429 (wrong sign-ins), and any socket error, is an ERROR line.
if [ "$run_load" != 0 ]; then
  load_duration=${BENCH_LOAD_DURATION:-60s}
  load_secs=${load_duration%s}
  [[ "$load_secs" =~ ^[0-9]+$ ]] || load_secs=60
  page_conns=${BENCH_LOAD_PAGE_CONNECTIONS:-192}
  api_conns=${BENCH_LOAD_API_CONNECTIONS:-64}
  signin_conns=${BENCH_LOAD_SIGNIN_CONNECTIONS:-2}
  signin_delay=${BENCH_LOAD_SIGNIN_DELAY_MS:-10}
  lurl=${h_url[load]}
  lpid=${h_pid[load]}
  load_errors=0
  load_error() { echo "bench: ERROR: load: $*"; load_errors=$((load_errors + 1)); }

  echo
  echo "bench: load test against handy (pid $lpid) on $lurl"
  busy=$(cpu_busy)
  if [ "$busy" -gt 20 ]; then
    echo "bench: WARNING: the CPU was ${busy} % busy before the load test began (other processes): its figures are unreliable"
  fi

  # Every prerendered page of web/dist (each */index.html outside _admin and _errors) and its
  # payload, as web/src/lib/site.ts names it: /_payload.json for /, PATH/_payload.json.
  : >"$tmp/load-urls"
  pages=0
  while IFS= read -r f; do
    p=${f#web/dist}; p=${p%index.html}; p=${p%/}
    [ -n "$p" ] || p=/
    pl="${p%/}/_payload.json"
    [ -f "web/dist$pl" ] || die "web/dist has no payload $pl for the page $p"
    printf '%s\n%s\n' "$p" "$pl" >>"$tmp/load-urls"
    pages=$((pages + 1))
  done < <(find web/dist -name index.html -not -path 'web/dist/_*' | sort)
  [ "$pages" -gt 0 ] || die "no prerendered pages in web/dist: run make build"
  # Each must be a 200 as it is (no redirect: wrk would count a 301 as a success).
  sed "s|.*|url = \"$lurl&\"\noutput = /dev/null|" "$tmp/load-urls" >"$tmp/load-curl.conf"
  curl_ -K "$tmp/load-curl.conf" -H 'Accept-Encoding: br, gzip' -w '%{http_code} %{url_effective}\n' >"$tmp/load-check" || true
  bad=$(grep -vc '^200 ' "$tmp/load-check" || true)
  if [ "$bad" != 0 ] || [ "$(wc -l <"$tmp/load-check")" != $((pages * 2)) ]; then
    grep -v '^200 ' "$tmp/load-check" >&2
    die "not every page and payload answers 200"
  fi

  # One account, signed up through the API as the site does it.
  curl_ -c "$tmp/jar" -o /dev/null "$lurl/api/v1/auth/xsrf"
  xsrf=$(awk '$6 == "XSRF-TOKEN" {print $7}' "$tmp/jar")
  [ -n "$xsrf" ] || die "GET /api/v1/auth/xsrf set no XSRF-TOKEN cookie"
  email=load@example.com
  code=$(curl_ -b "$tmp/jar" -H "X-XSRF-TOKEN: $xsrf" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$email\",\"password\":\"correct horse battery staple\",\"displayName\":\"Load\"}" \
    -o "$tmp/signup.json" -w '%{http_code}' "$lurl/api/v1/auth/signup")
  [ "$code" = 201 ] || { cat "$tmp/signup.json" >&2; die "sign-up answered $code, not 201"; }
  token=$(grep -o '"token":"[^"]*"' "$tmp/signup.json" | cut -d'"' -f4)
  uid=$(grep -o '"user":{"id":"[^"]*"' "$tmp/signup.json" | cut -d'"' -f6)
  if [ -z "$token" ] || [ -z "$uid" ]; then cat "$tmp/signup.json" >&2; die "no token or user id in the sign-up's answer"; fi
  for path in /api/v1/auth/me "/api/v1/db/documents/users/$uid"; do
    code=$(curl_ -o "$tmp/read.json" -w '%{http_code}' -H "Authorization: Bearer $token" "$lurl$path")
    [ "$code" = 200 ] || { cat "$tmp/read.json" >&2; die "GET $path answered $code, not 200"; }
  done
  code=$(curl_ -b "$tmp/jar" -H "X-XSRF-TOKEN: $xsrf" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$email\",\"password\":\"not the password\"}" -o "$tmp/signin.json" -w '%{http_code}' "$lurl/api/v1/auth/signin")
  [ "$code" = 401 ] || { cat "$tmp/signin.json" >&2; die "a wrong sign-in answered $code, not 401"; }
  echo "bench: load: $pages pages and their payloads answer 200; account $uid signed up; its reads answer 200, a wrong sign-in 401"

  hwm_before=$(awk '/^VmHWM:/ {print $2}' "/proc/$lpid/status")
  # CPU time, in clock ticks: handy's (utime + stime) and the machine's (all, idle + iowait).
  read -r cpu_all0 cpu_idle0 < <(awk '$1 == "cpu" {print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $5 + $6}' /proc/stat)
  cpu_handy0=$(awk '{print $14 + $15}' "/proc/$lpid/stat")
  log_before=$(wc -l <"$tmp/handy-load.log")
  echo "bench: load: for $load_duration at once:"
  echo "  pages:   LOAD_URLS=... wrk -t2 -c$page_conns --latency -d$load_duration -s scripts/load-pages.lua $lurl"
  echo "  api:     LOAD_TOKEN=... wrk -t1 -c$api_conns --latency -d$load_duration -s scripts/load-api.lua $lurl"
  echo "  signin:  LOAD_DELAY_MS=$signin_delay wrk -t1 -c$signin_conns --latency -d$load_duration -s scripts/load-signin.lua $lurl"
  LOAD_URLS="$tmp/load-urls" timeout $((load_secs + 60)) \
    wrk -t2 -c"$page_conns" --latency -d"$load_duration" -s scripts/load-pages.lua "$lurl" >"$tmp/load-pages.out" 2>&1 &
  load_pids+=($!)
  LOAD_TOKEN="$token" LOAD_UID="$uid" LOAD_XSRF="$xsrf" timeout $((load_secs + 60)) \
    wrk -t1 -c"$api_conns" --latency -d"$load_duration" -s scripts/load-api.lua "$lurl" >"$tmp/load-api.out" 2>&1 &
  load_pids+=($!)
  LOAD_EMAIL="$email" LOAD_XSRF="$xsrf" LOAD_DELAY_MS="$signin_delay" timeout $((load_secs + 60)) \
    wrk -t1 -c"$signin_conns" --latency -d"$load_duration" -s scripts/load-signin.lua "$lurl" >"$tmp/load-signin.out" 2>&1 &
  load_pids+=($!)
  for pid in "${load_pids[@]}"; do wait "$pid" || load_error "a wrk exited with status $?"; done
  load_pids=()
  if ! kill -0 "$lpid" 2>/dev/null; then
    tail -n 20 "$tmp/handy-load.log" >&2
    die "handy (load) exited during the load test"
  fi
  read -r cpu_all1 cpu_idle1 < <(awk '$1 == "cpu" {print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $5 + $6}' /proc/stat)
  cpu_handy1=$(awk '{print $14 + $15}' "/proc/$lpid/stat")
  hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$lpid/status")
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$lpid/status")

  # One line per stream from scripts/load-status.lua's summary; statuses checked against those
  # allowed (pages and API reads: 2xx and 304; wrong sign-ins: 401 and 429).
  page_p99=""
  for stream in pages api signin; do
    out="$tmp/load-$stream.out"
    if ! grep -q '^LOAD requests' "$out"; then
      cat "$out"
      load_error "$stream: wrk printed no summary"
      continue
    fi
    read -r req dur < <(awk '$2 == "requests" {r = $3} $2 == "duration_us" {d = $3} END {print r, d}' "$out")
    read -r p50 p99 max < <(awk '$2 == "latency_us" {printf "%.2f %.2f %.2f\n", $3 / 1000, $4 / 1000, $5 / 1000}' "$out")
    read -r econn eread ewrite etimeout < <(awk '$2 == "errors" {print $3, $4, $5, $6}' "$out")
    statuses=$(awk '$2 == "status" {printf "%s%s: %s", sep, $3, $4; sep = ", "}' "$out")
    case $stream in signin) allowed='^(401|429)$' ;; *) allowed='^(2[0-9][0-9]|304)$' ;; esac
    unexpected=$(awk -v re="$allowed" '$2 == "status" && $3 !~ re {printf "%s%s: %s", sep, $3, $4; sep = ", "}' "$out")
    case $stream in pages) conns=$page_conns ;; api) conns=$api_conns ;; signin) conns=$signin_conns ;; esac
    awk -v s="$stream" -v c="$conns" -v r="$req" -v d="$dur" -v a="$p50" -v b="$p99" -v m="$max" -v st="$statuses" \
      'BEGIN {printf "  %-7s %3d connections: %8.0f req/s, p50 %s ms, p99 %s ms, max %s ms; statuses %s\n", s, c, r / (d / 1e6), a, b, m, st}'
    [ -z "$unexpected" ] || load_error "$stream: unexpected statuses (allowed ${allowed//[\^\$]/}): $unexpected"
    if [ $((econn + eread + ewrite + etimeout)) != 0 ]; then
      load_error "$stream: socket errors: connect $econn, read $eread, write $ewrite, timeout $etimeout"
    fi
    [ "$stream" != pages ] || page_p99=$p99
  done
  if [ -n "$page_p99" ]; then
    echo "  page p99 under load: $page_p99 ms (goal ≤ 50 ms): $(awk -v p="$page_p99" 'BEGIN {print (p <= 50 ? "met" : "MISSED")}')"
  fi
  awk -v h="$hwm" -v b="$hwm_before" -v r="$rss" 'BEGIN {
    printf "  handy peak RSS (VmHWM): %.0f MB (%.0f MB before the load, after start-up); RSS at the end %.0f MB\n", h / 1024, b / 1024, r / 1024 }'
  # Who had the 2 cores: handy, and everything else (the three wrk, the kernel's network work
  # outside handy's and wrk's time, any other process).
  awk -v a="$((cpu_all1 - cpu_all0))" -v i="$((cpu_idle1 - cpu_idle0))" -v h="$((cpu_handy1 - cpu_handy0))" -v n="$(nproc)" 'BEGIN {
    if (a <= 0) exit
    printf "  CPU over the run (%d cores): handy %.2f cores, everything else (wrk, other processes) %.2f, idle %.2f\n",
      n, n * h / a, n * (a - i - h) / a, n * i / a }'
  # What handy logged meanwhile (warnings and errors are worth a look), a moment after wrk
  # stopped: the requests it cut off end then.
  sleep 1
  tail -n +"$((log_before + 1))" "$tmp/handy-load.log" >"$tmp/handy-load.during"
  warns=$(grep -c 'level=WARN\|level=ERROR' "$tmp/handy-load.during" || true)
  echo "  handy logged $(wc -l <"$tmp/handy-load.during") lines during the load, $warns of them warnings or errors"
  # The most frequent, counted (ports and numbers masked).
  { grep -o 'level=\(WARN\|ERROR\) msg=.*' "$tmp/handy-load.during" || true; } | cut -c1-160 | sed 's/[0-9][0-9]*/N/g' |
    sort | uniq -c | sort -rn | head -n 5 | sed 's/^/   /'
  errors=$(grep -c 'level=ERROR' "$tmp/handy-load.during" || true)
  if [ "$errors" != 0 ]; then
    echo "bench: WARNING: load: handy logged $errors errors during the load; the first:"
    grep 'level=ERROR' "$tmp/handy-load.during" | head -n 3 | cut -c1-400 | sed 's/^/    /'
  fi
  if [ "$load_errors" != 0 ]; then
    echo "bench: ERROR: ============================================================================"
    echo "bench: ERROR: the load test FAILED: $load_errors problem(s), see the ERROR lines above"
    echo "bench: ERROR: ============================================================================"
  else
    echo "bench: load: no unexpected status and no socket error"
  fi
fi

# --- 11. Start-up -------------------------------------------------------------------------------
# From exec until /jp/faq is served in brotli (every page then checked compressed), against a bare
# net/http server's exec to its first answer, alternating; about 10 s.
if [ "${BENCH_START:-1}" != 0 ]; then
  echo
  go build -o "$tmp/benchstart" ./scripts/benchstart
  echo "bench: scripts/benchstart -handy $handy_bin -n ${BENCH_START_RUNS:-15}"
  timeout 300 "$tmp/benchstart" -handy "$handy_bin" -n "${BENCH_START_RUNS:-15}"
fi

# --- 12. Lossless quarter turns ---------------------------------------------------------------
# The lossless JPEG transform in Node on a 24 MP photo: a quarter turn against a horizontal flip,
# both checked against jpegtran; about a minute.
if [ "${BENCH_LOSSLESS:-1}" != 0 ]; then
  echo
  echo "bench: node scripts/bench-lossless.mjs"
  timeout 600 node scripts/bench-lossless.mjs
fi
