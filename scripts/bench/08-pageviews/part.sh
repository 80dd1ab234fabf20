# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 8 of scripts/bench/bench.sh (sourced by it; see its header): the page-view ingest (bench-pageviews.sh, a program of its own).

# --- 8. The page-view ingest ----------------------------------------------------------------
# Its own handy per engine (a fresh database, -client-ip-header X-Forwarded-For), on free ports;
# PostgreSQL is the throwaway cluster of scripts/tools/with-postgres.sh (fsync=off), when its binaries
# are installed (scripts/tools/ensure-tools.sh installs them).
if [ "${BENCH_PAGEVIEWS:-1}" != 0 ]; then
  echo
  echo "bench: $part/bench-pageviews.sh $handy_bin"
  if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    scripts/tools/with-postgres.sh "$part/bench-pageviews.sh" "$handy_bin"
  else
    "$part/bench-pageviews.sh" "$handy_bin"
  fi
fi

