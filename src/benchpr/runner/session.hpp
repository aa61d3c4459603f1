// Carries out a measuring session: build both worktrees, then run every suite for both sides in
// the planned interleaved order, persisting the results after every round so that a crash, a
// timeout or a cancelled job loses nothing already measured.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/core/adaptive/adaptive.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/plan/round_design.hpp"
#include "benchpr/core/plan/time_plan.hpp"
#include "benchpr/exec/process.hpp"
#include "benchpr/runner/clock.hpp"
#include "benchpr/runner/file_system.hpp"
#include "benchpr/runner/instruction_counts.hpp"
#include "benchpr/runner/placement_variants.hpp"
#include "benchpr/runner/round_designer.hpp"
#include "benchpr/runner/series_index.hpp"
#include "benchpr/runner/suite_command_line.hpp"
#include "benchpr/runner/suite_files.hpp"
#include "benchpr/runner/suite_health.hpp"

namespace benchpr::formats {
class Format;
}

namespace benchpr::runner {

// Which part of the configured work a session runs (a shard's share): Google Benchmark suites
// restricted to the listed benchmarks, other suites run whole or not at all.
struct WorkSelection {
  std::map<std::string, std::vector<std::string>> benchmarks;  // per Google Benchmark suite
  std::set<std::string> skipped_suites;                        // not run at all
  bool nothing = false;        // nothing to run: the session ends after the builds
  std::string nothing_reason;  // its stop reason then
};

struct SessionSetup {
  std::string base_dir;  // materialised worktrees (same path length)
  std::string head_dir;
  std::string out_dir;  // per-run results files
  std::string log_dir;  // build and run logs
  // Per-round copies of the benchmark executables (runner/suite_files.hpp); "" = out_dir/exe.
  std::string copy_dir;
  std::vector<std::string> persist_paths;  // results JSON rewritten here after every round
  bool skip_build = false;
  // Called once both sides built, before the first round: lets the caller fill in suites that
  // can only be known from a build (zero-config discovery of benchmark executables).
  std::function<void(Results&)> after_build;
  // Called after after_build: a shard's share of the work (see WorkSelection). Unset: all.
  std::function<WorkSelection(Results&)> select_work;
  // The time plan (core/plan/time_plan.hpp): the whole comparison's budget, builds included; 0 runs
  // the rounds as configured at the tools' own min times. With a budget the warm-up round
  // measures what a round costs and the rest is sized to fit.
  double budget_seconds = 0;
  bool rounds_fixed = false;  // --rounds: the plan sizes only the min time
  // --resume: `results` holds an interrupted comparison; the builds in the work directory are
  // reused and the rounds continue after its last finished one.
  bool resume = false;
  // --why: a regular expression of benchmark names to profile beside the changed ones.
  std::string why;
  // The work directory's own records ("" = none): `void`, written when a comparison ends void
  // (a side's files changed under it), and `base.built`/`head.built`, each build tree's state
  // right after its build. The next session discards a build tree whose record it cannot
  // match before it builds (see discard_suspect_build_trees). `base.build-key`/`head.build-key`:
  // the build command (and the compiler variables of the environment) that made each build
  // tree (see discard_build_trees_of_another_build).
  std::string records_dir;
  // --time-identical: time the suites whose programs are identical on both sides too (an A/A
  // comparison of the machine's noise); by default they are `unchanged` without a round.
  bool time_identical = false;
  // The tracked paths that differ between the two commits (git/repository.hpp changed_paths), for
  // the identical programs' shortcut: a program identical on both sides may still read a file the
  // pull request changed (core/evidence/identical_programs.hpp check_changed_files). Unknown
  // (nullopt): no suite counts as identical.
  std::optional<std::vector<std::string>> changed_paths;
};

// One line of progress for a human (stderr) or for the Actions log.
using ProgressFn = std::function<void(const std::string& line)>;

class Session {
 public:
  // `processes`, `clock` and `file_system` are seams: tests substitute fakes that return canned
  // results, the time they set, and files that are missing or cannot be written.
  Session(exec::ProcessRunner& processes, SessionSetup setup, ProgressFn progress,
          const Clock& clock = steady_clock(), FileSystem& file_system = local_file_system());

