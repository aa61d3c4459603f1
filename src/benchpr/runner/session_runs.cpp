// One suite's turn on one side in a round: which benchmarks it runs (all, the open ones, those
// that did not crash), its processes (one, or several for a long selection), reading and parsing
// what each left, and the probe for the benchmark behind a crash.
#include <algorithm>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/command_measurement.hpp"
#include "benchpr/runner/cpu_load.hpp"
#include "benchpr/runner/crash_probe.hpp"
#include "benchpr/runner/filter_match.hpp"
#include "benchpr/runner/gbench_filter_argument.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/session_words.hpp"
#include "benchpr/runner/suite_command_line.hpp"

namespace benchpr::runner {

using namespace session_detail;

namespace {

// A run's record before it runs: which round, suite, side and position in the round.
RunRecord new_record(const RoundPlan& round, const SuiteConfig& suite, Side side, int position) {
  RunRecord rec;
  rec.round = round.index;
  rec.suite = suite.name;
  rec.side = side;
  rec.position = position;
  return rec;
}

// The name of a process's results file and log. Every process of a side's turn has files of its
// own: the later processes of a selection split over several, or the rerun after a crash, would
// otherwise overwrite the log of one that failed, which its failure message names.
std::string run_file_stem(const Results& results, const RoundPlan& round, const SuiteConfig& suite,
                          Side side) {
  const auto earlier =
      std::count_if(results.runs.begin(), results.runs.end(), [&](const RunRecord& r) {
        return r.round == round.index && r.side == side && r.suite == suite.name;
      });
  return earlier == 0
             ? fmt::format("r{}-{}-{}", round.index, suite.name, to_string(side))
             : fmt::format("r{}-{}-{}-{}", round.index, suite.name, to_string(side), earlier + 1);
}

// The run failed: why, of what kind, and the end of what it printed.
void fail_run(RunRecord& rec, const exec::ProcessResult& p, std::string why, FailureKind kind) {
  rec.ok = false;
  rec.failure = std::move(why);
  rec.failure_kind = kind;
  rec.log_tail = last_lines(p.output_tail, 20);
}

// What --filter and the suite's `exclude` leave of a parsed run (Google Benchmark applies the
// filter itself; other formats run whole).
void keep_selected(ParsedRun& parsed, const Config& c, const SuiteConfig& suite) {
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
}

}  // namespace

void Session::run_suite(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                        Side side, int position) {
  if (health_.unselected(suite.name, side)) return;  // nothing matches --filter
  if (const std::string* why = health_.given_up(suite.name, side)) {
    RunRecord rec = new_record(round, suite, side, position);
    rec.ok = false;
    rec.failure = "not run again: " + *why + " earlier";
    rec.failure_kind = FailureKind::GivenUp;
    results.runs.push_back(std::move(rec));
    return;
  }
  const SuiteHealth::Selection selected = health_.select(suite, side, open_);
  if (selected.skip) return;
  // A selection too long for one command line (thousands of names) runs in several processes,
  // one after the other in this side's turn.
  bool crashed = false;
  for (const std::vector<std::string>& group : filter_groups(selected.only)) {
    if (health_.given_up(suite.name, side)) break;  // a group timed out
    crashed = run_process(results, round, suite, side, position, group).failure_kind ==
                  FailureKind::Signal ||
              crashed;
  }
  // Only a signal is a crash worth looking for one benchmark behind. An exit code is the
  // program's own decision (a flag it refuses, a sanitizer's report, an exit() in a benchmark):
  // every probe would end the same way, so the suite's failure is reported as it is. A run that
  // did not start (126, 127), a timeout or a bad output have no crasher to look for either.
  if (crashed && suite.format == FormatKind::GoogleBenchmark && !exec::interrupt_requested() &&
      !health_.any_crashed(suite.name, side)) {
    handle_crash(results, round, suite, side, position);
  }
}

RunRecord& Session::run_process(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                                Side side, int position, const std::vector<std::string>& only) {
  RunRecord rec = new_record(round, suite, side, position);
  rec.started = now_seconds() - started_;
  last_run_ = StartedRun{suite.name, side, round.index, now_seconds()};
  const std::unique_ptr<formats::Format> format = formats::make_format(suite);
  const std::string stem = run_file_stem(results, round, suite, side);
  const std::string out_path = fmt::format("{}/{}.json", setup_.out_dir, stem);
  file_system_.remove(out_path);
  const RunCommand cmd = run_command(results.config, suite, *format, out_path, only);
  const exec::ProcessSpec spec = process_spec(results.config, suite, side, cmd, stem);
  if (format->measures_process()) {
    RunRecord& measured = run_measured_command(results, rec, spec, suite, side);
    if (files_) files_->after_run(side);
    if (!exec::interrupt_requested()) last_run_.reset();
    return measured;
  }
  const exec::ProcessResult p = run_timed(spec, rec, suite, side);
  // A run that ended before any signal is not what an interruption cut short.
  if (!p.interrupted && !exec::interrupt_requested()) last_run_.reset();
  if (!p.ok()) fail_run(rec, p, *p.describe_failure(spec.timeout_seconds), p.failure_kind());
  if (rec.failure_kind == FailureKind::Timeout) health_.give_up(suite.name, side, rec.failure);
  // Parse what the run left behind even when it failed: a suite whose process failed late
  // may still have measured the others.
  bool measured = false;  // the run left a result or a failure of some benchmark
  if (const std::optional<std::string> output = read_output(cmd, out_path, spec, p, rec);
      output && !p.interrupted)
    measured = record_output(results, round, suite, side, *format, *output, p, rec);
  if (!results.config.filter.empty() && p.ok() && !measured && !p.interrupted)
    skip_unmatched(results.config, suite, side, rec);
  if (!rec.ok && !p.interrupted) report_failure(round, suite, side, rec, p, spec, measured);
  results.runs.push_back(std::move(rec));
  return results.runs.back();
}

RunCommand Session::run_command(const Config& c, const SuiteConfig& suite,
                                const formats::Format& format, const std::string& out_path,
                                const std::vector<std::string>& only) const {
  // --filter: Google Benchmark skips the others itself; every format's results are filtered
  // after parsing. A literal filter for open or surviving benchmarks wins over it.
  RunFlags flags;
  flags.repetitions = designer_.repetitions(c);
  flags.bench_args = c.bench_args;
  flags.filter = c.filter;
  flags.only = only;
  if (designer_.sizes(c, suite)) flags.min_time = designer_.min_time();
  return make_run_command(suite, format, out_path, flags);
}

exec::ProcessSpec Session::process_spec(const Config& c, const SuiteConfig& suite, Side side,
                                        const RunCommand& cmd, const std::string& stem) {
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
  file_system_.remove(spec.log_path);
  spec.tail_bytes = cmd.reads_file ? exec::kRunTailBytes : formats::kMaxInputBytes;
  // One run of a large suite (its warm-up above all, at the library's default min time) can
  // take minutes; the progress says it is alive rather than nothing at all.
  spec.still_running_seconds = kStillRunningSeconds;
  spec.on_still_running = [this, name = suite.name, side](double seconds, std::size_t lines) {
    progress_(fmt::format("  {} {}: still running, {} so far ({} lines of output)", side_name(side),
                          name, format_duration(seconds), lines));
  };
  return spec;
}

exec::ProcessResult Session::run_timed(const exec::ProcessSpec& spec, RunRecord& rec,
                                       const SuiteConfig& suite, Side side) {
  const CpuSample before = sample_cpu();
  exec::ProcessResult p = processes_.run(spec);
  if (files_) files_->after_run(side);
  child_seconds_ += p.wall_seconds;
  rec.seconds = p.wall_seconds;
  record_cpu(rec, p.user_seconds + p.system_seconds, before, sample_cpu());
  rec.leftover_processes = p.leftover_processes;
  if (p.leftover_processes > 0)
    progress_(fmt::format("  warning: {} {} left {} process(es) running; benchpr killed them",
                          side_name(side), suite.name, p.leftover_processes));
  return p;
}

std::optional<std::string> Session::read_output(const RunCommand& cmd, const std::string& out_path,
                                                const exec::ProcessSpec& spec,
                                                const exec::ProcessResult& p,
                                                RunRecord& rec) const {
  if (cmd.reads_file) {
    // A link the run left there is reported, not followed.
    if (!file_system_.exists(out_path)) {
      if (rec.ok)
        fail_run(rec, p, "wrote no results file (expected " + out_path + ")",
                 FailureKind::BadOutput);
      return std::nullopt;
    }
    try {
      return file_system_.read(out_path, formats::kMaxInputBytes);
    } catch (const StoreError& e) {
      if (rec.ok) fail_run(rec, p, e.what(), FailureKind::BadOutput);
      return std::nullopt;
    }
  }
  if (p.output_bytes > spec.tail_bytes) {
    // Only the last tail_bytes were kept: parsing them would report a wrong reason (once "the
    // file is empty" for 70 MB of output).
    if (rec.ok)
      fail_run(
          rec, p,
          fmt::format(
              "printed {} bytes of output, more than the {} MiB benchpr reads from standard output "
              "(have the suite write its results to a file: {{out}} in its run command)",
              p.output_bytes, spec.tail_bytes >> 20),
          FailureKind::BadOutput);
    return std::nullopt;
  }
  return p.output_tail;
}

bool Session::record_output(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                            Side side, const formats::Format& format, const std::string& output,
                            const exec::ProcessResult& p, RunRecord& rec) {
  try {
    ParsedRun parsed = format.parse(output);
    keep_selected(parsed, results.config, suite);
    record_run(results, series_index_, suite, side, round.index, parsed);
    // The run's min time, as run_command gave it: the repetitions' spread is read at it. From
    // the base side only: the pull request's code prints the head side's numbers, and a spread it
    // inflates would steer the round design (more repetitions, fewer rounds) for every benchmark.
    if (side == Side::Base && designer_.sizes(results.config, suite))
      designer_.note_within(suite.name, parsed);
    return !parsed.measurements.empty() || !parsed.failures.empty();
  } catch (const formats::ParseError& e) {
    if (rec.ok)
      fail_run(rec, p, std::string("could not read its output: ") + e.what(),
               FailureKind::BadOutput);
    return false;
  }
}

void Session::skip_unmatched(const Config& c, const SuiteConfig& suite, Side side, RunRecord& rec) {
  // Nothing matched --filter (Google Benchmark then leaves an empty file): not a failure of
  // the suite, and not worth another run.
  rec.ok = true;
  rec.failure.clear();
  rec.failure_kind = FailureKind::None;
  health_.mark_unselected(suite.name, side);
  progress_(fmt::format("  {} {}: no benchmark matches --filter {}; skipped", side_name(side),
                        suite.name, shell_quote(c.filter)));
}

void Session::report_failure(const RoundPlan& round, const SuiteConfig& suite, Side side,
                             const RunRecord& rec, const exec::ProcessResult& p,
                             const exec::ProcessSpec& spec, bool measured) {
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
  if ((round.warmup || round.index == 0) && !measured && rec.failure_kind != FailureKind::Signal &&
      health_.give_up_first(suite.name, side, rec.failure)) {
    progress_(fmt::format("  {} is not run again on the {}: it failed in {}", suite.name,
                          side_name(side), round.warmup ? "the warm-up round" : "its first round"));
  }
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
    if (info.failure_kind == FailureKind::Timeout) health_.give_up(suite.name, side, info.failure);
    progress_(fmt::format("  {} {}: {}", side_name(side), suite.name, rec.failure));
  }
  record_run(results, series_index_, suite, side, rec.round, parsed);
  results.runs.push_back(std::move(rec));
  return results.runs.back();
}

void Session::handle_crash(Results& results, const RoundPlan& round, const SuiteConfig& suite,
                           Side side, int position) {
  // Probed once per suite and side: what one probe could not find, later ones would not either.
  if (!health_.first_probe(suite.name, side)) return;
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
  std::vector<std::string> crashers;
  for (const BenchmarkFailure& crasher : probe.crashers) crashers.push_back(crasher.name);
  health_.record_crashers(suite.name, side, probe.names, crashers);
  for (const BenchmarkFailure& crasher : probe.crashers) {
    set_failure(series_index_.find_or_add(results, suite.name, crasher.name, "", Better::Lower),
                side, crasher.reason, crasher.kind);
    progress_(fmt::format("  {} crashes on the {} ({}): left out of its later runs", crasher.name,
                          side_name(side), crasher.reason));
  }
  // Run the rest of the suite again in this round, so the other benchmarks are still compared.
  const SuiteHealth::Selection rest = health_.select(suite, side, open_);
  if (rest.skip) return;
  for (const std::vector<std::string>& group : filter_groups(rest.only))
    run_process(results, round, suite, side, position, group);
}

}  // namespace benchpr::runner
