#!/usr/bin/env bash
# shellcheck disable=SC2034  # the settings are read by the parts it sources
# `make bench` (scripts/bench/bench.sh): how fast handy serves a prerendered page next to a bare net/http server, Caddy and
# nginx serving the same bytes, over plain HTTP and over TLS; Lighthouse over the pages; then
# handy under a mixed load; the main thread at load. See docs/performance.md.
#
# 1. makes a self-signed ECDSA P-256 certificate for 127.0.0.1 (openssl) and starts ./handy
#    twice on free loopback ports, over plain HTTP and over HTTPS (-tls-cert), each on a fresh
#    data dir (and, unless BENCH_LOAD=0, a third for part 10); waits for each to log that its
#    pages are compressed at the best levels (wait_compressed: a WARNING after 60 s), then
#    fetches /de/area-calculator as gzip from both (the page names its origin, so the two differ
#    in a few bytes: each mode's servers serve that mode's bytes);
# 2. starts a bare net/http server (01-static/benchbare), Caddy (01-static/caddy-bench.Caddyfile,
#    file_server with precompressed gzip) and nginx (01-static/nginx-bench.conf, gzip_static),
#    each on a plain and a TLS port, serving those exact bytes with handy's other headers, and
#    checks every one (200, the identical body, about the same header bytes);
# 3. per mode (plain HTTP, then TLS), alternates the same wrk command against the four (a warm-up
#    each, then handy, bare, caddy, nginx, handy, ...) and reports the median req/s of each and
#    the ratios handy/bare (goal ≥ 0.95), handy/caddy (goal ≥ 2) and handy/nginx (goal ≥ 0.90 over
#    plain HTTP): on a 2-core machine shared with wrk, absolute figures move by up to 25 % between
#    runs, the ratios far less;
# 4. runs 04-lighthouse/lighthouse.mjs against handy: all 56 pages, three runs one after another (about
#    25 minutes), and the lowest score per category and longest tool-page TBT of each run;
# 5. runs 05-flip/bench-flip.mjs: the image flipper on a 24-megapixel JPEG against decode + encode.
# 6. the document store: group commit and query benchmarks on both engines, then 1,000 listens
#    held against a running handy (06-docstore/benchlisten).
# 7. runs 07-history/bench-history.mjs: the history's sync in Chromium, against a handy of its own
#    (a save on screen, durable in IndexedDB, in another tab, on another device, and 1,000 saves
#    queued offline going out).
# 8. the page-view ingest (08-pageviews/bench-pageviews.sh, on SQLite and, under
#    scripts/tools/with-postgres.sh, PostgreSQL): wrk with pageviews.lua posting valid beacons
#    for BENCH_PAGEVIEWS_DURATION (req/s, p99, errors, views stored = 204s after SIGTERM), then
#    benchpageviews/: SIGTERM under 2,000 beacons/s, stored views = acknowledged beacons.
# 9. the page-view report (09-stats/benchstats, on SQLite and, under scripts/tools/with-postgres.sh,
#    PostgreSQL): a year of rollups seeded into a fresh database (366 days, 30,000 views a day
#    over every page and locale), then GET /api/v1/stats of the last 30 and 365 days against a
#    handy of its own with an admin token, one request at a time after a warm-up, then from
#    several clients at once: p50, p95, max, and each answer checked.
# 10. the load test, against the third handy (HTTPS, its own fresh database): one account signed
#    up, then for BENCH_LOAD_DURATION at once: wrk over every page and payload of web/dist
#    (10-load/load-pages.lua, 192 connections), wrk over the account's API reads
#    (load-api.lua, 64 connections) and a stream of wrong sign-ins to that account
#    (load-signin.lua, 2 connections, paced): req/s, p50/p99/max and every status per
#    stream, the page p99 against its goal (≤ 50 ms), handy's peak RSS; ERROR lines for any
#    status other than 2xx/304 (pages, API) or 401/429 (wrong sign-ins) and any socket error.
# 11. start-up (11-start/benchstart): exec to /jp/faq served in brotli, BENCH_START_RUNS times on a
#    database made by a first start, alternating with a bare net/http server's exec to its first
#    answer; every page checked compressed at that moment: medians and the ratio (goal ≤ 0.5 s).
# 12. the lossless JPEG transform in Node (12-lossless/bench-lossless.mjs): a quarter turn of a 24 MP
#    photo against a horizontal flip, alternated, by phase (goal: the turn within 1.1× the flip).
# 13. hostile users (13-attack/benchattack, issue 27): per attack (a: big query answers, b: the
#    export, c: listens never read, d: 4 MiB commit bodies, e: expensive commits, f: a page-view
#    flood, g: slowloris; and none, the reference), a fresh handy on SQLite for
#    BENCH_ATTACK_DURATION: its peak RSS, /healthz p99 from a prober, a light user's one-write
#    commit p50/p95, every acknowledged write read back, the attacker's outcomes; one table with
#    each goal PASS or MISS.
# 14. the flipper's formats in Node (14-formats/bench-formats.mjs, issue 28): a 24 MP 16-bit PNG and a
#    200-frame 480×270 GIF, made at run time, flipped by the lossless rewriters against the same
#    rewriters' decode + encode (the identity transform), alternated: medians, min/max, the ratio
#    (goal ≤ 1.2×), each call's peak RSS in a fresh process.
# 15. the main thread at load (15-main-thread/bench-main-thread.mjs, issue 29) against the plain
#    handy: all 56 pages in Chromium at 4× CPU throttling, each in a fresh context, traced from
#    before the navigation until quiet, BENCH_MT_RUNS times: per page the median longest task on
#    the renderer's main thread, Σ of the parts of tasks above 50 ms, the CLS and the script bytes;
#    the English pages dark, signed in and on a desktop screen, / redirected by Accept-Language and
#    by the cookie; a static page without script as the reference; PASS/MISS for no task above
#    50 ms and CLS 0.
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
#      BENCH_ATTACK (1; 0 skips it), BENCH_ATTACKS ("none a b c d e f g"),
#      BENCH_ATTACK_DURATION (30s), BENCH_ATTACK_RSS_CAP_MB (4096),
#      BENCH_FORMATS (1; 0 skips it), BENCH_FORMATS_ROUNDS (5),
#      BENCH_MAIN_THREAD (1; 0 skips it), BENCH_MT_RUNS (3), BENCH_MT_VARIANTS (1; 0 skips them),
#      BENCH_MT_CAP_S (20: a load's bound), BENCH_MT_SAVE (a directory for the traces),
#      HANDY (./handy), CHROME_PATH (for Lighthouse).
# PARTS selects parts by number, e.g. PARTS=11 or PARTS="4 11" (`make bench PARTS=11`; 2 and 3 are
#      part 1's; default every part); the BENCH_* switches above still skip theirs.
# Every process it starts is stopped on exit; it listens on 127.0.0.1 only.
#
# Layout: this driver starts the handies the parts share and sources each selected part,
# scripts/bench/NN-name/part.sh, in order, in this shell (they share its variables); a part's
# folder holds what it alone uses (its lua, server configs, Go or Node program); lib.sh holds
# the helpers they share (bench_init, start_handy, wait_up, free_port, curl_, ...).
set -euo pipefail

