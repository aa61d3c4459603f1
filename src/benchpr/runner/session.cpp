#include "benchpr/runner/session.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchpr/core/adaptive.hpp"
#include "benchpr/core/duration.hpp"
#include "benchpr/core/instruction_analysis.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/core/schedule.hpp"
#include "benchpr/core/series_key.hpp"
#include "benchpr/core/session_analysis.hpp"
#include "benchpr/core/text.hpp"
#include "benchpr/core/time_plan.hpp"
#include "benchpr/core/wording.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/benchmark_filter.hpp"
#include "benchpr/runner/command_suite.hpp"
#include "benchpr/runner/cpu_load.hpp"
#include "benchpr/runner/crash_probe.hpp"
#include "benchpr/runner/instruction_counts.hpp"
#include "benchpr/runner/name_filter.hpp"
#include "benchpr/runner/profiles.hpp"
#include "benchpr/runner/results_store.hpp"
#include "benchpr/runner/suite_command.hpp"

namespace benchpr::runner {

namespace {

std::string side_name(Side s) { return s == Side::Base ? "base" : "PR"; }
Side other(Side s) { return s == Side::Base ? Side::Head : Side::Base; }

// Keeps the last `lines` lines: enough to see the error, small enough for a comment.
std::string last_lines(const std::string& text, std::size_t lines) {
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') --pos;
  for (std::size_t n = 0; pos > 0; --pos) {
    if (text[pos - 1] == '\n' && ++n == lines) break;
  }
  return text.substr(pos);
}

// Why the benchmark has no value on that side (the latest reason wins).
void set_failure(BenchmarkSeries& s, Side side, std::string why, FailureKind kind) {
  (side == Side::Base ? s.base_failure : s.head_failure) = std::move(why);
  (side == Side::Base ? s.base_failure_kind : s.head_failure_kind) = kind;
}

// "round 3" as the comment's per-round table counts (analysed rounds from 1), or "the warm-up".
std::string round_label(const Results& r, int index) {
  if (index >= 0 && static_cast<std::size_t>(index) < r.plan.size() &&
      r.plan[static_cast<std::size_t>(index)].warmup)
    return "the warm-up round";
  int number = 0;
  for (const RoundPlan& p : r.plan) {
    if (!p.warmup) ++number;
    if (p.index == index) break;
  }
  return fmt::format("round {}", number);
}

int analysed_index_to_plan(const Results& r, int analysed) {
  return r.config.warmup_rounds + analysed;
}

// Seconds the builds took (both sides run in parallel or in turn; their sum is what they cost).
double build_seconds(const Results& results) {
  double total = 0;
  for (const BuildResult& b : results.builds) total += b.seconds;
  return total;
}

}  // namespace

bool Session::sized_by_plan(const Config& config, const SuiteConfig& suite, bool reads_file) const {
  // A min time in the suite's own command or in --bench-args is the user's choice, and a
  // command with an {out} placeholder is the user's own argument list: all are left alone.
  const auto sets_min_time = [](const std::string& s) {
    return s.find("--benchmark_min_time") != std::string::npos;
  };
  return min_time_ > 0 && suite.format == FormatKind::GoogleBenchmark && reads_file &&
         !sets_min_time(suite.run) && !sets_min_time(config.bench_args) &&
         suite.run.find("{out}") == std::string::npos;
}

Session::Session(exec::ProcessRunner& processes, SessionSetup setup, ProgressFn progress,
                 const Clock& clock)
    : processes_(processes),
      clock_(clock),
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
      write_file_atomically(path, persist_buffer_);
    } catch (const StoreError& e) {
      progress_(std::string("warning: ") + e.what());
      write_error_ = e.what();
    }
  }
}

bool Session::build(Results& results, Side side) {
  const Config& c = results.config;
  BuildResult b;
  b.side = side;
  if (c.build.empty() || setup_.skip_build) {
    results.builds.push_back(b);
    return true;
  }
  progress_(fmt::format("building the {} ({})", side == Side::Base ? "base revision" : "PR",
                        short_sha(side == Side::Base ? results.base.sha : results.head.sha)));
  exec::ProcessSpec spec;
  spec.command = c.build;
  spec.cwd = side == Side::Base ? setup_.base_dir : setup_.head_dir;
  spec.timeout_seconds = c.build_timeout_seconds;
  spec.scrub_env = c.scrub_env;
  spec.log_path = fmt::format("{}/build-{}.log", setup_.log_dir, to_string(side));
  std::error_code ec;
  std::filesystem::remove(spec.log_path, ec);
  spec.tail_bytes = exec::kBuildTailBytes;
  const exec::ProcessResult p = processes_.run(spec);
  child_seconds_ += p.wall_seconds;
  b.seconds = p.wall_seconds;
  b.ok = p.ok();
  if (!b.ok) {
    b.failure = *p.describe_failure(spec.timeout_seconds);
    b.failure_kind = p.failure_kind();
    b.log_tail = last_lines(p.output_tail, 40);
    progress_(fmt::format("the {} failed to build: {} (log: {})", side_name(side), b.failure,
                          spec.log_path));
  } else {
    progress_(fmt::format("built the {} in {}", side_name(side), format_duration(b.seconds)));
  }
  results.builds.push_back(b);
  return b.ok;
}

