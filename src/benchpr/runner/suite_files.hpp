// What is fixed per file is an effect the statistics cannot see: the same bytes ran 20% slower
// from one file than from a fresh copy of it, for a whole comparison (docs/method.md, "The file
// is not the code"). So every round runs fresh copies of both sides' benchmark executables, and
// of the shared libraries they load from the worktree, from paths of equal length with
// environments of equal length; the copies are removed after the round.
//
// The same files are the trust boundary between the sides: both run as one user, so the PR's
// code could rewrite the base's executable or scripts between rounds. Each side's programs are
// hashed (SHA-256) right after the build, every copy is hashed as it is made and again before
// each run, and the worktree's tracked files are checked (inode, size, ctime) before each run of
// their side against their state after its previous run. Any change ends the comparison with a
// TamperError naming the file.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "benchpr/core/base/error.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/runner/loaded_image_digest.hpp"

namespace benchpr::runner {

// Void, not Input: it is thrown after builds and rounds ran and were saved (exit 1, as for an
// interrupted run), never for a file the user must fix before anything is measured.
class TamperError : public Error {
 public:
  explicit TamperError(const std::string& message) : Error(ErrorCategory::Void, message) {}
};

// The program a shell command starts when its first word is a plain path ("build/bench/x",
// "./run.sh"): letters, digits and . / _ - + only, followed by a blank or the end, after any
// leading assignments (`BENCHMARK_OUT={out} build/bench`: values plain, single-quoted or `{out}`).
// Anything else (double quotes, variables, `cd x && ...`) is nullopt: benchpr does not rewrite
// what it cannot read with certainty.
std::optional<std::string> leading_program(std::string_view command);

struct LibraryFile {
  std::string name;         // as DT_NEEDED names it ("libfoo.so.1"): the copy's file name
  std::string path;         // the file it resolves to, absolute, below the worktree
  std::string digest;       // SHA-256 after the build (set by SuiteFiles)
  LoadedImageDigest image;  // what the loader maps of it (runner/loaded_image_digest.hpp)
};

// The shared libraries `elf_path` needs (DT_NEEDED) that resolve, through its DT_RUNPATH or
// DT_RPATH ($ORIGIN expanded), to files below `root`, transitively. Empty for a file that is
// not a 64-bit little-endian ELF file, or needs no such library.
std::vector<LibraryFile> worktree_libraries(const std::string& elf_path, const std::string& root);

// Why the loader would resolve a file `elf_path` loads against the working directory (the
// worktree, which differs between the sides): a relative interpreter, a DT_NEEDED path with a
// '/' that is not absolute, a relative directory in DT_RUNPATH/DT_RPATH; nullopt when nothing
// is. Such a program's loaded image does not say what runs (core/evidence/identical_programs.hpp).
std::optional<std::string> loads_from_working_directory(const std::string& elf_path);

// Removes every file below `root` that its manifest (written by materialise) does not list as
// tracked: the build outputs of earlier revisions, when benchpr does not build. Nothing when there
// is no manifest. Returns how many files were removed.
std::size_t remove_untracked_files(const std::string& root);

// The programs the builds left in the two worktrees, for core/first_different_program: every file
// below each worktree that its manifest does not list as tracked and that is an ELF executable or
// shared library (ET_EXEC, ET_DYN), by its loaded-image digest (each side's worktree path replaced
// when the two have the same length), and every untracked symbolic link to one, by its target
// (the worktree's own path in it replaced). A file that cannot be read has no digest. nullopt when
// a worktree has no manifest: its build outputs cannot be told from its tracked files.
std::optional<std::vector<ProgramImage>> built_programs(const std::string& base_dir,
                                                        const std::string& head_dir);

// The state (inode, size, change time) of every file below `root`, tracked or not, and the
// first difference between two such states, named; how benchpr sees that the PR's build wrote
// into the base's worktree, which was built before it.
using WholeTreeState = std::map<std::string, std::tuple<unsigned long long, long long, long long>>;
WholeTreeState whole_tree_state(const std::string& root);
std::optional<std::string> first_tree_change(const WholeTreeState& before,
                                             const WholeTreeState& after);

// The build tree of a worktree as its own build left it: the state of every file below `root`
// the manifest does not list as tracked (build outputs). Kept in the work directory between
// comparisons (save/load: nullopt when absent or unreadable) so that the next comparison sees
// whether code run since (the other side's, or another pull request's) changed it.
WholeTreeState untracked_state(const std::string& root);
void save_tree_state(const WholeTreeState& state, const std::string& path);
std::optional<WholeTreeState> load_tree_state(const std::string& path);

// The first file below `root` (relative path) whose modification time is later than `now_ns`
// (nanoseconds since the epoch): a build output dated ahead so that make never replaces it.
std::optional<std::string> first_future_dated(const std::string& root, long long now_ns);

// True when the file starts with the ELF magic number.
bool is_elf_file(const std::string& path);

// The program relinked at another code offset (runner/placement_variants.hpp), hashed as it was
// made: a round of that placement copies it in place of the program.
struct PlacementVariant {
  int shift = 0;       // bytes
  std::string path;    // absolute, inside the worktree
  std::string digest;  // SHA-256 right after the relink; "" when it could not be read
};

// One program a suite runs, on one side.
struct SuiteProgram {
  std::string word;     // as the command names it
  std::string path;     // absolute, inside the worktree
  std::string digest;   // SHA-256 after the build
  bool copied = false;  // an ELF executable: run from a fresh copy every round
  std::vector<LibraryFile> libraries;
  LoadedImageDigest image;  // what the loader maps of it (runner/loaded_image_digest.hpp)
  // Under the placement control: the program at each offset after the first (as built), in the
  // order of Results::placement_shifts. It loads the same libraries.
  std::vector<PlacementVariant> variants;
};

class SuiteFiles {
 public:
  // `copy_root` holds the per-round copies (root/base and root/head: equal lengths).
  SuiteFiles(std::string copy_root, std::string base_dir, std::string head_dir);

