#!/usr/bin/env bash
# Builds the benchpr binary a release ships for this system and writes, into directory $1:
#   ASSET (release/asset-name.sh): a tar.gz of benchpr (stripped) and runtime-packages
#   ASSET.sha256: its line for release/SHA256SUMS
# Run by .github/workflows/release.yml on each supported runner image; it installs the build
# packages (.ci/build-packages) first unless BENCHPR_SKIP_PACKAGES=1.
set -euo pipefail
out="${1:?usage: release/build-binary.sh OUTPUT_DIRECTORY}"
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ "${BENCHPR_SKIP_PACKAGES:-0}" != 1 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  mapfile -t packages < "$root/.ci/build-packages"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${packages[@]}"
fi
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
# The checkout's path stays out of the binary, so two builds of one commit differ only where
# the compiler or the libraries do.
cmake -S "$root" -B "$build/tree" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBENCHPR_BUILD_TESTS=OFF -DBENCHPR_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS="-ffile-prefix-map=$root=." > "$build/configure.log"
cmake --build "$build/tree" --target benchpr -j "$(nproc)"
mkdir "$build/asset"
cp "$build/tree/src/benchpr" "$build/asset/benchpr"
strip --strip-unneeded "$build/asset/benchpr"
"$root/release/runtime-packages.sh" "$build/asset/benchpr" > "$build/asset/runtime-packages"
"$build/asset/benchpr" --version
asset="$("$root/release/asset-name.sh" "$root")"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$build/asset" \
  -cf - benchpr runtime-packages | gzip -n -9 > "$out/$asset"
(cd "$out" && sha256sum "$asset" > "$asset.sha256")
echo "$out/$asset"
