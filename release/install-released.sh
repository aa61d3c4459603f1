#!/usr/bin/env bash
# The action's first choice: run the released benchpr binary of this ref instead of building.
# Taken only when release/SHA256SUMS at the action's ref was written for exactly these sources
# (its `sources` line) and lists a binary for this system (release/asset-name.sh). The binary is
# downloaded from the action repository's release, checked against the SHA-256 committed beside
# the action (a mismatch is refused, never run), unpacked into BIN_DIR, and its runtime packages
# are installed if missing. Writes installed=true|false to $GITHUB_OUTPUT; false (build from
# source) when there is no such release, the download fails, or the binary does not run here.
# Environment: GITHUB_ACTION_PATH, ACTION_REPOSITORY (owner/name; empty for a local action),
# GITHUB_SERVER_URL, BIN_DIR, GITHUB_OUTPUT.
set -euo pipefail
action="$GITHUB_ACTION_PATH"
sums="$action/release/SHA256SUMS"
fallback() {
  echo "installed=false" >> "$GITHUB_OUTPUT"
  exit 0
}
asset="$("$action/release/asset-name.sh" "$action")"
recorded="$(sed -n 's/^sources \([0-9a-f]\{64\}\)$/\1/p' "$sums" 2> /dev/null || true)"
version="$(sed -n 's/^version \([0-9][0-9.]*\)$/\1/p' "$sums" 2> /dev/null || true)"
expected="$(awk -v a="$asset" '$2 == a && $1 ~ /^[0-9a-f]+$/ && length($1) == 64 { print $1 }' \
  "$sums" 2> /dev/null || true)"
if [ -z "$recorded" ] || [ -z "$version" ]; then
  echo "benchpr: this ref of the action is no release (release/SHA256SUMS lists no binary):" \
    "building benchpr from source"
  fallback
fi
if [ "$recorded" != "$("$action/release/sources-hash.sh" "$action")" ]; then
  echo "benchpr: the action's sources at this ref are not those of release v$version:" \
    "building benchpr from source"
  fallback
fi
if [ -z "$expected" ]; then
  echo "benchpr: release v$version has no binary for this system ($asset):" \
    "building benchpr from source"
  fallback
fi
if [ -z "${ACTION_REPOSITORY:-}" ]; then
  echo "benchpr: a local action has no release to download from: building benchpr from source"
  fallback
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
install() {
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}
if ! command -v curl > /dev/null; then install curl ca-certificates; fi
url="${GITHUB_SERVER_URL:-https://github.com}/$ACTION_REPOSITORY/releases/download/v$version/$asset"
download="$(mktemp -d)"
trap 'rm -rf "$download"' EXIT
if ! error="$(curl -fsSL --retry 2 --connect-timeout 20 --max-time 300 \
  -o "$download/$asset" "$url" 2>&1)"; then
  echo "::warning::benchpr: could not download the released binary $url (${error:-no reason" \
    "given}); building benchpr from source instead, which takes a few minutes"
  fallback
fi
actual="$(sha256sum "$download/$asset" | cut -d ' ' -f 1)"
if [ "$actual" != "$expected" ]; then
  echo "::error::benchpr: the downloaded $asset does not match the SHA-256 that" \
    "release/SHA256SUMS records for it at this ref (expected $expected, got $actual):" \
    "refusing to run it. The release asset was replaced or damaged; report it to the" \
    "maintainers of $ACTION_REPOSITORY"
  exit 1
fi
rm -rf "$BIN_DIR"
mkdir -p "$BIN_DIR"
tar -xzf "$download/$asset" -C "$BIN_DIR" benchpr runtime-packages
# The binary needs its shared libraries (and git, valgrind) on this runner.
if ! command -v git > /dev/null || ! command -v valgrind > /dev/null ||
  ldd "$BIN_DIR/benchpr" 2> /dev/null | grep -q 'not found'; then
  mapfile -t runtime < "$BIN_DIR/runtime-packages"
  install "${runtime[@]}"
fi
if ! "$BIN_DIR/benchpr" --version; then
  echo "::warning::benchpr: the released binary $asset does not run on this runner;" \
    "building benchpr from source instead"
  rm -rf "$BIN_DIR"
  fallback
fi
echo "benchpr: running the released binary $asset (SHA-256 $actual, checked)"
echo "installed=true" >> "$GITHUB_OUTPUT"