std::vector<std::string> Session::selection(const SuiteConfig& suite, Side side, bool* skip) const {
  // Which benchmarks this run must include: everything (empty result), or an explicit list
  // when crashers are excluded or adaptive rounds narrowed the suite to its open benchmarks.
  *skip = false;
  if (suite.format != FormatKind::GoogleBenchmark) return {};
  const auto crashed = crashed_.find({suite.name, side});
  const auto open = open_.find(suite.name);
  if (crashed == crashed_.end() && open == open_.end()) return {};
  std::vector<std::string> names;
  if (open != open_.end()) {
    names = open->second;
  } else if (auto listed = listed_.find({suite.name, side}); listed != listed_.end()) {
    names = listed->second;
  }
  if (crashed != crashed_.end())
    std::erase_if(names, [&](const std::string& n) { return crashed->second.count(n) > 0; });
  *skip = names.empty();
  return names;
}

RunRecord& Session::run_process(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                                Side side, int position, const std::vector<std::string>& only) {
  const Config& c = results.config;
  RunRecord rec;
  rec.round = round.index;
  rec.suite = suite.name;
  rec.side = side;
  rec.position = position;
  rec.started = now_seconds() - started_;

  const std::unique_ptr<formats::Format> format = formats::make_format(suite);
  // Every process of a side's turn has files of its own: the later processes of a selection
  // split over several, or the rerun after a crash, would otherwise overwrite the log of one that
  // failed, which its failure message names.
  const auto earlier =
      std::count_if(results.runs.begin(), results.runs.end(), [&](const RunRecord& r) {
        return r.round == round.index && r.side == side && r.suite == suite.name;
      });
  const std::string stem =
      earlier == 0
          ? fmt::format("r{}-{}-{}", round.index, suite.name, to_string(side))
          : fmt::format("r{}-{}-{}-{}", round.index, suite.name, to_string(side), earlier + 1);
  const std::string out_path = fmt::format("{}/{}.json", setup_.out_dir, stem);
  std::error_code ec;
  std::filesystem::remove(out_path, ec);
  // --filter: Google Benchmark skips the others itself; every format's results are filtered
  // below. A literal filter for open or surviving benchmarks wins over it.
  RunFlags flags;
  flags.repetitions = repetitions(results);
  flags.bench_args = c.bench_args;
  flags.filter = c.filter;
  flags.only = only;
  if (sized_by_plan(c, suite, /*reads_file=*/true)) flags.min_time = min_time_;
  const RunCommand cmd = make_run_command(suite, *format, out_path, flags);

  exec::ProcessSpec spec;
  spec.command = cmd.command;
  if (files_) {
    files_->verify(suite.name, side);
    spec.command = files_->command_for(suite.name, side, cmd.command);
    spec.set_env = files_->environment_for(suite.name, side);
  }
  spec.cwd = side == Side::Base ? setup_.base_dir : setup_.head_dir;
  spec.timeout_seconds = c.timeout_for(suite);
  spec.scrub_env = c.scrub_env;
  spec.set_env.insert(spec.set_env.end(), cmd.env.begin(), cmd.env.end());
  spec.log_path = fmt::format("{}/{}.log", setup_.log_dir, stem);
  std::filesystem::remove(spec.log_path, ec);
  spec.tail_bytes = cmd.reads_file ? exec::kRunTailBytes : formats::kMaxInputBytes;
  if (format->measures_process()) {
    RunRecord& measured = run_measured_command(results, rec, spec, suite, side);
    if (files_) files_->after_run(side);
    return measured;
  }
  const CpuSample before = sample_cpu();
  const exec::ProcessResult p = processes_.run(spec);
  if (files_) files_->after_run(side);
  child_seconds_ += p.wall_seconds;
  rec.seconds = p.wall_seconds;
  record_cpu(rec, p.user_seconds + p.system_seconds, before, sample_cpu());
  rec.leftover_processes = p.leftover_processes;
  if (p.leftover_processes > 0)
    progress_(fmt::format("  warning: {} {} left {} process(es) running; benchpr killed them",
                          side_name(side), suite.name, p.leftover_processes));

  auto fail_run = [&](std::string why, FailureKind kind) {
    rec.ok = false;
    rec.failure = std::move(why);
    rec.failure_kind = kind;
    rec.log_tail = last_lines(p.output_tail, 20);
  };
  if (!p.ok()) fail_run(*p.describe_failure(spec.timeout_seconds), p.failure_kind());
  if (rec.failure_kind == FailureKind::Timeout) given_up_[{suite.name, side}] = rec.failure;

  // Parse what the run left behind even when it failed: a suite whose process failed late
  // may still have measured the others.
  std::string content;
  bool have_output = false;
  if (cmd.reads_file) {
    // symlink_status: a link the run left there is reported, not followed.
    if (std::filesystem::exists(std::filesystem::symlink_status(out_path, ec))) {
      try {
        content = read_text_file(out_path, formats::kMaxInputBytes);
        have_output = true;
      } catch (const StoreError& e) {
        if (rec.ok) fail_run(e.what(), FailureKind::BadOutput);
      }
    } else if (rec.ok) {
      fail_run("wrote no results file (expected " + out_path + ")", FailureKind::BadOutput);
    }
  } else if (p.output_bytes > spec.tail_bytes) {
    // Only the last tail_bytes were kept: parsing them would report a wrong reason (once "the
    // file is empty" for 70 MB of output).
    if (rec.ok)
      fail_run(
          fmt::format(
              "printed {} bytes of output, more than the {} MiB benchpr reads from standard output "
              "(have the suite write its results to a file: {{out}} in its run command)",
              p.output_bytes, spec.tail_bytes >> 20),
          FailureKind::BadOutput);
  } else {
    content = p.output_tail;
    have_output = true;
  }
  bool measured = false;  // the run left a result or a failure of some benchmark
  if (have_output && !p.interrupted) {
    try {
      ParsedRun parsed = format->parse(content);
      if (!c.filter.empty()) {
        const std::optional<std::regex> keep = compile_filter(c.filter);
        const auto kept = [&](const std::string& name) { return filter_matches(keep, name); };
        std::erase_if(parsed.measurements, [&](const Measurement& m) { return !kept(m.name); });
        std::erase_if(parsed.failures, [&](const BenchmarkFailure& f) { return !kept(f.name); });
      }
      if (!suite.exclude.empty()) {
        std::erase_if(parsed.measurements,
                      [&](const Measurement& m) { return excluded(suite, m.name); });
        std::erase_if(parsed.failures,
                      [&](const BenchmarkFailure& f) { return excluded(suite, f.name); });
      }
      measured = !parsed.measurements.empty() || !parsed.failures.empty();
      record_run(results, series_index_, suite, side, round.index, parsed);
      if (flags.min_time) note_within(suite.name, parsed, *flags.min_time);
    } catch (const formats::ParseError& e) {
      if (rec.ok)
        fail_run(std::string("could not read its output: ") + e.what(), FailureKind::BadOutput);
    }
  }
  if (!c.filter.empty() && p.ok() && !measured && !p.interrupted) {
    // Nothing matched --filter (Google Benchmark then leaves an empty file): not a failure of
    // the suite, and not worth another run.
    rec.ok = true;
    rec.failure.clear();
    rec.failure_kind = FailureKind::None;
    unselected_.insert({suite.name, side});
    progress_(fmt::format("  {} {}: no benchmark matches --filter {}; skipped", side_name(side),
                          suite.name, shell_quote(c.filter)));
  }
  if (!rec.ok && !p.interrupted) {
    progress_(fmt::format("  {} {}: {} (log: {})", side_name(side), suite.name, rec.failure,
                          spec.log_path));
    // The cause ("sh: 1: build/core_bnech: not found") is usually in the last lines.
    std::istringstream tail(last_lines(p.output_tail, 5));
    for (std::string line; std::getline(tail, line);) {
      std::erase_if(line, [](char ch) {
        const auto u = static_cast<unsigned char>(ch);
        return (u < 0x20 && ch != '\t') || u == 0x7f;
      });
      if (line.size() > 300) line.resize(300);
      progress_("    | " + line);
    }
    // A suite that measured nothing in its first run fails the same way in every later one
    // (a flag or an argument it refuses, a missing file): reported once, the others go on. A
    // crash is probed for the benchmark behind it instead.
    if ((round.warmup || round.index == 0) && !measured &&
        rec.failure_kind != FailureKind::Signal && !given_up_.count({suite.name, side})) {
      given_up_[{suite.name, side}] = rec.failure;
      progress_(fmt::format("  {} is not run again on the {}: it failed in {}", suite.name,
                            side_name(side),
                            round.warmup ? "the warm-up round" : "its first round"));
    }
  }
  results.runs.push_back(std::move(rec));
  return results.runs.back();
}

