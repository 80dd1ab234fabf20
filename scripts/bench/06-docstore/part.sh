# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 6 of scripts/bench/bench.sh (sourced by it; see its header): the document store's benchmarks, then benchlisten/.

# --- 6. The document store --------------------------------------------------------------------
# Group commit (64 concurrent clients, one write each, synchronous=FULL on SQLite) and a history
# query, on SQLite and PostgreSQL (a throwaway cluster); then 1,000 long-poll listens held open
# against a running handy: its RSS, and how long until one commit per user has answered all.
# Env: BENCH_DOCSTORE (1; 0 skips it), BENCH_DOCSTORE_COUNT (5 runs of each benchmark).
if [ "${BENCH_DOCSTORE:-1}" != 0 ]; then
  echo
  echo "bench: go test -bench 'CommitParallel|QueryHistory' ./internal/docstore (median of ${BENCH_DOCSTORE_COUNT:-5})"
  scripts/tools/with-postgres.sh go test -run '^$' -bench 'BenchmarkCommitParallel|BenchmarkQueryHistory' \
    -count "${BENCH_DOCSTORE_COUNT:-5}" ./internal/docstore >"$tmp/docstore.txt"
  # One line per benchmark and metric: the median over the runs.
  awk '/^Benchmark/ { name = $1; sub(/-[0-9]+$/, "", name); for (i = 3; i < NF; i += 2) print name, $(i + 1), $i }' \
    "$tmp/docstore.txt" | sort -k1,2 -k3g |
    awk '{ key = $1 " " $2 } key != last && last != "" { flush() } { v[++n] = $3; last = key } END { flush() }
      function flush(  m) { m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        split(last, k, " "); printf "  %-48s %12.1f %s\n", k[1], m, k[2]; n = 0 }'
  echo
  echo "bench: go run ./$part/benchlisten -handy $handy_bin"
  timeout 300 go run "./$part/benchlisten" -handy "$handy_bin"
fi