  // `results` arrives with revisions, config, plan and seed set; leaves with builds, runs,
  // series, rounds_done, complete and stop filled. With a time budget in the config the
  // rounds are adaptive (pre-registered looks, see core/adaptive/adaptive.hpp). Never throws for
  // failures of the code under test (they are recorded), nor when results cannot be persisted
  // (see write_error()). Throws TamperError, after persisting what was measured, when a side's
  // executable or tracked file changed after its build (runner/suite_files.hpp).
  void run(Results& results);

  // The failed write of a results file at the latest persist ("cannot write /x: No space left on
  // device"), or nothing when every file was written.
  const std::optional<std::string>& write_error() const { return write_error_; }

 private:
  using SuiteSide = std::pair<std::string, Side>;

  bool build(Results& results, Side side);
  // How a stretch of rounds ended: all run, cut short by the deadline, or interrupted.
  enum class RoundsEnd { Done, Cut, Interrupted };
  // Runs rounds [from, to) of the plan. With a deadline (a steady-clock time), stops before an
  // AB/BA block that would end after it (Cut).
  RoundsEnd run_rounds(Results& results, int from, int to, double deadline = 0);
  void run_adaptive(Results& results);
  // Callgrind's instruction counts for the suites that ask for them; false when interrupted.
  void resume(Results& results);
  bool count_instructions_phase(Results& results);
  // After the counts, before the rounds: the hot code of every benchmark whose counts did not
  // move (runner/code_evidence.hpp), which every look reads. After the verdicts: the
  // function-level profiles of the changed benchmarks (runner/profiles).
  void code_evidence_phase(Results& results);
  void profile_phase(Results& results);
  // The fixed design with a time plan: warm-up, plan, the rest; false when interrupted.
  bool run_planned(Results& results);
  void make_time_plan(Results& results, int warmup_rounds);
  // The round design for the rounds to come (designer_.redesign), its change said on progress.
  RoundDesign redesign_rounds(const Results& results, std::vector<SuiteCost> costs,
                              const std::vector<BenchmarkKey>* open, double seconds_left,
                              int max_rounds, int min_rounds);
  void run_suite(Results& results, const RoundPlan& round, const SuiteConfig& suite, Side side,
                 int position);
  // Runs one process of `suite` for `side`, restricted to `only` when non-empty (Google
  // Benchmark filter); returns the record (already stored) and parses what it left.
  RunRecord& run_process(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                         Side side, int position, const std::vector<std::string>& only);
  // The steps of run_process: the command, the process to start, running it with its time and
  // CPU recorded, what it left (nothing, with the reason on `rec`, when there is nothing to
  // read), the parsed output recorded on the series (true when it measured or failed some
  // benchmark), a --filter that matched nothing, and a failure reported.
  RunCommand run_command(const Config& c, const SuiteConfig& suite, const formats::Format& format,
                         const std::string& out_path, const std::vector<std::string>& only) const;
  exec::ProcessSpec process_spec(const Config& c, const SuiteConfig& suite, Side side,
                                 const RunCommand& cmd, const std::string& stem);
  exec::ProcessResult run_timed(const exec::ProcessSpec& spec, RunRecord& rec,
                                const SuiteConfig& suite, Side side);
  std::optional<std::string> read_output(const RunCommand& cmd, const std::string& out_path,
                                         const exec::ProcessSpec& spec,
                                         const exec::ProcessResult& p, RunRecord& rec) const;
  bool record_output(Results& results, const RoundPlan& round, const SuiteConfig& suite, Side side,
                     const formats::Format& format, const std::string& output,
                     const exec::ProcessResult& p, RunRecord& rec);
  void skip_unmatched(const Config& c, const SuiteConfig& suite, Side side, RunRecord& rec);
  void report_failure(const RoundPlan& round, const SuiteConfig& suite, Side side,
                      const RunRecord& rec, const exec::ProcessResult& p,
                      const exec::ProcessSpec& spec, bool measured);
  RunRecord& run_measured_command(Results& results, RunRecord& rec, const exec::ProcessSpec& spec,
                                  const SuiteConfig& suite, Side side);
  void handle_crash(Results& results, const RoundPlan& round, const SuiteConfig& suite, Side side,
                    int position);
  void persist(const Results& results, bool with_analysis = true);
  void finish_failures(Results& results);
  void run_rounds_and_finish(Results& results);
  void finish(Results& results);  // failures, overhead, the last write
  void mark_interrupted(Results& results, int round);
  void run_measuring(Results& results);
  // Before the builds: a build tree the other side's code could have poisoned (after a void
  // comparison, or holding files dated in the future) is discarded, so the build starts clean.
  void discard_suspect_build_trees(const Results& results);
  // Before the builds: a build tree made by another build command (or with other compilers or
  // flags in the environment) is discarded, so a changed configuration is configured afresh
  // instead of a stale cache silently winning; one that is reused is said to be.
  void discard_build_trees_of_another_build(const Results& results);
  // Hashes the programs the comparison runs (a timed suite's, a counted suite's) into files_:
  // after the builds to record them, on a resume to compare them with the record.
  void record_programs(const Results& results);
  // The placement control (runner/placement_variants.hpp): nullopt when the comparison asks for
  // it, else why not ("" when nobody needs telling: it is off, or nothing is timed).
  std::optional<std::string> placement_control_wanted(const Results& results) const;
  // Relinks one side's timed programs at the other offsets, right after the side's build (the
  // base's before the PR's build runs); why it could not, or nullopt when every one was.
  std::optional<std::string> relink_side(const Results& results, Side side);
  // The command that links `program` in its build tree below `root` (a CMake link script, or
  // what Ninja prints for it, asked with `spec`'s environment); nullopt when none is found.
  std::optional<LinkScript> link_command(const std::string& root, const std::string& program,
                                         const exec::ProcessSpec& spec);
  // A resumed session's checks before it measures: the suites' programs hashed again and
  // compared with the digests the file recorded after the builds (TamperError on a difference).
  void verify_resumed_programs(Results& results);
  // Part of it: each program's file state matches the work directory's record of the build.
  void check_programs_untouched(const Results& results);
  std::unique_ptr<SuiteFiles> make_suite_files() const;
  // After the builds: the suites whose programs are identical on both sides get their series
  // (listed on the base) and are left out of the rounds and the instruction counts
  // (session_identical.cpp).
  void skip_identical_suites(Results& results);
  // Removes the build outputs of earlier revisions when benchpr does not build.
  void clean_unbuilt_worktrees(const Results& results);

