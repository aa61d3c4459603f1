// The course of a session: build both sides, choose the work, count instructions, run the rounds
// (session_rounds.cpp), profile, finish; and a resumed session's course. Each step persists what
// it measured, so an interruption loses nothing already done.
#include "benchpr/runner/session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/model/placement_rotation.hpp"
#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/plan/time_plan.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/runner/placement_variants.hpp"
#include "benchpr/runner/session_words.hpp"

namespace benchpr::runner {

using namespace session_detail;

Session::Session(exec::ProcessRunner& processes, SessionSetup setup, ProgressFn progress,
                 const Clock& clock, FileSystem& file_system)
    : processes_(processes),
      clock_(clock),
      file_system_(file_system),
      setup_(std::move(setup)),
      progress_(std::move(progress)) {}

void Session::persist(const Results& results, bool with_analysis) {
  // During the rounds only the raw results are written (publish recomputes the analysis from
  // them); analysing 10,000 benchmarks after every round would cost more than it tells.
  if (with_analysis) {
    const Analysis analysis = analyse_session(results);
    write_results(persist_buffer_, results, &analysis);
  } else {
    write_results(persist_buffer_, results, nullptr);
  }
  // A file that cannot be written (a full disk) must not end the session: what is measured
  // stays in memory for the comment, and the caller reports the failed write at the end.
  write_error_.reset();  // only the latest state of the files matters
  for (const auto& path : setup_.persist_paths) {
    try {
      file_system_.write_atomically(path, persist_buffer_);
    } catch (const StoreError& e) {
      progress_(std::string("warning: ") + e.what());
      write_error_ = e.what();
    }
  }
}

void Session::run(Results& results) {
  // A resume refused leaves the file as it was: it throws before anything is measured.
  if (setup_.resume) verify_resumed_programs(results);
  started_ = now_seconds();
  child_seconds_ = 0;
  if (!setup_.resume) {
    clean_unbuilt_worktrees(results);
    discard_suspect_build_trees(results);
    discard_build_trees_of_another_build(results);
  }
  try {
    if (setup_.resume)
      resume(results);
    else
      run_measuring(results);
  } catch (const TamperError& e) {
    // What was measured before stays, but the comparison ends here and says why; the build
    // trees it leaves are not trusted by the next comparison in this work directory.
    if (!setup_.records_dir.empty()) {
      std::ofstream(setup_.records_dir + "/void") << e.what() << '\n';
    }
    if (files_) files_->end_round();
    results.complete = false;
    results.stop = {StopKind::Void, 0, e.what()};
    finish_failures(results);
    results.overhead_seconds = std::max(0.0, now_seconds() - started_ - child_seconds_);
    persist(results);
    throw;
  }
  if (files_) files_->end_round();
}

void Session::clean_unbuilt_worktrees(const Results& results) {
  // With no build of benchpr's, whatever the worktrees hold beyond the revision's tracked files
  // is a leftover of an earlier comparison's revisions: running it as this revision's code once
  // reported a README-only change as 22% faster. --skip-build keeps them on purpose.
  if (!results.config.build.empty() || setup_.skip_build) return;
  for (const std::string& dir : {setup_.base_dir, setup_.head_dir}) {
    const std::size_t removed = remove_untracked_files(dir);
    if (removed > 0)
      progress_(
          fmt::format("removed {} untracked file(s) from {}: no build is configured, so "
                      "they are outputs of another revision",
                      removed, dir));
  }
}

std::string session_detail::built_record(const std::string& records_dir, Side side) {
  return records_dir + (side == Side::Base ? "/base.built" : "/head.built");
}

void Session::discard_suspect_build_trees(const Results& results) {
  if (setup_.records_dir.empty() || results.config.build.empty() || setup_.skip_build) return;
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::string void_marker = setup_.records_dir + "/void";
  const bool was_void = fs::exists(void_marker, ec);
  // A minute of slack for clocks that disagree a little (a network file system).
  const long long now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count() +
                           60LL * 1000000000LL;
  for (Side side : {Side::Base, Side::Head}) {
    const std::string& dir = side == Side::Base ? setup_.base_dir : setup_.head_dir;
    const std::string record = built_record(setup_.records_dir, side);
    std::string why;
    if (was_void) {
      why = "the previous comparison in this work directory ended void";
    } else if (const auto future = first_future_dated(dir, now_ns)) {
      why = *future + " is dated in the future, which only tampering does";
    } else if (const auto built = load_tree_state(record)) {
      if (const auto change = first_tree_change(*built, untracked_state(dir)))
        why = *change + " since its build, by code run after it";
    }
    fs::remove(record, ec);
    if (why.empty()) continue;
    const std::size_t removed = remove_untracked_files(dir);
    progress_(fmt::format(
        "discarded the build outputs in the {}'s worktree ({} file(s)): {}; it is built again "
        "from clean",
        side_name(side), removed, why));
  }
  fs::remove(void_marker, ec);
}

namespace {

// What decides how a build tree is configured: the build command, and the variables of the
// environment that configure steps read (a compiler, its flags, where packages are found).
std::string build_key(const Config& config) {
  std::string command;  // one line: a command of several lines keeps them as "\n"
  for (char c : config.build) command += c == '\n' ? std::string("\\n") : std::string(1, c);
  std::string key = "build: " + command + "\n";
  for (const char* name :
       {"CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "CMAKE_PREFIX_PATH",
        "CMAKE_GENERATOR", "CMAKE_BUILD_TYPE", "PKG_CONFIG_PATH"}) {
    if (const char* value = std::getenv(name)) key += std::string(name) + "=" + value + "\n";
  }
  return key;
}

std::optional<std::string> read_small_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line of two keys that differs, in words: "the build command changed (was `a`)" or
// "CXX changed (was `g++`)".
std::string key_change(const std::string& before, const std::string& now) {
  const auto lines = [](const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      const auto at = line.find(line.rfind("build: ", 0) == 0 ? ':' : '=');
      if (at == std::string::npos) continue;
      out[line.substr(0, at)] = line.substr(at + (line[at] == ':' ? 2 : 1));
    }
    return out;
  };
  const auto was = lines(before);
  const auto is = lines(now);
  const auto shown = [](const std::string& v) {
    return "`" + (v.size() > 200 ? v.substr(0, 200) + "…" : v) + "`";
  };
  std::set<std::string> names;
  for (const auto& [k, v] : was) names.insert(k);
  for (const auto& [k, v] : is) names.insert(k);
  for (const std::string& name : names) {
    const auto a = was.find(name);
    const auto b = is.find(name);
    if (a != was.end() && b != is.end() && a->second == b->second) continue;
    const std::string what = name == "build" ? "the build command" : name;
    if (a == was.end()) return what + " is set now (" + shown(b->second) + ")";
    if (b == is.end()) return what + " is no longer set (was " + shown(a->second) + ")";
    return what + " changed (was " + shown(a->second) + ", now " + shown(b->second) + ")";
  }
  return "the build's configuration changed";
}

}  // namespace

