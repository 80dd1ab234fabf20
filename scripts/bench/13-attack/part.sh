# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, h_pid, the settings
# Part 13 of scripts/bench/bench.sh (sourced by it; see its header): hostile users (issue 27),
# each attack against a fresh handy of its own.

# --- 13. Hostile users ----------------------------------------------------------------------------
# Per attack (BENCH_ATTACKS, default "none a b c d e f g"; none is the reference), a fresh handy
# on SQLite (start_handy: its own data dir, default flags but an admin token to count page views),
# then benchattack run: for BENCH_ATTACK_DURATION (30s) the attacker (a process of its own) attacks
# while handy's memory is sampled, /healthz is probed 20 times a second and a light user commits
# one history entry 5 times a second; afterwards every acknowledged write is read back. One
# table at the end (benchattack report), each goal PASS or MISS: peak RSS ≤ 300 MB, /healthz
# p99 ≤ 50 ms, the light user's commit p95 ≤ 100 ms, nothing acknowledged missing.
# Env: BENCH_ATTACK (1; 0 skips it), BENCH_ATTACKS, BENCH_ATTACK_DURATION (30s),
#      BENCH_ATTACK_RSS_CAP_MB (4096: handy is killed past it, to spare the machine).
if [ "${BENCH_ATTACK:-1}" != 0 ]; then
  echo
  attack_duration=${BENCH_ATTACK_DURATION:-30s}
  attack_bin="$tmp/benchattack"
  go build -o "$attack_bin" "./$part/benchattack"
  openssl rand -hex 32 >"$tmp/attack-admin-token"
  : >"$tmp/attack-results.jsonl"
  busy=$(cpu_busy)
  if [ "$busy" -gt 20 ]; then
    echo "bench: WARNING: the CPU was ${busy} % busy before the attacks began (other processes): their latencies are unreliable"
  fi
  echo "bench: hostile users: each attack for $attack_duration against a fresh handy ($part/benchattack)"
  for attack in ${BENCH_ATTACKS:-none a b c d e f g}; do
    name=attack-$attack
    start_handy "$name" http -admin-token-file "$tmp/attack-admin-token"
    wait_ready "$name"
    if ! timeout 600 "$attack_bin" run -url "${h_url[$name]}" -pid "${h_pid[$name]}" -attack "$attack" \
      -duration "$attack_duration" -data-dir "$tmp/data-$name" -admin-token-file "$tmp/attack-admin-token" \
      -rss-cap-mb "${BENCH_ATTACK_RSS_CAP_MB:-4096}" -out "$tmp/attack-results.jsonl"; then
      echo "bench: ERROR: attack $attack: benchattack failed (its message above)"
    fi
    # handy may have been killed at the RSS cap: stop_handy's status says nothing then.
    stop_handy "$name" || true
    echo "    handy's log: $(grep -c 'level=WARN' "$tmp/handy-$name.log" || true) warnings," \
      "$(grep -c 'level=ERROR' "$tmp/handy-$name.log" || true) errors"
    rm -rf "$tmp/data-$name"
  done
  echo
  "$attack_bin" report "$tmp/attack-results.jsonl"
fi
