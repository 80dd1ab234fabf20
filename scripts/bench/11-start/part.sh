# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 11 of scripts/bench/bench.sh (sourced by it; see its header): start-up (benchstart/, handies of its own).

# --- 11. Start-up -------------------------------------------------------------------------------
# From exec until /jp/faq is served in brotli (every page then checked compressed), against a bare
# net/http server's exec to its first answer, alternating; about 10 s.
if [ "${BENCH_START:-1}" != 0 ]; then
  echo
  go build -o "$tmp/benchstart" "./$part/benchstart"
  echo "bench: $part/benchstart -handy $handy_bin -n ${BENCH_START_RUNS:-15}"
  timeout 300 "$tmp/benchstart" -handy "$handy_bin" -n "${BENCH_START_RUNS:-15}"
fi