  // After both builds: hashes every suite's program and libraries on both sides and records the
  // tracked files' state. Returns lines to show: suites whose program cannot be copied (a
  // command), programs outside the worktrees, and, with `warn_stale` (benchpr did not build),
  // programs older than their revision's checkout (a build output of another revision).
  // `placement_shifts` (Results::placement_shifts): each copied program's relinked variants are
  // hashed too (runner/placement_variants.hpp placement_variant_path), and their digests join
  // digests(), so a resumed comparison checks them like the programs.
  std::vector<std::string> record(const std::vector<SuiteConfig>& suites, bool warn_stale,
                                  const std::vector<int>& placement_shifts = {});

  // The digests record() took, by suite and side, paths relative to the side's worktree: what
  // the results file keeps so that a resumed comparison runs the same programs.
  std::vector<ExecutableDigest> digests() const;

  // The digests of what the loader maps of the same files (core/evidence/identical_programs.hpp):
  // each side's worktree path replaced when the two paths have the same length.
  std::vector<ProgramImage> images() const;

  // Before a round: fresh copies for both sides, each hashed as it is written; `slot` > 0 copies
  // each program's placement variant of that index instead (core/plan/schedule.hpp).
  void begin_round(int slot = 0);
  // After a round: the copies removed.
  void end_round();

  // Before a run of `suite` on `side`: throws TamperError when a copy, a program or a tracked
  // file of that side changed since the build (or since the side's previous run).
  void verify(const std::string& suite, Side side) const;
  // After a run of `side`: its own run may change its own tracked files.
  void after_run(Side side);

  // `command` with the suite's program replaced by its copy for this round (unchanged for a
  // suite that is not copied), and the environment both sides get for it.
  std::string command_for(const std::string& suite, Side side, const std::string& command) const;
  std::vector<std::pair<std::string, std::string>> environment_for(const std::string& suite,
                                                                   Side side) const;

 private:
  struct FileState {
    unsigned long long inode = 0;
    long long size = 0;
    long long ctime_ns = 0;
    bool exists = false;
    bool operator==(const FileState&) const = default;
  };
  using TreeState = std::map<std::string, FileState>;
  // A program or library record() hashed, with its path relative to its side's worktree: the
  // one walk digests() and images() read (pointers into programs_).
  struct RecordedFile {
    std::string suite;
    Side side = Side::Base;
    std::string relative_path;
    const std::string* digest = nullptr;
    const LoadedImageDigest* image = nullptr;
  };
  std::vector<RecordedFile> recorded_files() const;

  const std::string& dir(Side side) const { return side == Side::Base ? base_dir_ : head_dir_; }
  std::string side_copy_dir(Side side) const;
  std::string copy_path(const std::string& suite, Side side) const;
  std::string library_dir(const std::string& suite, Side side) const;
  TreeState tree_state(Side side) const;
  void copy_side(const std::string& suite, Side side, const SuiteProgram& p, int slot);
  // The file a round of `slot` copies, and its digest after the build (or the relink).
  static const std::string& source_of(const SuiteProgram& p, int slot);
  static const std::string& digest_of(const SuiteProgram& p, int slot);

  std::string copy_root_;
  std::string base_dir_;
  std::string head_dir_;
  std::map<std::string, int> suite_index_;  // suite → its copy folder number
  std::map<std::pair<std::string, Side>, SuiteProgram> programs_;  // by suite and side
  std::map<Side, TreeState> trees_;
  std::map<std::pair<std::string, Side>, std::string> copy_digests_;  // made this round
  bool in_round_ = false;
  int slot_ = 0;  // the placement this round runs
};

}  // namespace benchpr::runner
