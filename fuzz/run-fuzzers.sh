#!/bin/sh
# Builds the libFuzzer targets with clang in their own build directory and runs each one for a
# bounded time on its seed corpus (fuzz/corpus/<target>/). Exits non-zero when a target crashes,
# leaks or trips a sanitizer; the reproducer is left in the build directory as crash-*/leak-*.
#   fuzz/run-fuzzers.sh [SECONDS_PER_TARGET] [BUILD_DIR]     (defaults: 20, build-fuzz)
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-20}
build=${2:-build-fuzz}
root=$(pwd)
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBENCHPR_FUZZ=ON -DBENCHPR_BUILD_TESTS=OFF -DBENCHPR_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target fuzz_google_benchmark fuzz_config fuzz_results_json
status=0
for target in google_benchmark config results_json; do
  # New inputs go to a scratch corpus so the checked-in seeds stay small and reviewed.
  mkdir -p "$build/fuzz-corpus/$target"
  work=$(cd "$build/fuzz-corpus/$target" && pwd)
  echo "fuzzing $target for ${seconds}s"
  if ! (cd "$build" && "./fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
          -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
          "$work" "$root/fuzz/corpus/$target"); then
    echo "fuzz_$target FAILED: reproducer in $build/ (crash-*, leak-*, timeout-*)" >&2
    status=1
  fi
done
exit $status
