#!/usr/bin/env bash
# Prints the SHA-256 of the sources a benchpr binary is built from (the checkout at $1, default:
# this script's repository). The action keys its build cache on it, and a released binary is
# used only by an action whose sources hash to the value recorded beside the binary's checksum:
# any other ref (a branch, a later commit, an edit) builds from source.
# release/SHA256SUMS is left out: the commit that records the checksums must hash like the
# commit the binaries were built from.
set -euo pipefail
root="${1:-$(dirname "$0")/..}"
cd "$root"
find CMakeLists.txt cmake src templates .ci/build-packages action.yml release -type f \
  ! -path release/SHA256SUMS -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum |
  cut -d ' ' -f 1
