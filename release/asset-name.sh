#!/usr/bin/env bash
# Prints the file name of the released benchpr binary for this system and the checkout at $1
# (default: this script's repository):
#   benchpr-VERSION-linux-ARCH-ID-VERSION_ID.tar.gz     e.g. benchpr-1.4.0-linux-X64-ubuntu-24.04.tar.gz
# ARCH is named as the runner's RUNNER_ARCH (X64, ARM64); ID and VERSION_ID come from
# /etc/os-release, because a binary links the shared libraries of the system it was built on.
set -euo pipefail
root="${1:-$(dirname "$0")/..}"
version="$(sed -n 's/^project(benchpr VERSION \([0-9][0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
case "$(uname -m)" in
  x86_64 | amd64) arch=X64 ;;
  aarch64 | arm64) arch=ARM64 ;;
  *) arch="$(uname -m)" ;;
esac
# shellcheck disable=SC1091
. /etc/os-release
echo "benchpr-${version:-unknown}-linux-$arch-$ID-${VERSION_ID:-none}.tar.gz"
