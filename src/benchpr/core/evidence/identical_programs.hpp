// Identical programs need no timing: when every program a suite runs (its executable and the
// worktree's shared libraries it loads) is the same code and data on both sides, the PR cannot
// have changed what the suite measures, and its benchmarks are `unchanged` without a round.
// "The same" is the digest of what the loader maps (runner/loaded_image_digest.hpp), not of the
// file: debug info, build IDs and the worktree's own path differ between two builds of one source.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/model/model.hpp"

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

// What a file the pull request changes (a tracked path that differs between the two commits) can
// be to a program that is identical on both sides. The loaded image says what runs, not what the
// running program reads: a data file, a script it starts, a library it opens with dlopen().
enum class ChangedFileKind {
  // Compiled or included by the build: a C, C++ or assembly source or header. What it changes
  // reaches a benchmark only through what the builds make of it: the programs they leave.
  CompiledSource,
  // Read by people: README, LICENSE and the like anywhere; .md, .rst, .adoc at the top or under
  // docs/ or doc/ (and .txt there).
  Documentation,
  // Anything else: data, configuration, scripts, build scripts (they decide what the build
  // copies or generates beside the programs), binaries, submodules. A benchmark may read it.
  Other,
};
ChangedFileKind changed_file_kind(std::string_view path);

// What the pull request's changed files leave of the identical programs' shortcut.
struct ChangedFilesCheck {
  // The first changed file (in the order given) of kind Other: when set, no suite is identical,
  // whatever its programs.
  std::optional<std::string> other;
  // Some changed file is a compiled source: the shortcut then also needs every program the builds
  // left in the worktrees (not only the suites' own) to be identical (first_different_program),
  // since a benchmark may start one or dlopen() it.
  bool compiled_sources = false;
};
ChangedFilesCheck check_changed_files(const std::vector<std::string>& changed);

// The first path (sorted) among the programs the builds left in the two worktrees (every ELF
// executable and shared library that is not tracked; `suite` unused) that differs between the
// sides: on one side only, or with another digest (a loaded-image digest on one side and a whole
// file's on the other differ). nullopt when every one is the same on both sides.
std::optional<std::string> first_different_program(const std::vector<ProgramImage>& built);

// Whether `b` was decided by identity: unchanged without a round because its programs are
// identical on both sides. Its change and interval are exactly zero by construction, not
// measured: reports say so rather than show an interval.
bool decided_by_identical_programs(const BenchmarkAnalysis& b);

// What a report shows for such a benchmark instead of a change and an interval.
inline constexpr std::string_view kIdenticalProgramsCell = "identical programs, no rounds needed";

// Whether `suite` is one of the results' identical suites (Results::identical_suites).
bool is_identical_suite(const Results& results, std::string_view suite);

}  // namespace benchpr
