#!/usr/bin/env bash
# Installs, where missing, the system tools the tests need: Debian's chromium for the end-to-end
# tests, xmllint for the sitemap schema check, Java for the Nu Html Checker, PostgreSQL's server
# for the Go tests (internal/store/storetest) and its client's pg_dump and pg_restore (the
# backup test), libjpeg-turbo's cjpeg, djpeg and jpegtran for the lossless JPEG tests (they make
# the test JPEGs and are the reference), promtool (Debian's prometheus) for the metrics test; with
# `bench`, also nginx, Caddy, wrk, brotli and openssl (its self-signed certificate) for the
# benchmark; with `screenshots`, a CJK font; with `image`, buildah and Debian's CA bundle (the
# container image), skopeo and umoci (its test unpacks it with them) and systemd-analyze (the
# unit's test). It says what it installs and fails clearly when it cannot.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
want() { have "$1" || need+=("$2"); }

if [ -z "${CHROME_PATH:-}" ]; then want chromium chromium; fi
want xmllint libxml2-utils
want java default-jre-headless
want jpegtran libjpeg-turbo-progs
# The metrics test (cmd/handy) lints a scrape with the Prometheus project's promtool.
want promtool prometheus
# The Go tests run against a throwaway PostgreSQL cluster made from Debian's server binaries.
if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null && [ -z "${HANDY_TEST_DATABASE_URL:-}" ]; then need+=(postgresql); fi
# pg_dump and pg_restore for the PostgreSQL backup test (internal/store/pgdump_test.go), even
# against a cluster of HANDY_TEST_DATABASE_URL's (postgresql brings them too).
if [ ${#need[@]} -eq 0 ] || [ "${need[-1]}" != postgresql ]; then want pg_restore postgresql-client; fi
# Screenshots in Japanese need a font with its glyphs.
if [ "${1:-}" = screenshots ] && ! { have fc-list && fc-list :lang=ja | grep -q .; }; then need+=(fonts-noto-cjk); fi
if [ "${1:-}" = image ]; then
  want buildah buildah
  want skopeo skopeo
  want umoci umoci
  want systemd-analyze systemd
  [ -f /etc/ssl/certs/ca-certificates.crt ] || need+=(ca-certificates) # copied into the image
fi
if [ "${1:-}" = bench ]; then
  want wrk wrk
  want nginx nginx
  want caddy caddy
  want brotli brotli
  want openssl openssl
fi

[ ${#need[@]} -eq 0 ] && exit 0

echo "ensure-tools: installing ${need[*]} (Debian packages) for the tests"
if ! have apt-get; then
  echo "ensure-tools: apt-get is not available; install ${need[*]} by hand (or set CHROME_PATH)" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if have sudo; then sudo="sudo"; else
    echo "ensure-tools: need root (or sudo) to install ${need[*]}; install them by hand" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}"; } >/tmp/ensure-tools.log 2>&1; then
  echo "ensure-tools: installing ${need[*]} failed; see /tmp/ensure-tools.log" >&2
  tail -n 20 /tmp/ensure-tools.log >&2
  exit 1
fi
echo "ensure-tools: installed ${need[*]}"
