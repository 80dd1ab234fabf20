# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 12 of scripts/bench/bench.sh (sourced by it; see its header): the lossless JPEG transform in Node (bench-lossless.mjs).

# --- 12. Lossless quarter turns ---------------------------------------------------------------
# The lossless JPEG transform in Node on a 24 MP photo: a quarter turn against a horizontal flip,
# both checked against jpegtran; about a minute.
if [ "${BENCH_LOSSLESS:-1}" != 0 ]; then
  echo
  echo "bench: node $part/bench-lossless.mjs"
  timeout 600 node "$part/bench-lossless.mjs"
fi

