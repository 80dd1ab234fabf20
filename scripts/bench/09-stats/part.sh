# shellcheck shell=bash disable=SC2154  # the driver sets $tmp, $part, h_url, the settings
# Part 9 of scripts/bench/bench.sh (sourced by it; see its header): the page-view report (benchstats/, a handy of its own).

# --- 9. The page-view report ----------------------------------------------------------------
# Per engine, a fresh database seeded with a year of page views (about 6,000 rows of
# analytics_views a day, whose triggers fill the rollups the report reads), then a handy of its
# own with an admin token answering GET /api/v1/stats: the latency of the /admin dashboard's
# data. PostgreSQL is the throwaway cluster of scripts/tools/with-postgres.sh (fsync=off; a database
# of its own in it), when its binaries are installed.
if [ "${BENCH_STATS:-1}" != 0 ]; then
  echo
  go build -o "$tmp/benchstats" "./$part/benchstats"
  stats_args=(run -handy "$handy_bin" -n30 "${BENCH_STATS_N30:-200}" -n365 "${BENCH_STATS_N365:-50}"
    -clients "${BENCH_STATS_CLIENTS:-4}")
  echo "bench: $part/benchstats ${stats_args[*]}"
  # Seeding takes 30-90 s per engine on this machine, the requests about a minute.
  if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
    timeout 1200 scripts/tools/with-postgres.sh "$tmp/benchstats" "${stats_args[@]}"
  else
    timeout 1200 "$tmp/benchstats" "${stats_args[@]}"
  fi
fi

