# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 4 of scripts/bench/bench.sh (sourced by it; see its header): Lighthouse over every page of the plain handy.

# --- 4. Lighthouse against handy --------------------------------------------------------------
if [ "$run_lighthouse" != 0 ]; then
  echo
  echo "bench: node $part/lighthouse.mjs $handy_url"
  # 56 pages of 8-12 s each per run; bounded so that a hung Chrome cannot hold the benchmark.
  lh_runs=${BENCH_LIGHTHOUSE_RUNS:-3}
  LH_RUNS=$lh_runs timeout $((lh_runs * 56 * 20)) node "$part/lighthouse.mjs" "$handy_url"
fi