RunRecord& Session::run_measured_command(Results& results, RunRecord& rec,
                                         const exec::ProcessSpec& spec, const SuiteConfig& suite,
                                         Side side) {
  // `command` suites: benchpr is the measuring tool, timing the command itself K times.
  CommandRunInfo info;
  const CpuSample before = sample_cpu();
  const ParsedRun parsed =
      measure_command(processes_, spec, results.config.repetitions, suite, &info);
  child_seconds_ += info.seconds;
  rec.seconds = info.seconds;
  record_cpu(rec, info.cpu_seconds, before, sample_cpu());
  rec.leftover_processes = info.leftover_processes;
  if (info.leftover_processes > 0)
    progress_(fmt::format("  warning: {} {} left {} process(es) running; benchpr killed them",
                          side_name(side), suite.name, info.leftover_processes));
  if (info.failure_kind != FailureKind::None) {
    rec.ok = false;
    rec.failure = info.failure;
    rec.failure_kind = info.failure_kind;
    rec.log_tail = last_lines(info.output_tail, 20);
    if (info.failure_kind == FailureKind::Timeout) given_up_[{suite.name, side}] = info.failure;
    progress_(fmt::format("  {} {}: {}", side_name(side), suite.name, rec.failure));
  }
  record_run(results, series_index_, suite, side, rec.round, parsed);
  results.runs.push_back(std::move(rec));
  return results.runs.back();
}

void Session::handle_crash(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                           Side side, int position) {
  // Probed once per suite and side: what one probe could not find, later ones would not either.
  if (!probed_.insert({suite.name, side}).second) return;
  exec::ProcessSpec spec;
  spec.cwd = side == Side::Base ? setup_.base_dir : setup_.head_dir;
  spec.timeout_seconds = results.config.timeout_for(suite);
  spec.scrub_env = results.config.scrub_env;
  progress_(fmt::format("  finding which benchmark of {} crashes on the {}", suite.name,
                        side_name(side)));
  // A shard (or an adaptive look) probes only the benchmarks it runs: the others are not its to
  // name, and a large suite's share may be small enough to probe when the suite is not.
  const auto open = open_.find(suite.name);
  const CrashProbe probe = probe_crashing_benchmarks(processes_, spec, suite.run, 200,
                                                     open != open_.end() ? &open->second : nullptr);
  if (probe.unprobed > 0)
    progress_(fmt::format("  the probe's time ({}) ran out with {} benchmark(s) of {} unprobed",
                          format_duration(spec.timeout_seconds), probe.unprobed, suite.name));
  if (!probe.listed || probe.crashers.empty()) return;
  listed_[{suite.name, side}] = probe.names;
  for (const BenchmarkFailure& crasher : probe.crashers) {
    crashed_[{suite.name, side}].insert(crasher.name);
    set_failure(series_index_.find_or_add(results, suite.name, crasher.name, "", Better::Lower),
                side, crasher.reason, crasher.kind);
    progress_(fmt::format("  {} crashes on the {} ({}): left out of its later runs", crasher.name,
                          side_name(side), crasher.reason));
  }
  // Run the rest of the suite again in this round, so the other benchmarks are still compared.
  bool skip = false;
  const std::vector<std::string> rest = selection(suite, side, &skip);
  if (skip) return;
  for (const std::vector<std::string>& group : filter_groups(rest))
    run_process(results, round, suite, side, position, group);
}

