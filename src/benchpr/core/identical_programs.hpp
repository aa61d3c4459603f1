// Identical programs need no timing: when every program a suite runs (its executable and the
// worktree's shared libraries it loads) is the same code and data on both sides, the PR cannot
// have changed what the suite measures, and its benchmarks are `unchanged` without a round.
// "The same" is the digest of what the loader maps (runner/loaded_image_digest.hpp), not of the
// file: debug info, build IDs and the worktree's own path differ between two builds of one source.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model.hpp"

namespace benchpr {

// The reason an identical suite's benchmarks are unchanged (BenchmarkAnalysis::reason).
inline constexpr std::string_view kIdenticalProgramsReason =
    "the benchmark programs are byte-identical";

// One program of a suite on one side: what the digest covers decides whether it may count.
struct ProgramImage {
  std::string suite;
  Side side = Side::Base;
  std::string path;    // relative to the side's worktree
  std::string digest;  // of the loaded image (an ELF file), else of the whole file
  // An ELF file whose digest covers everything the loader maps. A script's digest is the whole
  // file's, but a script starts other programs that no digest covers: it never makes a suite
  // identical.
  bool loaded_image = false;
};

// The suites (in order of first appearance) whose programs are identical on both sides: the same
// set of paths on each side, every one an ELF loaded image, each with the same digest on both.
// A suite with no program on a side (it runs a command) is never identical.
std::vector<std::string> identical_suites(const std::vector<ProgramImage>& images);

// Whether `suite` is one of the results' identical suites (Results::identical_suites).
bool is_identical_suite(const Results& results, std::string_view suite);

}  // namespace benchpr
