#!/usr/bin/env bash
# Builds handy's container image from scratch (deploy/Containerfile) with buildah and writes it
# as an OCI archive: scripts/image/build.sh OUT.tar. `make image` runs it after building the
# front end; it needs root (buildah's storage, and files owned by the image's user) and
# buildah (scripts/tools/ensure-tools.sh image). Read from the environment: VERSION, REVISION
# and CREATED (the labels; the Makefile computes them), IMAGE_SOURCE and IMAGE_LICENSES (labels
# added only when set), GO and GO_LDFLAGS.
#
# buildah runs on a storage of its own under build/, with the vfs driver (no overlay mount
# needed: it works in a container and on a plain CI machine alike), removed afterwards: each
# build starts clean and leaves nothing in /var/lib/containers. The Containerfile has no RUN,
# so no runtime and no isolation are needed; --isolation chroot only keeps buildah from looking
# for one.
set -euo pipefail

out=${1:?usage: scripts/image/build.sh OUT.tar}
version=${VERSION:-dev} revision=${REVISION:-unknown}
created=${CREATED:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}
uid=65532 # the image's user and group: no name on the host, as distroless's "nonroot"
stage=build/image-context storage=build/image-storage
tag="localhost/handy:$version"

if [ "$(id -u)" -ne 0 ]; then
  echo "image: buildah needs root here (its storage, and /data owned by uid $uid); run as root" >&2
  exit 1
fi
rm -rf "$stage" "$storage"
mkdir -p "$stage/root/etc/ssl/certs" "$stage/root/tmp" "$stage/owned/data" "$(dirname "$out")"
chmod 1777 "$stage/root/tmp"
chmod 0700 "$stage/owned/data"
trap 'rm -rf "$storage"' EXIT

# Static: no C library in the image. The SQLite driver (modernc.org/sqlite) and pgx are pure Go;
# the image's test checks that the binary has no ELF interpreter.
CGO_ENABLED=0 "${GO:-go}" build -trimpath -ldflags "-s -w ${GO_LDFLAGS:-}" -o "$stage/root/handy" ./cmd/handy
cp /etc/ssl/certs/ca-certificates.crt "$stage/root/etc/ssl/certs/"
echo "handy:x:$uid:$uid:handy:/data:/sbin/nologin" >"$stage/root/etc/passwd"
echo "handy:x:$uid:" >"$stage/root/etc/group"

labels=()
[ -n "${IMAGE_SOURCE:-}" ] && labels+=(--label "org.opencontainers.image.source=$IMAGE_SOURCE")
[ -n "${IMAGE_LICENSES:-}" ] && labels+=(--label "org.opencontainers.image.licenses=$IMAGE_LICENSES")
bh=(buildah --storage-driver vfs --root "$PWD/$storage/root" --runroot "$PWD/$storage/run")
# Docker's format keeps HEALTHCHECK (the OCI image format has no field for it); the archive
# below is OCI all the same, its config carrying the health check as Docker's does.
"${bh[@]}" build --quiet --isolation chroot --format docker --file deploy/Containerfile \
  --build-arg VERSION="$version" --build-arg REVISION="$revision" --build-arg CREATED="$created" \
  --build-arg UID="$uid" "${labels[@]}" --tag "$tag" "$stage" >/dev/null
rm -f "$out"
"${bh[@]}" push --quiet --format v2s2 "$tag" "oci-archive:$out:$tag"
echo "image: $out ($tag, $(du -h "$out" | cut -f1))"
