#!/usr/bin/env bash
# Prints release/SHA256SUMS for the binaries in directory $1 (each ASSET with its ASSET.sha256,
# as release/build-binary.sh wrote them), built from this checkout by workflow run $2. The file
# is committed at the release's tag: the action trusts a downloaded binary only if its SHA-256
# is listed there and the action's own sources hash to the `sources` line.
set -euo pipefail
dir="${1:?usage: release/write-checksums.sh ASSET_DIRECTORY RUN_ID}"
run="${2:?usage: release/write-checksums.sh ASSET_DIRECTORY RUN_ID}"
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(sed -n 's/^project(benchpr VERSION \([0-9][0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
echo "# The released benchpr binaries of v$version, checked by action.yml before it runs one."
echo "# Written by release/write-checksums.sh; see docs/github.md, \"Releasing\"."
echo "sources $("$root/release/sources-hash.sh" "$root")"
echo "version $version"
echo "run $run"
shopt -s nullglob
found=0
for line in "$dir"/*.tar.gz.sha256; do
  cat "$line"
  found=1
done
if [ "$found" = 0 ]; then
  echo "release/write-checksums.sh: no *.tar.gz.sha256 in $dir" >&2
  exit 1
fi
