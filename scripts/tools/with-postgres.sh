#!/usr/bin/env bash
# with-postgres.sh CMD [ARGS...]: runs CMD with HANDY_TEST_DATABASE_URL pointing at a throwaway
# PostgreSQL cluster, so that every Go test binary of one `make test` shares one cluster instead
# of starting its own (internal/store/storetest gives each test a database of its own in it).
# The cluster comes from Debian's server binaries (scripts/tools/ensure-tools.sh installs them), runs
# as the postgres user when we are root (initdb and postgres refuse root), listens on a free
# local port, lives in a temporary directory and is stopped and removed when CMD ends, fails or
# is interrupted. The exit status is CMD's.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 CMD [ARGS...]" >&2
  exit 2
fi

bin=""
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V); do
  if [ -x "$d/initdb" ]; then bin=$d; fi
done
if [ -z "$bin" ]; then
  echo "with-postgres: no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (run scripts/tools/ensure-tools.sh)" >&2
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/handy-pg.XXXXXX")
as=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$dir"
  as=(runuser -u postgres --)
fi
data=$dir/data

stop() {
  if [ -f "$data/postmaster.pid" ]; then
    "${as[@]}" "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap stop EXIT
# Until CMD runs, a signal just exits (the EXIT trap stops the cluster).
trap "exit 130" INT
trap "exit 143" TERM

if ! "${as[@]}" "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1; then
  cat "$dir/initdb.log" >&2
  exit 1
fi

# A port nothing listens on; another process may take it before the server does, so a failed
# start tries another.
port=""
for _ in 1 2 3 4 5 6 7 8 9 10; do
  candidate=$((20000 + RANDOM % 40000))
  if (: <"/dev/tcp/127.0.0.1/$candidate") 2>/dev/null; then continue; fi
  # Durability is worthless for a throwaway cluster; connections are shared by every test binary.
  opts="-p $candidate -c listen_addresses=127.0.0.1 -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400"
  if "${as[@]}" "$bin/pg_ctl" -D "$data" -o "$opts" -l "$dir/log" -w -t 60 start >/dev/null 2>&1; then
    port=$candidate
    break
  fi
done
if [ -z "$port" ]; then
  echo "with-postgres: the cluster did not start; its log:" >&2
  cat "$dir/log" >&2 || true
  exit 1
fi

export HANDY_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
# CMD runs in a session of its own, in the background, so that a signal reaches this script at
# once (bash runs traps between commands, and `wait` is one) and is passed on to CMD and its
# children (go test and the test binaries) before the cluster stops.
setsid "$@" &
child=$!
trap 'kill -TERM -- -$child 2>/dev/null; wait $child; exit 130' INT
trap 'kill -TERM -- -$child 2>/dev/null; wait $child; exit 143' TERM
status=0
wait $child || status=$?
exit "$status"
