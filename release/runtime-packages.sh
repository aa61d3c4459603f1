#!/usr/bin/env bash
# Prints the Debian/Ubuntu packages a benchpr binary ($1) needs at run time on the system it was
# built on: git, the CA certificates libcurl checks GitHub's with, valgrind (instruction counts
# are on by default wherever it is installed) and the packages of the shared libraries it links.
# A runner that gets the binary (a released one, or a build from the cache) installs them.
set -euo pipefail
binary="$1"
{
  echo git
  echo ca-certificates
  echo valgrind
  ldd "$binary" | awk '/=> \// { print $3 }' | while read -r lib; do
    # dpkg knows a file by the path its package ships (/lib or /usr/lib on merged /usr).
    dpkg -S "$lib" 2> /dev/null || dpkg -S "$(realpath "$lib")" 2> /dev/null || true
  done | cut -d : -f 1
} | sort -u
