# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 15 of scripts/bench/bench.sh (sourced by it; see its header): the main thread at load in Chromium at 4× CPU throttling, every page of the plain handy (bench-main-thread.mjs).

# --- 15. The main thread at load (issue 29) -----------------------------------------------------
# 56 pages plus the reference and the variants, about 100 loads of 3-8 s per run; bounded so that a
# hung Chromium cannot hold the benchmark (each load is capped at BENCH_MT_CAP_S, 20 s).
if [ "${BENCH_MAIN_THREAD:-1}" != 0 ]; then
  echo
  echo "bench: node $part/bench-main-thread.mjs $handy_url"
  mt_runs=${BENCH_MT_RUNS:-3}
  BENCH_MT_RUNS=$mt_runs timeout $((mt_runs * 100 * 25)) node "$part/bench-main-thread.mjs" "$handy_url"
fi