void Session::discard_build_trees_of_another_build(const Results& results) {
  if (setup_.records_dir.empty() || results.config.build.empty() || setup_.skip_build) return;
  const std::string key = build_key(results.config);
  for (Side side : {Side::Base, Side::Head}) {
    const std::string& dir = side == Side::Base ? setup_.base_dir : setup_.head_dir;
    const std::string record =
        setup_.records_dir + (side == Side::Base ? "/base.build-key" : "/head.build-key");
    const std::optional<std::string> before = read_small_file(record);
    const std::size_t outputs = untracked_state(dir).size();
    if (outputs > 0) {
      if (before == key) {
        progress_(fmt::format(
            "reusing the {}'s build tree from an earlier comparison ({} file(s) in {}, made by "
            "the same build command): an incremental build; delete the work directory to build "
            "from clean",
            side_name(side), outputs, dir));
      } else {
        const std::string why = before ? key_change(*before, key) + " since it was built"
                                       : "no record of the build command that made it";
        const std::size_t removed = remove_untracked_files(dir);
        progress_(fmt::format(
            "discarded the build outputs in the {}'s worktree ({} file(s)): {}; it is configured "
            "and built afresh",
            side_name(side), removed, why));
      }
    }
    try {
      file_system_.write_atomically(record, key);
    } catch (const StoreError& e) {
      progress_(std::string("warning: ") + e.what());
    }
  }
}

