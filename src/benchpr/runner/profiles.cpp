#include "benchpr/runner/profiles.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/formats/callgrind_profile.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "benchpr/runner/filter_match.hpp"
#include "benchpr/runner/instruction_counts.hpp"
#include "benchpr/runner/instrument_on_open.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::runner {

namespace {

namespace fs = std::filesystem;

const SuiteConfig* google_benchmark_suite(const Config& c, const std::string& series_suite) {
  for (const SuiteConfig& s : c.suites)
    if (s.format == FormatKind::GoogleBenchmark &&
        (s.name == series_suite || instruction_suite_name(s.name) == series_suite))
      return &s;
  return nullptr;
}

struct SideProfile {
  std::optional<FunctionProfile> profile;  // per iteration
  // Each function's executed instructions per iteration (address -> Ir), where run at all.
  std::unordered_map<std::string, ExecutedInstructions> executed;
  double cpu_seconds = 0;   // Callgrind's run, user and system
  double wall_seconds = 0;  // Callgrind's run
  std::string failure;
  bool interrupted = false;
  bool stopped_at_deadline = false;  // killed when the time budget ran out, not by its timeout
};

// The profile per iteration of a job's two Callgrind processes, with the weights the count uses
// (runner/callgrind.hpp, IterationWeights): the difference of the processes' counts, function by
// function, over the difference of their iterations.
SideProfile side_profile(const CountedRunFiles& files) {
  SideProfile out;
  if (files.failure) {
    out.failure = *files.failure;
    return out;
  }
  const IterationWeights w = iteration_weights(files.first, files.second, kCallgrindRepetitions);
  if (w.failure) {
    out.failure = *w.failure;
    return out;
  }
  FunctionProfile sum;
  std::unordered_map<std::string, ExecutedInstructions> executed;
  const auto add = [&](const std::vector<std::string>& texts, const std::vector<double>& weights,
                       const char* process) {
    for (std::size_t i = 0; i < texts.size() && i < weights.size(); ++i) {
      if (weights[i] == 0) continue;
      const formats::CallgrindProfileReading r = formats::read_callgrind_profile(texts[i]);
      if (r.problem) {
        out.failure = fmt::format("cannot read Callgrind's dump {} of process {}: {}", i + 1,
                                  process, *r.problem);
        return false;
      }
      add_profile(sum, scaled_profile(r.profile, weights[i]));
      for (const auto& [function, run] : r.executed) {
        ExecutedInstructions& into = executed[function];
        for (const auto& [address, n] : run) into[address] += weights[i] * n;
      }
    }
    return true;
  };
  if (!add(files.first_texts, w.first, "1") || !add(files.second_texts, w.second, "2")) return out;
  // A function the first process ran more of than the second (a one-off cost the difference
  // takes out) has no work per iteration, not a negative one.
  for (ProfiledFunction& f : sum.functions) {
    f.self = std::max(0.0, f.self);
    f.inclusive = std::max(0.0, f.inclusive);
  }
  for (ProfiledCall& c : sum.calls) c.inclusive = std::max(0.0, c.inclusive);
  sum.total = std::max(0.0, sum.total);
  out.profile = std::move(sum);
  // Every instruction the timed region ran at all stays, at its count per iteration: what a
  // repetition runs once (a one-off cost, a lazy set-up) differences out to about 0, but it was
  // run, and a PR that adds one to changed code must not read as "the same where it runs".
  for (auto& [function, run] : executed) {
    for (auto& entry : run) entry.second = std::max(0.0, entry.second);
    if (!run.empty()) out.executed.emplace(function, std::move(run));
  }
  return out;
}

// The instruction counts' sealed Callgrind run of `name` on `side`: the same runs a profile would
// make, so their files are the profile at no cost, when every file is as it was when the count
// read it (the other side's code ran since, as the same user).
std::optional<SideProfile> counted_run(const SealedRuns* counted, const std::string& suite,
                                       Side side, const std::string& name,
                                       const std::function<void(const std::string&)>& progress) {
  if (counted == nullptr) return std::nullopt;
  const auto it = counted->find({suite, side, name});
  if (it == counted->end()) return std::nullopt;
  const CountedRunFiles files =
      read_counted_run(it->second.dir, name, true, &it->second.digests, nullptr);
  if (files.failure) {
    progress(fmt::format("  {}: not reusing the {} side's counted run: {}", name,
                         side == Side::Base ? "base" : "PR", *files.failure));
    return std::nullopt;
  }
  SideProfile p = side_profile(files);
  if (!p.profile) return std::nullopt;
  return p;
}

SideProfile profile_side(exec::ProcessRunner& processes, const Config& config,
                         const SuiteConfig& suite, const std::string& name,
                         const std::string& worktree, const std::string& work_dir, Side side,
                         const std::string& valgrind, double deadline_seconds, std::string& dir,
                         bool late_instrumentation) {
  SideProfile out;
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  // A fresh folder with an unpredictable name for each run, read as soon as the run ends.
  dir = work_dir + "/" + std::string(to_string(side)) + "-XXXXXX";
  if (::mkdtemp(dir.data()) == nullptr) {
    out.failure = "cannot create a folder in " + work_dir;
    return out;
  }
  fs::create_directories(dir + "/1", ec);
  fs::create_directories(dir + "/2", ec);
  exec::ProcessSpec spec;
  spec.cwd = dir;
  // A suite whose counts were instrumented late (a slow start-up) is profiled the same way,
  // with the library written afresh into this run's own folder.
  const std::string preload =
      late_instrumentation ? write_instrument_on_open(dir).value_or("") : std::string();
  spec.command = callgrind_job_script(suite, config, {name}, worktree, dir, valgrind, preload);
  const double timeout = config.timeout_for(suite);
  spec.timeout_seconds = timeout > 0 ? 2 * timeout + 30 : 0;
  // A profile's cost is not known beforehand: what is left of the budget bounds it.
  const bool by_deadline = deadline_seconds > 0 &&
                           (spec.timeout_seconds <= 0 || deadline_seconds < spec.timeout_seconds);
  if (by_deadline) spec.timeout_seconds = deadline_seconds;
  spec.scrub_env = config.scrub_env;
  spec.tail_bytes = exec::kMessageTailBytes;
  const exec::ProcessResult p = processes.run(spec);
  out.cpu_seconds = p.user_seconds + p.system_seconds;
  out.wall_seconds = p.wall_seconds;
  if (p.interrupted) {
    out.interrupted = true;
    out.failure = "interrupted";
    return out;
  }
  if (p.timed_out && by_deadline) {
    out.stopped_at_deadline = true;
    out.failure = fmt::format("stopped after {}, when the time budget ran out",
                              format_duration(spec.timeout_seconds));
    return out;
  }
  if (!p.ok()) {
    out.failure = valgrind_failure(p.output_tail)
                      .value_or(*p.describe_failure(spec.timeout_seconds) + " under Callgrind");
    return out;
  }
  const CallgrindJobResult job = read_callgrind_job(dir, name, timeout, true, nullptr);
  if (job.failure) {
    out.failure = *job.failure;
    return out;
  }
  SideProfile read = side_profile(job.files);
  read.cpu_seconds = out.cpu_seconds;
  return read;
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::optional<CountedProfile> counted_profile(
    const SealedRuns* counted, const std::string& suite, Side side, const std::string& name,
    const std::function<void(const std::string&)>& progress) {
  std::optional<SideProfile> p = counted_run(counted, suite, side, name, progress);
  if (!p || !p->profile) return std::nullopt;
  return CountedProfile{std::move(*p->profile), std::move(p->executed)};
}

std::vector<ProfileRequest> profile_requests(const Results& results, const Analysis& analysis,
                                             const std::string& why) {
  const std::optional<std::regex> named = compile_filter(why);
  std::vector<ProfileRequest> out;
  std::set<std::pair<std::string, std::string>> seen;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    const SuiteConfig* suite = google_benchmark_suite(results.config, b.suite);
    if (suite == nullptr) continue;
    std::string by;
    if (b.verdict == Verdict::Regression) {
      by = "regression";
    } else if (b.verdict == Verdict::Improvement) {
      by = "improvement";
    } else if (named && filter_matches(named, b.name)) {
      by = "--why";
    } else {
      continue;
    }
    if (!seen.insert({suite->name, b.name}).second) continue;
    out.push_back({suite->name, b.name, by});
  }
  return out;
}

bool profile_benchmarks(exec::ProcessRunner& processes, Results& results,
                        const std::vector<ProfileRequest>& requests, const ProfileSetup& setup,
                        const std::function<void(const std::string&)>& progress) {
  if (requests.empty()) return true;
  {
    // An earlier comparison's folders: each run makes fresh ones with new names.
    std::error_code ec;
    fs::remove_all(setup.work_dir, ec);
  }
  const std::function<double()> now = setup.now ? setup.now : wall_seconds;
  const auto skip_all = [&](std::size_t from, const std::string& why) {
    for (std::size_t i = from; i < requests.size(); ++i) {
      BenchmarkProfile b;
      b.suite = requests[i].suite;
      b.name = requests[i].name;
      b.requested_by = requests[i].requested_by;
      b.skipped = why;
      results.profiles.push_back(std::move(b));
    }
  };
  if (!valgrind_installed(processes, setup.valgrind)) {
    skip_all(0, "Valgrind is not installed (the Debian/Ubuntu package `valgrind`)");
    progress("not profiling the changed benchmarks: Valgrind is not installed");
    return true;
  }
  progress(fmt::format("profiling {} benchmark(s) under Callgrind to explain their change",
                       requests.size()));
  double spent = 0;
  double heaviest = 0;  // the dearest benchmark so far: what the next one may cost
  double cpu = 0;
  int profiled = 0;
  std::vector<std::string> over_budget;  // the benchmarks the budget left unprofiled
  int reused = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const ProfileRequest& req = requests[i];
    const SuiteConfig* suite = google_benchmark_suite(results.config, req.suite);
    if (suite == nullptr) continue;
    BenchmarkProfile b;
    b.suite = req.suite;
    b.name = req.name;
    b.requested_by = req.requested_by;
    if (is_multithreaded_benchmark(req.name)) {
      b.skipped = "multi-threaded: Callgrind runs threads one at a time";
      results.profiles.push_back(std::move(b));
      continue;
    }
    // The instruction counts ran this benchmark under Callgrind already, the same way: their
    // files are its profile.
    std::optional<FunctionProfile> sides[2];
    for (Side side : {Side::Base, Side::Head})
      if (auto counted = counted_run(setup.counted, suite->name, side, req.name, progress))
        sides[side == Side::Base ? 0 : 1] = std::move(counted->profile);
    b.from_counts = sides[0] && sides[1];
    reused += b.from_counts ? 1 : 0;
    if (!b.from_counts && setup.seconds_left >= 0 && spent + heaviest >= setup.seconds_left) {
      const double left = setup.seconds_left - spent;
      b.skipped = left <= 0 ? std::string("the time budget was spent")
                            : fmt::format(
                                  "the time budget was spent: {} left, a profile takes "
                                  "about {}",
                                  format_duration(left), format_duration(heaviest));
      over_budget.push_back(req.name);
      results.profiles.push_back(std::move(b));
      continue;
    }
    const double t0 = now();
    // What is left of the budget for this benchmark's two runs (0: no budget).
    double left = setup.seconds_left >= 0 ? std::max(setup.seconds_left - spent, 0.0) : 0;
    for (Side side : {Side::Base, Side::Head}) {
      if (b.from_counts) break;
      std::string dir;
      const auto sealed = setup.counted == nullptr
                              ? SealedRuns::const_iterator()
                              : setup.counted->find({suite->name, side, req.name});
      const bool late = setup.counted != nullptr && sealed != setup.counted->end() &&
                        sealed->second.late_instrumentation;
      SideProfile s = profile_side(processes, results.config, *suite, req.name,
                                   side == Side::Base ? setup.base_dir : setup.head_dir,
                                   setup.work_dir, side, setup.valgrind, left, dir, late);
      cpu += s.cpu_seconds;
      if (s.interrupted) return false;
      if (setup.seconds_left >= 0) left = std::max(left - s.wall_seconds, 0.0);
      const char* side_word = side == Side::Base ? "base" : "PR";
      if (s.stopped_at_deadline) {
        b.skipped = fmt::format("the time budget was spent: the {} side's Callgrind run was {}",
                                side_word, s.failure);
        over_budget.push_back(req.name);
        break;
      }
      if (!s.profile) {
        b.skipped = fmt::format("{} side: {} (log: {}/log)", side_word, s.failure, dir);
        break;
      }
      if (side == Side::Base && setup.seconds_left >= 0 && left <= 0) {
        b.skipped = "the time budget was spent after the base side's Callgrind run";
        over_budget.push_back(req.name);
        break;
      }
      sides[side == Side::Base ? 0 : 1] = std::move(s.profile);
    }
    if (!b.from_counts) {
      b.seconds = now() - t0;
      spent += b.seconds;
      heaviest = std::max(heaviest, b.seconds);
    }
    if (b.skipped.empty()) {
      trim_profiles(*sides[0], *sides[1], kProfileKeepFraction);
      b.base = std::move(sides[0]);
      b.head = std::move(sides[1]);
      ++profiled;
    } else {
      progress(fmt::format("  {}: not profiled: {}", req.name, b.skipped));
    }
    results.profiles.push_back(std::move(b));
    if (exec::interrupt_requested()) return false;
  }
  if (!over_budget.empty()) {
    std::string names;
    for (std::size_t i = 0; i < over_budget.size() && i < 5; ++i)
      names += (i ? ", " : "") + over_budget[i];
    if (over_budget.size() > 5) names += fmt::format(" and {} more", over_budget.size() - 5);
    progress(fmt::format("  the time budget is spent: {} benchmark(s) not profiled: {}",
                         over_budget.size(), names));
  }
  progress(fmt::format(
      "  profiled {} of {} benchmark(s) in {} ({} of CPU time){}", profiled, requests.size(),
      format_duration(spent), format_duration(cpu),
      reused > 0 ? fmt::format("; {} read from the instruction counts' runs", reused) : ""));
  return true;
}

}  // namespace benchpr::runner
