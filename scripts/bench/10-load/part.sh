# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 10 of scripts/bench/bench.sh (sourced by it; see its header): the load test, against the load handy the driver started.

# --- 10. The load test --------------------------------------------------------------------------
# The third handy of part 1 (HTTPS, a fresh database, default flags), idle until now. One account
# signed up, then for BENCH_LOAD_DURATION, at once: pages and payloads, the account's API reads,
# and wrong sign-ins to it, each a wrk of its own so that each has its own latency distribution.
# Every status is counted (load-status.lua); anything but 2xx/304 (pages, API reads) or
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
  load_pids=()
  # shellcheck disable=SC2016  # expanded when the hook runs
  at_exit 'for pid in "${load_pids[@]}"; do stop_pid "$pid"; done'
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
  echo "  pages:   LOAD_URLS=... wrk -t2 -c$page_conns --latency -d$load_duration -s $part/load-pages.lua $lurl"
  echo "  api:     LOAD_TOKEN=... wrk -t1 -c$api_conns --latency -d$load_duration -s $part/load-api.lua $lurl"
  echo "  signin:  LOAD_DELAY_MS=$signin_delay wrk -t1 -c$signin_conns --latency -d$load_duration -s $part/load-signin.lua $lurl"
  LOAD_URLS="$tmp/load-urls" timeout $((load_secs + 60)) \
    wrk -t2 -c"$page_conns" --latency -d"$load_duration" -s "$part/load-pages.lua" "$lurl" >"$tmp/load-pages.out" 2>&1 &
  load_pids+=($!)
  LOAD_TOKEN="$token" LOAD_UID="$uid" LOAD_XSRF="$xsrf" timeout $((load_secs + 60)) \
    wrk -t1 -c"$api_conns" --latency -d"$load_duration" -s "$part/load-api.lua" "$lurl" >"$tmp/load-api.out" 2>&1 &
  load_pids+=($!)
  LOAD_EMAIL="$email" LOAD_XSRF="$xsrf" LOAD_DELAY_MS="$signin_delay" timeout $((load_secs + 60)) \
    wrk -t1 -c"$signin_conns" --latency -d"$load_duration" -s "$part/load-signin.lua" "$lurl" >"$tmp/load-signin.out" 2>&1 &
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

  # One line per stream from load-status.lua's summary; statuses checked against those
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