void Session::run_measuring(Results& results) {
  results.placement_shifts.clear();
  const bool base_ok = build(results, Side::Base);
  // The suites a zero-config comparison finds in the base's build, known before the PR's code
  // runs: the base's programs are then relinked for the placement control from files the PR's
  // build has not had a chance to touch.
  if (base_ok && !exec::interrupt_requested() && setup_.after_build) setup_.after_build(results);
  std::optional<std::string> no_control = placement_control_wanted(results);
  if (base_ok && !no_control && !exec::interrupt_requested())
    no_control = relink_side(results, Side::Base);
  // The PR's build (and relinks) run after the base's and as the same user: they must leave the
  // base's worktree as the base's build left it.
  const WholeTreeState base_built = whole_tree_state(setup_.base_dir);
  const bool records =
      !setup_.records_dir.empty() && !results.config.build.empty() && !setup_.skip_build;
  if (records && base_ok)
    save_tree_state(untracked_state(setup_.base_dir), built_record(setup_.records_dir, Side::Base));
  const bool head_ok = !exec::interrupt_requested() && build(results, Side::Head);
  const bool head_relinks = head_ok && !no_control && !exec::interrupt_requested();
  if (head_relinks) no_control = relink_side(results, Side::Head);
  if (records && head_ok)
    save_tree_state(untracked_state(setup_.head_dir), built_record(setup_.records_dir, Side::Head));
  if (const auto change = first_tree_change(base_built, whole_tree_state(setup_.base_dir)))
    throw TamperError("the base's worktree changed during the PR's build" +
                      std::string(head_relinks ? " and relinks" : "") + " (" + *change +
                      "): the PR's build wrote into the base's files; the comparison is void");
  if (exec::interrupt_requested()) {
    mark_interrupted(results, 0);
    persist(results);
    return;
  }
  if (!base_ok || !head_ok) {
    results.complete = true;
    results.stop = {StopKind::BuildFailed, 0, {}};
    persist(results);
    return;
  }
  if (!no_control) {
    results.placement_shifts = kPlacementShifts;
    // Whole cycles: a reading weighs every placement the same only over all of them.
    const int whole = whole_placement_cycles(results.config.rounds, kPlacementShifts.size());
    if (whole != results.config.rounds) {
      progress_(
          fmt::format("{} analysed rounds rather than {}: whole cycles of the {} placements "
                      "(each in both orders)",
                      whole, results.config.rounds, kPlacementShifts.size()));
      results.config.rounds = whole;
      results.plan = make_schedule(whole, results.config.warmup_rounds, results.seed);
    }
  } else if (!no_control->empty()) {
    progress_("no placement control (each round runs the programs as built): " + *no_control);
  }
  record_programs(results);
  results.executables = files_->digests();
  if (setup_.select_work) {
    WorkSelection w = setup_.select_work(results);
    if (w.nothing) {
      results.complete = true;
      results.stop = {StopKind::NothingToMeasure, 0, w.nothing_reason};
      results.overhead_seconds = std::max(0.0, now_seconds() - started_ - child_seconds_);
      persist(results);
      return;
    }
    // A shard's benchmarks are the "open" ones from the start: the same mechanism that runs
    // only the undecided benchmarks after an adaptive look.
    for (auto& [suite, names] : w.benchmarks) open_[suite] = std::move(names);
    skipped_suites_ = std::move(w.skipped_suites);
  }
  if (results.origin == Origin::Revisions) skip_identical_suites(results);
  // Instruction counts first: the time plan then sizes the rounds to what is left of the budget.
  if (!count_instructions_phase(results)) {
    mark_interrupted(results, 0);
    persist(results);
    return;
  }
  const bool any_time = std::any_of(results.config.suites.begin(), results.config.suites.end(),
                                    [&](const SuiteConfig& s) { return Config::measures_time(s); });
  const bool any_timed = std::any_of(
      results.config.suites.begin(), results.config.suites.end(), [&](const SuiteConfig& s) {
        return Config::measures_time(s) && !skipped_suites_.count(s.name);
      });
  if (setup_.budget_seconds > 0 || results.config.budget_seconds)
    designer_.set_min_time(kPlannedMinTime);
  if (any_time && !any_timed && !results.identical_suites.empty()) {
    // Every suite that would be timed runs identical programs on both sides (or is another
    // shard's): there is nothing to time.
    results.plan.clear();
    results.complete = true;
    results.stop = {StopKind::IdenticalPrograms, 0, {}};
    progress_(describe(results.stop));
    profile_phase(results);
    finish(results);
    return;
  }
  if (!any_time) {
    // Only instruction counts: exact, so there are no rounds to run.
    results.plan.clear();
    results.complete = true;
    results.stop = {StopKind::CountsOnly, 0, {}};
    profile_phase(results);
    finish(results);
    return;
  }
  // The hot code is compared before the rounds: a look can then close a benchmark whose counts
  // and code settle what its time cannot (core/evidence/placement.hpp), and the budget goes to the
  // rest.
  code_evidence_phase(results);
  run_rounds_and_finish(results);
}

