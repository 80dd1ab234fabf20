# shellcheck shell=bash disable=SC2034,SC2154  # the driver and parts set and read these
# The benchmarks' shared shell helpers, sourced by scripts/bench/bench.sh (and so by every part it
# sources) and by the parts that run as programs of their own (08-pageviews/bench-pageviews.sh).
# bench_init NAME makes the temporary directory ($tmp) and the exit trap that stops every process
# started here; start_handy is the shell's one way to start handy (the Go benchmarks and tests
# use internal/handytest, the Node ones e2e/support/handy.mjs).

# bench_init NAME: $bench_name (the prefix of die's messages), $tmp, and the traps.
bench_init() {
  bench_name=$1
  tmp=$(mktemp -d "/tmp/handy-$1.XXXXXX")
  declare -gA h_pid=() h_url=() h_started=() # handy, by name
  exit_hooks=()
  used_ports=" "
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

die() { echo "${bench_name:-bench}: $*" >&2; exit 1; }

# at_exit CMD: CMD is run (eval) on exit, before the handies are stopped and $tmp goes; the
# last registered first.
at_exit() { exit_hooks+=("$1"); }

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
  local i pid
  for ((i = ${#exit_hooks[@]} - 1; i >= 0; i--)); do eval "${exit_hooks[i]}"; done
  for pid in "${h_pid[@]}"; do stop_pid "$pid"; done
  rm -rf "$tmp"
  exit "$rc"
}

# free_port VAR: a loopback port nothing listens on and not handed out before, into VAR (the
# server started on it fails fast if it was taken since). It is taken below the kernel's
# ephemeral range: a port there may be the local end of one of the clients' connections, which
# the probe below cannot see and a listener cannot bind (it happened after the page-view flood
# of part 13, tens of thousands of connections).
free_port() {
  local p low _high
  read -r low _high </proc/sys/net/ipv4/ip_local_port_range
  for _ in $(seq 100); do
    p=$((10000 + RANDOM % (low - 10000)))
    case "$used_ports" in *" $p "*) continue ;; esac
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      used_ports+="$p "
      printf -v "$1" '%s' "$p"
      return 0
    fi
  done
  die "no free loopback port found"
}

# curl as the checks use it: HTTP/1.1 (what wrk speaks) and the benchmark's own certificate
# ($tmp/cert.pem, when there is one).
curl_() {
  if [ -f "$tmp/cert.pem" ]; then
    curl -s --http1.1 --cacert "$tmp/cert.pem" "$@"
  else
    curl -s --http1.1 "$@"
  fi
}

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

# start_handy NAME SCHEME [FLAGS...]: $handy_bin on a free port, the fresh data dir
# $tmp/data-NAME, TLS on for https ($tmp/cert.pem), with FLAGS; its log in $tmp/handy-NAME.log;
# h_pid[NAME], h_url[NAME] and h_started[NAME] ($SECONDS). It does not wait: wait_up or
# wait_ready.
start_handy() {
  local name=$1 scheme=$2 port url args
  shift 2
  free_port port
  url="$scheme://127.0.0.1:$port"
  args=(-addr "127.0.0.1:$port" -public-url "$url" -data-dir "$tmp/data-$name")
  [ "$scheme" = http ] || args+=(-tls-cert "$tmp/cert.pem" -tls-key "$tmp/key.pem")
  "$handy_bin" "${args[@]}" "$@" >"$tmp/handy-$name.log" 2>&1 &
  h_pid[$name]=$!
  h_url[$name]=$url
  h_started[$name]=$SECONDS
}

# wait_ready NAME: waits until handy NAME's /readyz answers 200, at most 60 s.
wait_ready() {
  local name=$1
  for _ in $(seq 600); do
    kill -0 "${h_pid[$name]}" 2>/dev/null || { cat "$tmp/handy-$name.log" >&2; die "handy exited at start-up"; }
    curl_ -f -o /dev/null --max-time 1 "${h_url[$name]}/readyz" && return 0
    sleep 0.1
  done
  curl_ -f -o /dev/null "${h_url[$name]}/readyz" || die "handy did not become ready within 60 s"
}

# stop_handy NAME: SIGTERM, and waits for it to exit; returns its exit status.
stop_handy() {
  local name=$1 pid=${h_pid[$1]:-} rc=0
  [ -n "$pid" ] || return 0
  unset "h_pid[$name]"
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || rc=$?
  return "$rc"
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