void Session::run_suite(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                        Side side, int position) {
  if (unselected_.count({suite.name, side})) return;  // nothing matches --filter
  if (auto it = given_up_.find({suite.name, side}); it != given_up_.end()) {
    RunRecord rec;
    rec.round = round.index;
    rec.suite = suite.name;
    rec.side = side;
    rec.position = position;
    rec.ok = false;
    rec.failure = "not run again: " + it->second + " earlier";
    rec.failure_kind = FailureKind::GivenUp;
    results.runs.push_back(std::move(rec));
    return;
  }
  bool skip = false;
  const std::vector<std::string> only = selection(suite, side, &skip);
  if (skip) return;
  // A selection too long for one command line (thousands of names) runs in several processes,
  // one after the other in this side's turn.
  bool crashed = false;
  for (const std::vector<std::string>& group : filter_groups(only)) {
    if (given_up_.count({suite.name, side})) break;  // a group timed out
    crashed = run_process(results, round, suite, side, position, group).failure_kind ==
                  FailureKind::Signal ||
              crashed;
  }
  // Only a signal is a crash worth looking for one benchmark behind. An exit code is the
  // program's own decision (a flag it refuses, a sanitizer's report, an exit() in a benchmark):
  // every probe would end the same way, so the suite's failure is reported as it is. A run that
  // did not start (126, 127), a timeout or a bad output have no crasher to look for either.
  if (crashed && suite.format == FormatKind::GoogleBenchmark && !exec::interrupt_requested() &&
      crashed_.find({suite.name, side}) == crashed_.end()) {
    handle_crash(results, round, suite, side, position);
  }
}

void Session::finish_failures(Results& results) {
  // A failed run leaves its benchmarks without values in that round; say why on the series so
  // the analysis reports them as failed instead of silently comparing fewer rounds. A run that
  // was repeated without its crashing benchmarks only counts for the benchmarks still missing.
  std::set<std::string> instruction_suites;
  for (const SuiteConfig& s : results.config.suites)
    instruction_suites.insert(instruction_suite_name(s.name));
  // Looked up once per series of every failed run: sets, not the lists, so that a suite of
  // 100,000 benchmarks failing in every round stays linear.
  std::map<std::string, std::unordered_set<std::string_view>> open;
  for (const auto& [suite, names] : open_) open[suite].insert(names.begin(), names.end());
  for (const RunRecord& rec : results.runs) {
    // Callgrind runs are one benchmark each and record their failure on it themselves.
    if (rec.ok || instruction_suites.count(rec.suite)) continue;
    bool any = false;
    for (BenchmarkSeries& s : results.series) {
      if (s.suite != rec.suite) continue;
      any = true;
      const auto& values = rec.side == Side::Base ? s.base : s.head;
      const auto idx = static_cast<std::size_t>(rec.round);
      const bool missing = idx >= values.size() || is_missing(values[idx]);
      if (!missing) continue;
      // Benchmarks deliberately not run (left out after a crash, or decided by an earlier
      // adaptive look) are missing for a known reason already recorded.
      if (const auto crashed = crashed_.find({s.suite, rec.side});
          crashed != crashed_.end() && crashed->second.count(s.name))
        continue;
      if (const auto still_open = open.find(s.suite);
          still_open != open.end() && !still_open->second.contains(s.name))
        continue;
      if ((rec.side == Side::Base ? s.base_failure : s.head_failure).empty())
        set_failure(s, rec.side,
                    fmt::format("suite {} {} in {}", rec.suite, rec.failure,
                                round_label(results, rec.round)),
                    rec.failure_kind);
    }
    if (!any) {
      // The suite never reported a benchmark: keep the failure visible as a row of its own.
      BenchmarkSeries s;
      s.suite = rec.suite;
      s.name = "(suite " + rec.suite + ")";
      set_failure(
          s, rec.side,
          fmt::format("suite {} {} in {}", rec.suite, rec.failure, round_label(results, rec.round)),
          rec.failure_kind);
      results.series.push_back(std::move(s));
    }
  }
}

void Session::mark_interrupted(Results& results, int round) {
  // The interrupted round is incomplete: its values would be unpaired. Drop them.
  const auto keep = static_cast<std::size_t>(round);
  for (BenchmarkSeries& s : results.series) {
    if (s.base.size() > keep) s.base.resize(keep);
    if (s.head.size() > keep) s.head.resize(keep);
  }
  std::erase_if(results.runs, [&](const RunRecord& r) { return r.round >= round; });
  results.complete = false;
  const std::string signal = exec::signal_name(exec::interrupt_signal());
  results.stop_reason = signal.empty() ? "interrupted" : "interrupted by " + signal;
}

