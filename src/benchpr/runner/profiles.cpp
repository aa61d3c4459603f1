#include "benchpr/runner/profiles.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/duration.hpp"
#include "benchpr/core/instruction_analysis.hpp"
#include "benchpr/core/text.hpp"
#include "benchpr/formats/callgrind_profile.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "benchpr/runner/instruction_counts.hpp"
#include "benchpr/runner/name_filter.hpp"
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

std::string read_or_empty(const std::string& path, std::size_t max) {
  try {
    return read_text_file(path, max);
  } catch (const StoreError&) {
    return "";
  }
}

struct SideProfile {
  std::optional<FunctionProfile> profile;  // per iteration
  double cpu_seconds = 0;                  // Callgrind's run, user and system
  std::string failure;
  bool interrupted = false;
};

// Callgrind's dumps of the benchmark's timed segments, in the order written: (pid, part).
struct DumpFile {
  long pid = 0;
  long part = 0;
  std::string text;
  CallgrindDump dump;
};

std::vector<DumpFile> timed_dumps(const std::string& dir) {
  std::vector<DumpFile> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    long pid = 0, part = 0;
    char tail = 0;
    if (std::sscanf(file.c_str(), "cg.%ld.%ld%c", &pid, &part, &tail) != 2) continue;
    DumpFile d;
    d.pid = pid;
    d.part = part;
    d.text = read_or_empty(entry.path().string(), 256u << 20);
    const std::optional<CallgrindDump> parsed = parse_callgrind_dump(d.text);
    if (!parsed) continue;
    d.dump = *parsed;
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const DumpFile& a, const DumpFile& b) {
    return std::tie(a.pid, a.part) < std::tie(b.pid, b.part);
  });
  return out;
}

// What a finished Callgrind run of `name` left in `dir`: its profile per iteration, or why there
// is none.
SideProfile read_side(const std::string& dir, const std::string& name) {
  SideProfile out;
  const BenchmarkIterations iterations =
      benchmark_iterations(read_or_empty(dir + "/out.json", 64u << 20), name);
  if (iterations.error) {
    out.failure = *iterations.error;
    return out;
  }
  const std::vector<DumpFile> files = timed_dumps(dir);
  std::vector<CallgrindDump> dumps;
  for (const DumpFile& f : files) {
    if (f.pid != files.front().pid) {
      out.failure = "more than one process ran the benchmark's loop under Callgrind";
      return out;
    }
    dumps.push_back(f.dump);
  }
  const CountedDumps counted = counted_dumps(dumps, kCallgrindRepetitions);
  if (counted.repetitions == 0 || iterations.count <= 0) {
    out.failure = "Callgrind saw no complete run of the benchmark's loop";
    return out;
  }
  FunctionProfile sum;
  for (std::size_t i : counted.dumps) {
    const formats::CallgrindProfileReading r = formats::read_callgrind_profile(files[i].text);
    if (r.problem) {
      out.failure = fmt::format("cannot read Callgrind's file cg.{}.{}: {}", files[i].pid,
                                files[i].part, *r.problem);
      return out;
    }
    add_profile(sum, r.profile);
  }
  out.profile = scaled_profile(std::move(sum), 1.0 / (static_cast<double>(counted.repetitions) *
                                                      static_cast<double>(iterations.count)));
  return out;
}

// The instruction counts' Callgrind run of `name` on `side` (runner/instruction_counts: a folder
// "<suite>-<side>-<5 digits>" per benchmark), when it finished well: the same run a profile
// would make, so its files are the profile at no cost.
std::optional<std::string> counted_run(const std::string& counts_dir, const std::string& suite,
                                       Side side, const std::string& name) {
  if (counts_dir.empty()) return std::nullopt;
  const std::string prefix = suite + "-" + std::string(to_string(side)) + "-";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(counts_dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.size() != prefix.size() + 5 || file.compare(0, prefix.size(), prefix) != 0 ||
        file.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
      continue;
    const std::string dir = entry.path().string();
    int code = -1;
    if (std::sscanf(read_or_empty(dir + "/rc", 4096).c_str(), "%d", &code) != 1 || code != 0)
      continue;
    if (benchmark_iterations(read_or_empty(dir + "/out.json", 64u << 20), name).count > 0)
      return dir;
  }
  return std::nullopt;
}

SideProfile profile_side(exec::ProcessRunner& processes, const Config& config,
                         const SuiteConfig& suite, const std::string& name,
                         const std::string& worktree, const std::string& dir,
                         const std::string& valgrind) {
  SideProfile out;
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  exec::ProcessSpec spec;
  spec.cwd = worktree;
  spec.command = shell_quote(valgrind) + " " + callgrind_arguments(dir + "/cg") + " " +
                 callgrind_benchmark_command(suite, config, name, dir + "/out.json");
  spec.timeout_seconds = config.timeout_for(suite);
  spec.scrub_env = config.scrub_env;
  spec.log_path = dir + "/log";
  spec.tail_bytes = exec::kMessageTailBytes;
  const exec::ProcessResult p = processes.run(spec);
  out.cpu_seconds = p.user_seconds + p.system_seconds;
  if (p.interrupted) {
    out.interrupted = true;
    out.failure = "interrupted";
    return out;
  }
  if (!p.ok()) {
    out.failure = valgrind_failure(p.output_tail)
                      .value_or(*p.describe_failure(spec.timeout_seconds) + " under Callgrind");
    return out;
  }
  SideProfile read = read_side(dir, name);
  read.cpu_seconds = out.cpu_seconds;
  return read;
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

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
  exec::ProcessSpec probe;
  probe.command = shell_quote(setup.valgrind) + " --version";
  probe.timeout_seconds = 60;
  if (!processes.run(probe).ok()) {
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
  int over_budget = 0;
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
      if (const auto dir = counted_run(setup.counts_dir, suite->name, side, req.name))
        sides[side == Side::Base ? 0 : 1] = read_side(*dir, req.name).profile;
    b.from_counts = sides[0] && sides[1];
    reused += b.from_counts ? 1 : 0;
    if (!b.from_counts && setup.seconds_left >= 0 && spent + heaviest >= setup.seconds_left) {
      const double left = setup.seconds_left - spent;
      b.skipped = left <= 0 ? std::string("the time budget was spent")
                            : fmt::format(
                                  "the time budget was spent: {} left, a profile takes "
                                  "about {}",
                                  format_duration(left), format_duration(heaviest));
      ++over_budget;
      results.profiles.push_back(std::move(b));
      continue;
    }
    const double t0 = now();
    for (Side side : {Side::Base, Side::Head}) {
      if (b.from_counts) break;
      const std::string dir =
          fmt::format("{}/{}-{}-{:05}", setup.work_dir, suite->name, to_string(side), i);
      SideProfile s =
          profile_side(processes, results.config, *suite, req.name,
                       side == Side::Base ? setup.base_dir : setup.head_dir, dir, setup.valgrind);
      cpu += s.cpu_seconds;
      if (s.interrupted) return false;
      if (!s.profile) {
        b.skipped = fmt::format("{} side: {} (log: {}/log)", side == Side::Base ? "base" : "PR",
                                s.failure, dir);
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
  if (over_budget > 0)
    progress(fmt::format("  the time budget is spent: {} benchmark(s) not profiled", over_budget));
  progress(fmt::format(
      "  profiled {} of {} benchmark(s) in {} ({} of CPU time){}", profiled, requests.size(),
      format_duration(spent), format_duration(cpu),
      reused > 0 ? fmt::format("; {} read from the instruction counts' runs", reused) : ""));
  return true;
}

}  // namespace benchpr::runner
