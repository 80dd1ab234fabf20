# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 7 of scripts/bench/bench.sh (sourced by it; see its header): the history's sync in Chromium (bench-history.mjs, a handy of its own).

# --- 7. The history's sync in Chromium ------------------------------------------------------
# Its own handy (a fresh database: the accounts it makes meet no others), on a free port.
if [ "${BENCH_HISTORY:-1}" != 0 ]; then
  echo
  echo "bench: node $part/bench-history.mjs $handy_bin"
  # About three minutes on an idle 2-core machine; bounded so a hung Chromium cannot hold it.
  timeout 600 node "$part/bench-history.mjs" "$handy_bin"
fi