cd "$(dirname "$0")/../.."
# shellcheck source=scripts/bench/lib.sh
. scripts/bench/lib.sh

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

parts=${PARTS:-1 4 5 6 7 8 9 10 11 12 13 14 15}

for tool in curl wrk nginx caddy openssl go gzip node; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (make bench installs it via scripts/tools/ensure-tools.sh bench)"
done
[ -x "$handy_bin" ] || die "$handy_bin is missing: run make build"
for mode in $modes; do
  case $mode in plain|tls) ;; *) die "BENCH_MODES: unknown mode $mode (plain, tls)" ;; esac
done

for n in $parts; do
  if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$((10#$n))" -lt 1 ] || [ "$((10#$n))" -gt 15 ]; then die "PARTS: unknown part $n (1 to 15)"; fi
done
# want N: whether part N is selected (2 and 3 are part 1's).
want() {
  local n
  for n in $parts; do
    n=$((10#$n))
    case $n in 2 | 3) n=1 ;; esac
    [ "$n" != "$1" ] || return 0
  done
  return 1
}

bench_init bench

busy_before=$(cpu_busy)

echo "bench: $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'),"\
  "$(nginx -v 2>&1 | sed 's/.*version: //'), Caddy $(caddy version 2>/dev/null | awk '{print $1}'),"\
  "$(go version | awk '{print $3}'), $(wrk -v 2>&1 | head -n1 | awk '{print $1, $2}')"

if [ "$busy_before" -gt 20 ]; then
  echo "bench: WARNING: the CPU was ${busy_before} % busy before the benchmark began (other processes):" \
    "the figures below are unreliable; rerun on an idle machine"
fi

# --- The handies the parts share ------------------------------------------------------------
# One self-signed certificate for every server (the same key type for all: ECDSA P-256).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>"$tmp/openssl.log" || { cat "$tmp/openssl.log" >&2; die "openssl could not make the certificate"; }

# Started together, so that their start-up compressions overlap and wait_compressed's 60 s run
# once; the load test's handy (part 10) is started here for the same reason and stays idle.
# plain: parts 1, 4, 5 and 15; tls: part 1; load: part 10.
if want 1 || want 4 || want 5 || want 15; then start_handy plain http; fi
if want 1; then start_handy tls https; fi
if [ "$run_load" != 0 ] && want 10; then start_handy load https; fi
for name in "${!h_pid[@]}"; do
  wait_up "${h_url[$name]}$page" "${h_pid[$name]}" "handy ($name)" "$tmp/handy-$name.log"
done
for name in plain tls load; do
  [ -n "${h_pid[$name]:-}" ] || continue
  wait_compressed "$tmp/handy-$name.log" "${h_started[$name]}"
  echo "bench: handy (pid ${h_pid[$name]}) on ${h_url[$name]}"
done
handy_url=${h_url[plain]:-}  # parts 4, 5 and 15

# --- The parts, in order -----------------------------------------------------------------------
for part in scripts/bench/[0-9][0-9]-*; do
  n=${part##*/}
  want "$((10#${n%%-*}))" || continue
  # shellcheck source=/dev/null
  . "$part/part.sh"
done
