# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 5 of scripts/bench/bench.sh (sourced by it; see its header): the image flipper in Chromium, against the plain handy.

# --- 5. The image flipper in Chromium --------------------------------------------------------
if [ "$run_flip" != 0 ]; then
  echo
  echo "bench: node $part/bench-flip.mjs $handy_url"
  timeout 300 node "$part/bench-flip.mjs" "$handy_url"
fi