std::unique_ptr<SuiteFiles> Session::make_suite_files() const {
  return std::make_unique<SuiteFiles>(
      setup_.copy_dir.empty() ? setup_.out_dir + "/exe" : setup_.copy_dir, setup_.base_dir,
      setup_.head_dir);
}

void Session::check_programs_untouched(const Results& results) {
  // A second record, in the work directory rather than the results file: the state (inode,
  // size, change time, which the file's owner cannot set back) of each side's build outputs
  // right after its build. A program replaced since, even with the file's digest rewritten to
  // match, has another inode or change time.
  if (setup_.records_dir.empty()) return;
  for (Side side : {Side::Base, Side::Head}) {
    const auto built = load_tree_state(built_record(setup_.records_dir, side));
    if (!built) continue;
    const WholeTreeState now =
        untracked_state(side == Side::Base ? setup_.base_dir : setup_.head_dir);
    for (const ExecutableDigest& x : results.executables) {
      if (x.side != side) continue;
      const auto was = built->find(x.path);
      if (was == built->end()) continue;  // not a build output (a tracked script)
      const auto is = now.find(x.path);
      if (is != now.end() && is->second == was->second) continue;
      files_.reset();
      throw TamperError(fmt::format(
          "cannot resume: the {}'s {} (suite {}) was {} since its build (the work directory's "
          "record of the build differs): code run since changed what would be measured; run the "
          "comparison again without --resume",
          side_name(side), x.path, x.suite, is == now.end() ? "removed" : "rewritten"));
    }
  }
}

void Session::record_programs(const Results& results) {
  files_ = make_suite_files();
  // The programs that run: timed, or counted (the base counted again after the PR's runs must
  // find its program as built, also in a suite of counts only).
  std::vector<SuiteConfig> run;
  for (const SuiteConfig& s : results.config.suites)
    if (Config::measures_time(s) || results.config.counts_instructions(s)) run.push_back(s);
  for (const std::string& line : files_->record(
           run, results.config.build.empty() || setup_.skip_build, results.placement_shifts))
    progress_(line);
}