void Session::run(Results& results) {
  if (setup_.resume) {
    resume(results);
    return;
  }
  started_ = now_seconds();
  child_seconds_ = 0;
  clean_unbuilt_worktrees(results);
  try {
    run_measuring(results);
  } catch (const TamperError& e) {
    // What was measured before stays, but the comparison ends here and says why.
    if (files_) files_->end_round();
    results.complete = false;
    results.stop_reason = e.what();
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

void Session::run_measuring(Results& results) {
  const bool base_ok = build(results, Side::Base);
  // The PR's build runs after the base's and as the same user: it must leave the base's
  // worktree as the base's build left it.
  const WholeTreeState base_built = whole_tree_state(setup_.base_dir);
  const bool head_ok = !exec::interrupt_requested() && build(results, Side::Head);
  if (const auto change = first_tree_change(base_built, whole_tree_state(setup_.base_dir)))
    throw TamperError("the base's worktree changed during the PR's build (" + *change +
                      "): the PR's build wrote into the base's files; the comparison is void");
  if (exec::interrupt_requested()) {
    mark_interrupted(results, 0);
    persist(results);
    return;
  }
  if (!base_ok || !head_ok) {
    results.complete = true;
    results.stop_reason = "build failed";
    persist(results);
    return;
  }
  if (setup_.after_build) setup_.after_build(results);
  files_ = std::make_unique<SuiteFiles>(
      setup_.copy_dir.empty() ? setup_.out_dir + "/exe" : setup_.copy_dir, setup_.base_dir,
      setup_.head_dir);
  std::vector<SuiteConfig> timed;
  for (const SuiteConfig& s : results.config.suites)
    if (Config::measures_time(s)) timed.push_back(s);
  for (const std::string& line :
       files_->record(timed, results.config.build.empty() || setup_.skip_build))
    progress_(line);
  if (setup_.select_work) {
    WorkSelection w = setup_.select_work(results);
    if (w.nothing) {
      results.complete = true;
      results.stop_reason = w.nothing_reason;
      results.overhead_seconds = std::max(0.0, now_seconds() - started_ - child_seconds_);
      persist(results);
      return;
    }
    // A shard's benchmarks are the "open" ones from the start: the same mechanism that runs
    // only the undecided benchmarks after an adaptive look.
    for (auto& [suite, names] : w.benchmarks) open_[suite] = std::move(names);
    skipped_suites_ = std::move(w.skipped_suites);
  }
  // Instruction counts first: the time plan then sizes the rounds to what is left of the budget.
  if (!count_instructions_phase(results)) {
    mark_interrupted(results, 0);
    persist(results);
    return;
  }
  const bool any_time = std::any_of(results.config.suites.begin(), results.config.suites.end(),
                                    [](const SuiteConfig& s) { return Config::measures_time(s); });
  if (setup_.budget_seconds > 0 || results.config.budget_seconds) min_time_ = kPlannedMinTime;
  if (!any_time) {
    // Only instruction counts: exact, so there are no rounds to run.
    results.plan.clear();
    results.complete = true;
    results.stop_reason = "instruction counts done";
    profile_phase(results);
    finish(results);
    return;
  }
  run_rounds_and_finish(results);
}

void Session::resume(Results& results) {
  // The budget counts the time spent before the interruption; the builds, the suites found
  // after them and the instruction counts are the file's.
  started_ = now_seconds() - results.measuring_seconds;
  child_seconds_ = 0;
  resume_from_ = results.rounds_done;
  if (results.rounds_done == 0 && !count_instructions_phase(results)) {
    mark_interrupted(results, 0);
    persist(results);
    return;
  }
  if (results.config.budget_seconds) min_time_ = kPlannedMinTime;
  if (results.time_plan && results.time_plan->min_time_seconds > 0)
    min_time_ = results.time_plan->min_time_seconds;
  run_rounds_and_finish(results);
}

// The rounds (adaptive within a budget, else the fixed plan), then what every session ends with.
void Session::run_rounds_and_finish(Results& results) {
  if (results.config.budget_seconds) {
    run_adaptive(results);
  } else if (run_planned(results)) {
    results.complete = true;
    results.stop_reason = fmt::format("all {} rounds done", results.plan.size());
  }
  if (results.complete) profile_phase(results);
  finish(results);
}

void Session::profile_phase(Results& results) {
  if (exec::interrupt_requested()) return;
  results.profiles.clear();
  const std::vector<ProfileRequest> requests =
      profile_requests(results, analyse_session(results), setup_.why);
  if (requests.empty()) return;
  ProfileSetup ps;
  ps.base_dir = setup_.base_dir;
  ps.head_dir = setup_.head_dir;
  ps.work_dir = setup_.out_dir + "/profiles";
  ps.counts_dir = setup_.out_dir + "/instructions";  // count_instructions_phase's work_dir
  ps.why = setup_.why;
  const double budget =
      setup_.budget_seconds > 0 ? setup_.budget_seconds : results.config.budget_seconds.value_or(0);
  if (budget > 0) ps.seconds_left = budget - (now_seconds() - started_);
  const double t0 = now_seconds();
  profile_benchmarks(processes_, results, requests, ps, progress_);
  child_seconds_ += now_seconds() - t0;
}

void Session::finish(Results& results) {
  finish_failures(results);
  results.overhead_seconds = std::max(0.0, now_seconds() - started_ - child_seconds_);
  persist(results);
}

bool Session::count_instructions_phase(Results& results) {
  const auto& suites = results.config.suites;
  if (std::none_of(suites.begin(), suites.end(),
                   [&](const SuiteConfig& s) { return results.config.counts_instructions(s); }))
    return true;
  InstructionSetup is;
  is.base_dir = setup_.base_dir;
  is.head_dir = setup_.head_dir;
  is.work_dir = setup_.out_dir + "/instructions";
  is.log_dir = setup_.log_dir;
  is.parallel = results.machine.cores > 0 ? results.machine.cores : 1;
  is.started = now_seconds() - started_;
  is.only = &open_;  // a shard counts its own share only
  is.skipped_suites = &skipped_suites_;
  const double t0 = now_seconds();
  const bool done = count_instructions(processes_, results, is, progress_);
  child_seconds_ += now_seconds() - t0;
  if (done)
    progress_(fmt::format("counted instructions in {}", format_duration(now_seconds() - t0)));
  persist(results, false);
  return done && !exec::interrupt_requested();
}

bool Session::run_planned(Results& results) {
  int warmups = 0;
  for (const RoundPlan& p : results.plan) warmups += p.warmup ? 1 : 0;
  const int from = resume_from_;
  if (setup_.budget_seconds <= 0 || warmups == 0)
    return run_rounds(results, from, static_cast<int>(results.plan.size()));
  if (from < warmups) {
    if (!run_rounds(results, from, warmups)) return false;
    make_time_plan(results, warmups);
  }
  return run_rounds(results, std::max(from, warmups), static_cast<int>(results.plan.size()));
}

std::vector<SuiteCost> Session::measured_costs(const Results& results, int from, int to) const {
  std::vector<SuiteCost> costs;
  for (const SuiteConfig& suite : results.config.suites) {
    SuiteCost cost;
    cost.suite = suite.name;
    int runs = 0;
    int cpu_runs = 0;
    // The cost of one side's turn, which may be several runs (a selection in groups, a rerun).
    std::set<std::pair<int, Side>> turns;
    for (const RunRecord& r : results.runs) {
      if (r.suite != suite.name || r.round < from || r.round >= to) continue;
      cost.run_seconds += r.seconds;
      ++runs;
      turns.insert({r.round, r.side});
      if (!is_missing(r.cpu_seconds)) {
        cost.cpu_seconds += r.cpu_seconds;
        ++cpu_runs;
      }
    }
    if (runs == 0) continue;
    cost.run_seconds /= static_cast<double>(turns.size());
    // Only when every run has one: a mean over some runs would not match the wall time's.
    cost.cpu_seconds = cpu_runs == runs ? cost.cpu_seconds / static_cast<double>(turns.size()) : 0;
    cost.sized = sized_by_plan(results.config, suite, true);
    cost.min_time = min_time_;
    cost.repetitions = repetitions(results);
    for (const BenchmarkSeries& s : results.series) {
      if (s.suite != suite.name) continue;
      const auto last = static_cast<std::size_t>(to - 1);
      const bool seen = (s.base.size() > last && !is_missing(s.base[last])) ||
                        (s.head.size() > last && !is_missing(s.head[last]));
      cost.benchmarks += seen ? 1 : 0;
    }
    costs.push_back(cost);
  }
  return costs;
}

void Session::note_within(const std::string& suite, const ParsedRun& parsed, double min_time) {
  for (const Measurement& m : parsed.measurements) {
    if (is_missing(m.repetition_log_variance) || !std::isfinite(m.repetition_log_variance))
      continue;
    auto& [sum, count] = within_[series_key(suite, m.name)];
    sum += m.repetition_log_variance * std::pow(min_time / kReferenceMinTime, kWithinExponent);
    ++count;
  }
}

RoundDesign Session::redesign_rounds(const Results& results, std::vector<SuiteCost> costs,
                                     const std::vector<BenchmarkKey>* open, double seconds_left,
                                     int max_rounds, int min_rounds) {
  // Without a suite whose min time benchpr sets there is nothing to design, and the caller's own
  // estimate of a round stays (round_seconds 0).
  if (std::none_of(costs.begin(), costs.end(), [](const SuiteCost& c) { return c.sized; })) {
    RoundDesign unchanged;
    unchanged.min_time = min_time_;
    unchanged.repetitions = repetitions(results);
    unchanged.round_seconds = 0;
    return unchanged;
  }
  RoundDesignInput in;
  in.seconds_left = seconds_left;
  in.max_rounds = max_rounds;
  in.min_rounds = min_rounds;
  in.current.min_time = min_time_;
  in.current.repetitions = repetitions(results);
  in.overhead_seconds_per_round =
      rounds_run_ > 0 ? round_overhead_seconds_ / static_cast<double>(rounds_run_) : 0;
  std::set<std::string> still_open;
  if (open)
    for (const BenchmarkKey& k : *open) still_open.insert(series_key(k.suite, k.name));
  std::map<std::string, int> per_suite;
  for (const BenchmarkSeries& s : results.series) {
    const std::string key = series_key(s.suite, s.name);
    if (open && !still_open.count(key)) continue;
    ++per_suite[s.suite];
    const auto w = within_.find(key);
    const double within = w == within_.end() || w->second.second == 0
                              ? kMissing
                              : w->second.first / static_cast<double>(w->second.second);
    in.benchmarks.push_back(estimate_noise(s, rounds_ran_, within));
  }
  for (SuiteCost& c : costs) {
    if (open) c = for_benchmarks(c, per_suite[c.suite]);
  }
  in.suites = std::move(costs);
  const RoundDesign chosen = choose_round_design(in);
  RoundDesign current = in.current;
  if (chosen.min_time != current.min_time || chosen.repetitions != current.repetitions) {
    RoundDesignInput only_current = in;
    only_current.min_times = {current.min_time};
    only_current.repetitions = {current.repetitions};
    current = choose_round_design(only_current);
    progress_("round design: " + describe_design(chosen, current));
  }
  min_time_ = chosen.min_time;
  repetitions_ = chosen.repetitions;
  return chosen;
}

void Session::make_time_plan(Results& results, int warmup_rounds) {
  TimePlanInput in;
  // The fixed plan's budget, or the adaptive one's (whose first look these rounds become).
  in.budget_seconds = setup_.budget_seconds > 0
                          ? setup_.budget_seconds
                          : results.config.budget_seconds.value_or(kDefaultBudgetSeconds);
  in.spent_seconds = now_seconds() - started_;
  in.rounds = results.config.rounds;
  in.rounds_fixed = setup_.rounds_fixed;
  in.repetitions = repetitions(results);
  in.suites = measured_costs(results, 0, warmup_rounds);
  TimePlan plan = plan_time(in);
  progress_(plan.summary);
  if (plan.min_time_seconds > 0) min_time_ = plan.min_time_seconds;
  if (results.config.budget_seconds && plan.fits && min_time_ > 0) {
    // Adaptive: the rounds' min time and repetitions from the warm-up's within-process noise and
    // costs (the between-process noise is the prior until the first look measures it).
    const int first_look = round_up_even(std::max(plan.rounds, 2));
    const RoundDesign design =
        redesign_rounds(results, in.suites, nullptr, in.budget_seconds - in.spent_seconds,
                        kHorizonInFirstLooks * first_look, first_look);
    plan.min_time_seconds = design.min_time;
    plan.repetitions = design.repetitions;
    if (design.round_seconds > 0) plan.round_seconds = design.round_seconds;
  }
  if (plan.rounds != results.config.rounds) {
    // Same seed: the warm-up and the first blocks are those of the configured schedule.
    results.plan = make_schedule(plan.rounds, warmup_rounds, results.seed);
    results.config.rounds = plan.rounds;
  }
  results.time_plan = std::move(plan);
}

bool Session::run_rounds(Results& results, int from, int to, double deadline, bool* cut) {
  const int total = std::min(to, static_cast<int>(results.plan.size()));
  // One numbering with the comment's: warm-up rounds apart, analysed rounds from 1 to the plan's
  // count; the time left is estimated from every round run so far, the warm-up included.
  int warmups = 0;
  for (const RoundPlan& p : results.plan) warmups += p.warmup ? 1 : 0;
  const int analysed = static_cast<int>(results.plan.size()) - warmups;
  for (int i = from; i < total; ++i) {
    const RoundPlan& round = results.plan[static_cast<std::size_t>(i)];
    const double round_started = now_seconds();
    // A deadline ends the rounds before an AB/BA block that would not fit (at the mean time of
    // the rounds so far), so the budget is kept and the orders stay balanced.
    if (deadline > 0 && !round.warmup && (i - warmups) % 2 == 0 && rounds_run_ > 0 &&
        round_started + 2 * rounds_seconds_ / rounds_run_ > deadline) {
      if (cut) *cut = true;
      return true;
    }
    const int left = static_cast<int>(results.plan.size()) - i;
    const bool adaptive = results.config.budget_seconds.has_value();
    // Adaptive: the plan ends at the next look, and the budget (not the plan) says when it ends.
    const std::string eta = rounds_run_ > 0
                                ? fmt::format(", about {} left{}",
                                              format_duration(rounds_seconds_ / rounds_run_ * left),
                                              adaptive ? " to the next look" : "")
                                : "";
    const std::string label =
        round.warmup ? fmt::format("warm-up round {} of {}", i + 1, warmups)
        : adaptive   ? fmt::format("round {} (next look after {})", i - warmups + 1, analysed)
                     : fmt::format("round {} of {}", i - warmups + 1, analysed);
    progress_(fmt::format("{} ({} first), elapsed {}{}", label, side_name(round.first),
                          format_duration(now_seconds() - started_), eta));
    const Side order[2] = {round.first, other(round.first)};
    // Fresh copies of both sides' executables for every round: nothing fixed per file can
    // stay with one side for the whole comparison.
    if (files_) files_->begin_round();
    for (const SuiteConfig& suite : results.config.suites) {
      if (!Config::measures_time(suite)) continue;
      if (skipped_suites_.count(suite.name)) continue;
      for (int pos = 0; pos < 2 && !exec::interrupt_requested(); ++pos) {
        run_suite(results, round, suite, order[pos], pos);
      }
    }
    if (files_) files_->end_round();
    if (exec::interrupt_requested()) {
      mark_interrupted(results, i);
      finish_failures(results);
      persist(results);
      return false;
    }
    results.rounds_done = i + 1;
    results.measuring_seconds = now_seconds() - started_;
    rounds_seconds_ += now_seconds() - round_started;
    // benchpr's own time around the round's processes (copies, checks), for the round design.
    double processes = 0;
    for (auto r = results.runs.rbegin(); r != results.runs.rend() && r->round == i; ++r)
      processes += r->seconds;
    round_overhead_seconds_ += std::max(0.0, now_seconds() - round_started - processes);
    if (!round.warmup) rounds_ran_.push_back({i, min_time_, repetitions(results)});
    ++rounds_run_;
    persist(results, false);
  }
  return true;
}

void Session::run_adaptive(Results& results) {
  const int warmup = results.config.warmup_rounds;
  int done = resume_from_;
  if (warmup > 0 && done < warmup) {
    // (A resumed session past its warm-up keeps the file's plan and looks: same seed, same
    // rounds, same levels.) The warm-up prices a round; the time plan then sizes the first look
    // (its rounds and min time) to the budget left after the builds.
    results.plan = make_schedule(results.config.rounds, warmup, results.seed);
    if (!run_rounds(results, done, warmup)) return;
    make_time_plan(results, warmup);
    done = warmup;
  }
  const double budget = *results.config.budget_seconds;
  const double deadline = started_ + budget;
  // Looks every `step` analysed rounds (the time plan's rounds, the first look) while the
  // budget lasts, up to the horizon.
  const int step = round_up_even(std::max(results.config.rounds, 2));
  const int horizon = kHorizonInFirstLooks * step;
  const SpendingPolicy policy;
  // What a round of the still-open benchmarks costs: the time plan's estimate of a whole round
  // at first, then the last block's measured rounds, scaled down for the benchmarks a look closed.
  double per_round = results.time_plan && results.time_plan->round_seconds > 0
                         ? results.time_plan->round_seconds
                         : (rounds_run_ > 0 ? rounds_seconds_ / rounds_run_ : NAN);
  progress_(fmt::format(
      "plan: {} warm-up round(s), then a look every {} rounds (α spent {} over the rounds the "
      "budget allows); after each, only the benchmarks still open go on, until all are decided, "
      "the {} budget is spent or {} rounds are reached",
      warmup, step, to_string(policy.significance), format_duration(budget), horizon));
  for (std::size_t k = 0;; ++k) {
    if (k >= results.looks.size()) {
      const int analysed_done = k == 0 ? 0 : results.looks[k - 1].rounds;
      const double remaining = deadline - now_seconds();
      // Without a warm-up nothing has priced a round yet: the first look then counts on the
      // horizon (its information is step / horizon), the later ones on measured rounds.
      const int affordable =
          std::isfinite(per_round) && per_round > 0
              ? static_cast<int>(std::min<double>(std::max(0.0, remaining) / per_round, horizon))
              : (remaining > 0 ? horizon : 0);
      const std::optional<LookRecord> look =
          next_look(results.looks, analysed_done, step,
                    std::min(affordable, horizon - analysed_done), policy);
      if (!look) {
        results.complete = true;
        results.stop_reason = analysed_done >= horizon
                                  ? fmt::format("{} rounds, the most the plan looks at", horizon)
                                  : "the budget was spent";
        break;
      }
      results.looks.push_back(*look);
      // Same seed: the rounds already run keep their order, the new ones extend it.
      results.plan = make_schedule(look->rounds, warmup, results.seed);
    }
    const LookRecord& look = results.looks[k];
    const int to = analysed_index_to_plan(results, look.rounds);
    const double t0 = now_seconds();
    const int from = done;
    bool cut = false;
    // Looks a resumed session already passed are read again (they name the open benchmarks).
    if (to > done && !run_rounds(results, done, to, deadline, &cut)) return;
    done = std::max(done, results.rounds_done);
    const double look_started = now_seconds();
    const AdaptivePlan plan = plan_of(results);
    // On the values the comment will show (core/session_analysis.hpp, as_compared).
    const LookReadings r = read_looks(as_compared(results), plan, static_cast<int>(k));
    looks_seconds_ += now_seconds() - look_started;
    const int before =
        static_cast<int>(open_benchmarks_ > 0 ? open_benchmarks_ : results.series.size());
    std::vector<BenchmarkKey> open;
    for (std::size_t i = 0; i < results.series.size(); ++i)
      if (r.decided_at[i] < 0) open.push_back({results.series[i].suite, results.series[i].name});
    const int still = static_cast<int>(open.size());
    if (done > from) {
      const double measured = (look_started - t0) / (done - from);
      per_round =
          measured * (kFixedRoundShare + (1 - kFixedRoundShare) * still / std::max(1, before));
    }
    open_benchmarks_ = still;
    const double spent = now_seconds() - started_;
    std::string line = fmt::format(
        "look {} after {} rounds (α {:.2g}%, unchanged at {} CI; information {:.0f}%): {} "
        "decided, {} still open; spent {} of {} (builds {}, rounds {}, looks {})",
        k + 1, r.rounds, 100 * look.alpha, format_level(1 - 2 * look.equivalence_alpha),
        100 * look.information, r.decided_per_look.empty() ? 0 : r.decided_per_look.back(), still,
        format_duration(spent), format_duration(budget), format_duration(build_seconds(results)),
        format_duration(rounds_seconds_), format_duration(looks_seconds_));
    if (still == 0) {
      progress_(line + ": every benchmark is decided");
      results.complete = true;
      results.stop_reason = fmt::format("every benchmark was decided after {} rounds", r.rounds);
      break;
    }
    if (cut || r.cut_short || look.information >= 1) {
      const bool at_horizon = !cut && !r.cut_short && look.rounds >= horizon;
      progress_(line +
                (at_horizon ? ": the most rounds the plan looks at" : ": the budget is spent"));
      results.complete = true;
      results.stop_reason = at_horizon
                                ? fmt::format("{} rounds, the most the plan looks at", horizon)
                                : "the budget was spent";
      break;
    }
    progress_(line + ": measuring only those");
    // The round design prices the open benchmarks' rounds on the last block's processes and
    // chooses the next rounds' min time and repetitions from the noise measured so far.
    if (done > from && min_time_ > 0 && horizon - look.rounds >= 2) {
      // The next look takes what the budget affords at the chosen design (next_look), so the
      // design need only leave room for one block.
      const RoundDesign design =
          redesign_rounds(results, measured_costs(results, from, done), &open,
                          deadline - now_seconds(), horizon - look.rounds, 2);
      if (design.round_seconds > 0) per_round = design.round_seconds;
    }
    // Later rounds run only the benchmarks still open (a filter for Google Benchmark suites;
    // other formats run whole and their decided benchmarks' new values are ignored).
    open_.clear();
    for (const SuiteConfig& s : results.config.suites) open_[s.name];
    for (const BenchmarkKey& key : open) open_[key.suite].push_back(key.name);
  }
  // The schedule ends where the rounds did: no "of N planned" for rounds the budget never had.
  if (static_cast<int>(results.plan.size()) > results.rounds_done)
    results.plan.resize(static_cast<std::size_t>(results.rounds_done));
}

}  // namespace benchpr::runner
