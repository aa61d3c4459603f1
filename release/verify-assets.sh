#!/usr/bin/env bash
# Checks, before a release is published, that directory $1 holds exactly the binaries
# release/SHA256SUMS lists, each with its SHA-256, and that this checkout's sources are the
# ones they were built from. Prints the assets' paths, one per line.
set -euo pipefail
dir="${1:?usage: release/verify-assets.sh ASSET_DIRECTORY}"
root="$(cd "$(dirname "$0")/.." && pwd)"
sums="$root/release/SHA256SUMS"
recorded="$(sed -n 's/^sources \([0-9a-f]\{64\}\)$/\1/p' "$sums")"
actual="$("$root/release/sources-hash.sh" "$root")"
if [ "$recorded" != "$actual" ]; then
  echo "release/verify-assets.sh: release/SHA256SUMS was written for sources ${recorded:-(none)}," \
    "but this checkout's are $actual: build the binaries of this commit again" >&2
  exit 1
fi
listed="$(grep -E '^[0-9a-f]{64}  benchpr-' "$sums" || true)"
if [ -z "$listed" ]; then
  echo "release/verify-assets.sh: release/SHA256SUMS lists no binary" >&2
  exit 1
fi
(cd "$dir" && printf '%s\n' "$listed" | sha256sum --strict -c - >&2)
printf '%s\n' "$listed" | while read -r _ asset; do echo "$dir/$asset"; done
