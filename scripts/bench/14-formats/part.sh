# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 14 of scripts/bench/bench.sh (sourced by it; see its header): the flipper's lossless PNG and GIF rewriters in Node (bench-formats.mjs).

# --- 14. Flipper formats (issue 28) ------------------------------------------------------------
# A 24 MP 16-bit PNG and a 200-frame GIF, made at run time, flipped against the same rewriter's
# decode + encode; peak memory of each call in a fresh process. About five minutes.
if [ "${BENCH_FORMATS:-1}" != 0 ]; then
  echo
  echo "bench: node $part/bench-formats.mjs"
  timeout 1800 node "$part/bench-formats.mjs"
fi
