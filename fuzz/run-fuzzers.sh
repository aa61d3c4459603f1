#!/bin/sh
# Builds the libFuzzer targets with clang in their own build directory and runs each one for a
# bounded time on its corpus (fuzz/corpus/<target>/). Exits non-zero when a target crashes,
# leaks or trips a sanitizer; the reproducer is left in the build directory as crash-*/leak-*.
#   fuzz/run-fuzzers.sh [--merge] [SECONDS_PER_TARGET] [BUILD_DIR]     (defaults: 20, build-fuzz)
# With --merge, the inputs a run found that reach new coverage are merged (libFuzzer -merge=1,
# smallest inputs kept) into fuzz/corpus/<target>/, so the corpus in the repository grows:
# review and commit the new files. Without it, new inputs stay in BUILD_DIR/fuzz-corpus/.
set -eu
cd "$(dirname "$0")/.."
merge=0
if [ "${1:-}" = "--merge" ]; then
  merge=1
  shift
fi
seconds=${1:-20}
build=${2:-build-fuzz}
root=$(pwd)
targets="google_benchmark jmh hyperfine custom callgrind_profile config results_json
  slash_command event_payload link_header callgrind_dumps elf_symbols benchmark_list"
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBENCHPR_FUZZ=ON -DBENCHPR_BUILD_TESTS=OFF -DBENCHPR_BUILD_BENCH=OFF >/dev/null
# shellcheck disable=SC2086 # one target name per word
cmake --build "$build" -j2 --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)
status=0
for target in $targets; do
  mkdir -p "$build/fuzz-corpus/$target"
  work=$(cd "$build/fuzz-corpus/$target" && pwd)
  seeds="$root/fuzz/corpus/$target"
  # A target's own dictionary (fuzz/dict/<target>.dict), if it has one, joins the UTF-8 one:
  # libFuzzer takes a single -dict.
  dict="$root/fuzz/dict/utf8.dict"
  if [ -f "$root/fuzz/dict/$target.dict" ]; then
    dict="$work.dict"
    cat "$root/fuzz/dict/utf8.dict" "$root/fuzz/dict/$target.dict" >"$dict"
  fi
  echo "fuzzing $target for ${seconds}s"
  # New inputs are written to the first directory (the scratch one); the seeds are only read.
  if ! (cd "$build" && "./fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 \
          -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
          -dict="$dict" "$work" "$seeds"); then
    echo "fuzz_$target FAILED: reproducer in $build/ (crash-*, leak-*, timeout-*)" >&2
    status=1
    continue
  fi
  if [ "$merge" = 1 ]; then
    before=$(ls "$seeds" | wc -l)
    (cd "$build" && "./fuzz/fuzz_$target" -merge=1 -timeout=10 -rss_limit_mb=2048 \
       -max_len=65536 "$seeds" "$work" 2>/dev/null)
    echo "fuzz/corpus/$target: $before -> $(ls "$seeds" | wc -l) inputs"
  fi
done
exit $status