  double now_seconds() const { return clock_.now_seconds(); }

  exec::ProcessRunner& processes_;
  const Clock& clock_;
  FileSystem& file_system_;
  SessionSetup setup_;
  ProgressFn progress_;
  double started_ = 0;
  double child_seconds_ = 0;
  double rounds_seconds_ = 0;  // rounds run so far and their time, for the time left
  int rounds_run_ = 0;
  double looks_seconds_ = 0;  // adaptive looks: reading the rounds so far
  // The part of a round's time that does not shrink with the benchmarks it runs (process
  // starts, the library's own set-up), for the cost of a round after a look closed some.
  static constexpr double kFixedRoundShare = 0.2;
  // A suite's run that takes longer than this prints a "still running" line this often.
  static constexpr double kStillRunningSeconds = 60;
  // What each round runs and how: the design in force (min time, repetitions) and what the
  // rounds so far showed of the noise and of benchpr's own time (runner/round_designer.hpp).
  RoundDesigner designer_;
  int resume_from_ = 0;  // the first round to run (rounds already in a resumed file)
  // Crashers left out, suites given up (a timeout is evidence enough: the session's length
  // stays bounded by the configured timeouts), probed, or selecting nothing of --filter.
  SuiteHealth health_;
  // Adaptive rounds: the benchmarks still open per suite (absent = run everything).
  std::map<std::string, std::vector<std::string>> open_;
  std::set<std::string> skipped_suites_;  // not this shard's, or identical on both sides
  std::optional<std::string> write_error_;
  // The suite run under way, kept when a signal came during it (what an interruption cut
  // short, for the stop reason); cleared once a run ends with no signal.
  struct StartedRun {
    std::string suite;
    Side side = Side::Base;
    int round = 0;
    double started = 0;
  };
  std::optional<StartedRun> last_run_;
  std::string persist_buffer_;  // the results file's text, reused from one round to the next
  SeriesIndex series_index_;
  std::unique_ptr<SuiteFiles> files_;  // set once both sides are built
  // The instruction counts' Callgrind runs, with the digests of their files as they were read
  // (the profiles reuse them only unchanged); empty after a resume, which profiles afresh.
  SealedRuns sealed_runs_;
};

}  // namespace benchpr::runner