void Session::verify_resumed_programs(Results& results) {
  record_programs(results);
  std::vector<ExecutableDigest> now = files_->digests();
  std::vector<ExecutableDigest> then = results.executables;
  const auto order = [](const ExecutableDigest& a, const ExecutableDigest& b) {
    return std::tie(a.suite, a.side, a.path) < std::tie(b.suite, b.side, b.path);
  };
  std::sort(now.begin(), now.end(), order);
  std::sort(then.begin(), then.end(), order);
  if (now == then) {
    check_programs_untouched(results);
    return;
  }
  // The first difference, named: a program replaced, or one run now that was not recorded.
  std::string what;
  std::string cause =
      ": code run since the builds (or an edit of the results file) changed what would be "
      "measured";
  for (const ExecutableDigest& x : now) {
    const auto it = std::find_if(then.begin(), then.end(), [&](const ExecutableDigest& y) {
      return y.suite == x.suite && y.side == x.side && y.path == x.path;
    });
    if (it == then.end()) {
      // Not proof of tampering: a file written before a suite of counts only had its programs
      // recorded holds none for it. Either way the program cannot be shown to be the one built.
      what = fmt::format(
          "the {}'s {} (suite {}) has no digest in the results file, so it cannot be shown to be "
          "the program that was built (a file written by an older benchpr, or an edited one)",
          side_name(x.side), x.path, x.suite);
      cause = "";
      break;
    }
    if (it->sha256 != x.sha256) {
      what = fmt::format(
          "the {}'s {} (suite {}) is not the file that was built (SHA-256 {} "
          "then, {} now)",
          side_name(x.side), x.path, x.suite, it->sha256.substr(0, 12), x.sha256.substr(0, 12));
      break;
    }
  }
  if (what.empty()) what = "the results file records programs this run does not find";
  files_.reset();
  throw TamperError("cannot resume: " + what + cause +
                    "; run the comparison again without --resume");
}

void Session::resume(Results& results) {
  // The budget counts the time spent before the interruption; the builds, the suites found
  // after them and the instruction counts are the file's; the programs are the ones the
  // file's digests name (verify_resumed_programs).
  started_ = now_seconds() - results.measuring_seconds;
  child_seconds_ = 0;
  resume_from_ = results.rounds_done;
  results.resumed_rounds = results.rounds_done;
  // The suites found identical after the builds stay untimed.
  skipped_suites_.insert(results.identical_suites.begin(), results.identical_suites.end());
  // The file's evidence of the code is not read back into the looks: it is compared again from
  // this process's counted runs (none when the counts are the file's: evidence missing).
  results.hot_code.clear();
  if (results.rounds_done == 0 && !count_instructions_phase(results)) {
    mark_interrupted(results, 0);
    persist(results);
    return;
  }
  code_evidence_phase(results);
  if (results.config.budget_seconds) designer_.set_min_time(kPlannedMinTime);
  // The round design in force when it stopped (the time plan's, updated at every look).
  designer_.resume(results.config, results.time_plan);
  run_rounds_and_finish(results);
}

// The rounds (adaptive within a budget, else the fixed plan), then what every session ends with.
void Session::run_rounds_and_finish(Results& results) {
  if (results.config.budget_seconds) {
    run_adaptive(results);
  } else if (run_planned(results)) {
    results.complete = true;
    results.stop = {StopKind::PlanDone, static_cast<int>(results.plan.size()), {}};
  }
  // The hot code was compared before the rounds (start, resume): the verdicts read it.
  if (results.complete) profile_phase(results);
  finish(results);
}

void Session::finish(Results& results) {
  finish_failures(results);
  // The session's whole wall time, the phases after the rounds (the profiles) included: what
  // the footer states as "measured for", against the budget.
  results.measuring_seconds = now_seconds() - started_;
  results.overhead_seconds = std::max(0.0, now_seconds() - started_ - child_seconds_);
  persist(results);
}

}  // namespace benchpr::runner
