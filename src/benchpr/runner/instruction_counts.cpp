#include "benchpr/runner/instruction_counts.hpp"

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/benchmark_list.hpp"
#include "benchpr/runner/callgrind.hpp"
#include "benchpr/runner/callgrind_groups.hpp"
#include "benchpr/runner/clock.hpp"
#include "benchpr/runner/counting_share.hpp"
#include "benchpr/runner/file_digest.hpp"
#include "benchpr/runner/filter_match.hpp"
#include "benchpr/runner/instrument_on_open.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::runner {

namespace {

namespace fs = std::filesystem;

struct Job {
  const SuiteConfig* suite = nullptr;
  Side side = Side::Base;
  std::string name;
  std::string dir;
  std::size_t sharing = 1;  // benchmarks in the Callgrind process that counted it
  // The instrument-on-open library for a suite with a slow start-up; empty: instrumented from
  // the start (runner/instrument_on_open.hpp).
  std::string preload;
};

// Benchmarks of one suite counted in one process (callgrind_groups.hpp): indices into a side's
// jobs, and the folder of the process's own files.
struct Group {
  std::vector<std::size_t> members;
  std::string dir;
};

std::string side_word(Side s) { return s == Side::Base ? "base" : "PR"; }

BenchmarkSeries& instruction_series(Results& r, const std::string& suite, const std::string& name) {
  for (auto& s : r.series)
    if (s.suite == suite && s.name == name) return s;
  BenchmarkSeries s;
  s.suite = suite;
  s.name = name;
  s.unit = "instructions";
  s.better = Better::Lower;
  s.metric = std::string(kInstructionsMetric);
  r.series.push_back(std::move(s));
  return r.series.back();
}

void set_failure(Results& r, const std::string& suite, const std::string& name, Side side,
                 const std::string& why, FailureKind kind = FailureKind::Other) {
  BenchmarkSeries& s = instruction_series(r, suite, name);
  (side == Side::Base ? s.base_failure : s.head_failure) = why;
  (side == Side::Base ? s.base_failure_kind : s.head_failure_kind) = kind;
}

// A single simple command ("build/bench --flag 'x'"): the job script can hand its words to
// Valgrind directly, so Callgrind does not also start up for a shell (about 40% of a job's CPU
// time). Operators, leading assignments and builtins need the shell.
bool simple_command(const std::string& run) {
  if (run.find_first_of(";&|<>()`\\\n") != std::string::npos) return false;
  const std::size_t start = run.find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  const std::string first = run.substr(start, run.find_first_of(" \t", start) - start);
  if (first.find('=') != std::string::npos) return false;
  for (const char* builtin : {"cd", "exec", "eval", "export", ".", "source", "set", "!", "{", "if",
                              "for", "while", "case", "time", "command"})
    if (first == builtin) return false;
  return true;
}

// The suite's command for one benchmark: `{out}` filled in as for time runs, benchpr's flags last.
std::string benchmark_command(const SuiteConfig& suite, const Config& config,
                              const std::vector<std::string>& names, const std::string& json_path,
                              double min_time) {
  std::string cmd = suite.run;
  const std::string quoted = shell_quote(json_path);
  for (auto pos = cmd.find("{out}"); pos != std::string::npos; pos = cmd.find("{out}", pos))
    cmd.replace(pos, 5, quoted);
  if (!config.bench_args.empty()) cmd += " " + config.bench_args;
  cmd += callgrind_benchmark_arguments(names, json_path, min_time);
  if (simple_command(suite.run) &&
      simple_command(config.bench_args.empty() ? "x" : "x " + config.bench_args))
    return cmd;
  return "/bin/sh -c " + shell_quote(cmd);
}

// A suite's benchmarks on one side, or why they could not be listed.
struct Listing {
  std::vector<std::string> names;
  std::optional<std::string> failure;
  StartUp start_up;  // the listing's wall and CPU time: the suite's start-up, natively
};

Listing list_benchmarks(exec::ProcessRunner& processes, const Results& results,
                        const SuiteConfig& suite, const std::string& dir) {
  exec::ProcessSpec spec;
  spec.cwd = dir;
  spec.command = suite.run;
  if (!results.config.bench_args.empty()) spec.command += " " + results.config.bench_args;
  spec.command += " --benchmark_list_tests=true";
  spec.timeout_seconds = results.config.timeout_for(suite);
  spec.scrub_env = results.config.scrub_env;
  spec.tail_bytes = exec::kListingBytes;
  const exec::ProcessResult p = processes.run(spec);
  if (!p.ok())
    return {{}, "listing its benchmarks failed: " + *p.describe_failure(spec.timeout_seconds), {}};
  std::vector<std::string> names = parse_benchmark_list(p.output_tail);
  const std::optional<std::regex> keep = compile_filter(results.config.filter);
  std::erase_if(names, [&keep](const std::string& n) { return !filter_matches(keep, n); });
  return {std::move(names), std::nullopt, {p.wall_seconds, p.user_seconds + p.system_seconds}};
}

std::string read_or_empty(const std::string& path, std::size_t max = 1u << 20) {
  return read_text_file_if_any(path, max).value_or("");
}

// Iterations of the last repetition, or the benchmark's error_occurred message, from Google
// Benchmark's JSON (0 iterations when the file has none).
struct Iterations {
  long long count = 0;
  std::optional<std::string> error;
};

Iterations iterations_from_json(const std::string& text, const std::string& name) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.contains("benchmarks") || !j["benchmarks"].is_array()) return {};
  Iterations out;
  for (const auto& b : j["benchmarks"]) {
    if (!b.is_object() || b.value("name", std::string()) != name) continue;
    if (b.value("error_occurred", false))
      return {0, "error_occurred: " + b.value("error_message", std::string())};
    if (b.value("run_type", std::string("iteration")) != "iteration") continue;
    if (auto it = b.find("iterations"); it != b.end() && it->is_number()) {
      out.count = it->get<long long>();
    }
  }
  return out;
}

// "last lines" of a log, control characters dropped, for a failure reason.
std::string last_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (last.size() > 200) last.resize(200);
  return last;
}

struct Outcome {
  double value = kMissing;
  double check = kMissing;  // the count from one repetition of the second process alone
  std::map<std::string, double> events;  // cache events per iteration, like value and check
  std::map<std::string, double> check_events;
  std::optional<std::string> failure;  // why there is no count
  FailureKind kind = FailureKind::None;
  double seconds = 0;
  double started = 0;  // wall clock (epoch seconds) when the job began; 0 unknown
  bool ran = false;
};

}  // namespace

CountedRunFiles read_counted_run(const std::string& job_dir, const std::string& name,
                                 bool keep_texts, const FileDigests* expected,
                                 FileDigests* record) {
  CountedRunFiles out;
  std::set<std::string> seen;
  // Each file is read once, and its digest taken of the bytes read: what is checked is what is
  // used.
  const auto read = [&](const std::string& relative,
                        std::size_t max) -> std::optional<std::string> {
    std::string text = read_or_empty(job_dir + "/" + relative, max);
    const std::string digest = sha256_hex(text);
    seen.insert(relative);
    if (record) (*record)[relative] = digest;
    if (expected) {
      const auto it = expected->find(relative);
      if (it == expected->end() || it->second != digest) {
        out.failure = fmt::format(
            "Callgrind's file {} changed after the count was read (the other side's code "
            "can write there)",
            relative);
        out.failure_kind = FailureKind::BadOutput;
        return std::nullopt;
      }
    }
    return text;
  };
  for (const char* process : {"1", "2"}) {
    CallgrindRun& run = std::string(process) == "1" ? out.first : out.second;
    std::vector<std::string>& texts =
        std::string(process) == "1" ? out.first_texts : out.second_texts;
    const std::optional<std::string> json = read(std::string(process) + "/out.json", 64u << 20);
    if (!json) return out;
    const Iterations iterations = iterations_from_json(*json, name);
    if (iterations.error) {
      out.failure = *iterations.error;
      out.failure_kind = FailureKind::BenchmarkError;
      return out;
    }
    run.iterations = iterations.count;
    const std::vector<DumpFile> files = list_dump_files(job_dir + "/" + process);
    for (const DumpFile& file : files) {
      std::optional<std::string> text = read(std::string(process) + "/" + file.file, 256u << 20);
      if (!text) return out;
      const std::optional<CallgrindDump> d = parse_callgrind_dump(*text);
      if (!d || d->trigger == CallgrindDump::Trigger::Report) continue;
      if (file.pid != files.front().pid) {
        out.failure = "more than one process ran the benchmark's loop under Callgrind";
        out.failure_kind = FailureKind::BadOutput;
        return out;
      }
      run.dumps.push_back(*d);
      if (keep_texts) texts.push_back(std::move(*text));
    }
  }
  if (expected) {
    for (const auto& [relative, digest] : *expected) {
      (void)digest;
      if (seen.count(relative) == 0) {
        out.failure = fmt::format(
            "Callgrind's file {} is gone since the count was read (the other side's code can "
            "write there)",
            relative);
        out.failure_kind = FailureKind::BadOutput;
        return out;
      }
    }
  }
  return out;
}

namespace {

Outcome read_outcome(const Job& job, double timeout, FileDigests* seal,
                     CountedRunFiles* keep = nullptr) {
  Outcome o;
  std::istringstream rc(read_or_empty(job.dir + "/rc"));
  int code = -1;
  double t0 = 0, t1 = 0;
  if (!(rc >> code >> t0 >> t1)) {
    o.failure = "did not run under Callgrind (the batch was stopped)";
    o.kind = FailureKind::Other;
    return o;
  }
  o.ran = true;
  o.started = t0;
  o.seconds = std::max(0.0, t1 - t0);
  const std::string log = read_or_empty(job.dir + "/log", 8u << 20);
  if (code == exec::kTimeoutExitCode) {
    o.failure = "timed out under Callgrind after " + format_duration(timeout);
    if (job.sharing > 1) *o.failure += fmt::format(" (its process ran {} benchmarks)", job.sharing);
    o.kind = FailureKind::Timeout;
    return o;
  }
  if (std::optional<std::string> why = valgrind_failure(log)) {
    o.failure = std::move(*why);
    o.kind = FailureKind::Signal;  // Valgrind raises SIGILL for what it cannot run
    return o;
  }
  if (code != 0) {
    const bool killed = code > exec::kShellSignalExitBase;
    const bool not_started =
        code == exec::kCannotExecuteExitCode || code == exec::kNotFoundExitCode;
    o.kind = killed ? FailureKind::Signal
                    : (not_started ? FailureKind::NotStarted : FailureKind::ExitCode);
    o.failure = killed ? fmt::format("killed by signal {} under Callgrind",
                                     code - exec::kShellSignalExitBase)
                       : fmt::format("exit code {} under Callgrind", code);
    if (std::string tail = last_line(log); !tail.empty()) *o.failure += ": " + tail;
    return o;
  }
  CountedRunFiles files = read_counted_run(job.dir, job.name, keep != nullptr, nullptr, seal);
  if (files.failure) {
    o.failure = files.failure;
    o.kind = files.failure_kind;
    return o;
  }
  const CountedRunFiles* read = &files;
  if (keep) {
    *keep = std::move(files);
    read = keep;
  }
  const TwoRunCount per =
      instructions_per_iteration(read->first, read->second, kCallgrindRepetitions);
  o.value = per.instructions;
  o.check = per.check;
  o.events = per.events;
  o.check_events = per.check_events;
  o.failure = per.failure;
  if (o.failure) o.kind = FailureKind::BadOutput;
  return o;
}

}  // namespace

std::string callgrind_job_script(const SuiteConfig& suite, const Config& c,
                                 const std::vector<std::string>& names, const std::string& worktree,
                                 const std::string& job_dir, const std::string& valgrind,
                                 const std::string& preload) {
  const double timeout = callgrind_process_timeout(c.timeout_for(suite), names.size());
  std::string log = "/log";  // below job_dir: where the process's output goes
  const auto run = [&](const char* process, double min_time, const char* redirect) {
    const std::string at = job_dir + "/" + process;
    // Late instrumentation: the library turns it on when Google Benchmark opens the JSON file
    // named on its command line (the same string), after the suite's start-up.
    const std::string late =
        preload.empty() ? std::string()
                        : fmt::format("env LD_PRELOAD={}\"${{LD_PRELOAD:+:$LD_PRELOAD}}\" {}={} ",
                                      shell_quote(preload), kInstrumentOnOpenVariable,
                                      shell_quote(at + "/out.json"));
    return fmt::format(
        "timeout --foreground -k 10 {timeout:.0f} {late}{valgrind} {args} {cmd} {redirect} {log} "
        "2>&1",
        fmt::arg("timeout", timeout), fmt::arg("late", late),
        fmt::arg("valgrind", shell_quote(valgrind)),
        fmt::arg("args", callgrind_arguments(at + "/cg", c.cycle_estimate, preload.empty())),
        fmt::arg("cmd", benchmark_command(suite, c, names, at + "/out.json", min_time)),
        fmt::arg("redirect", redirect), fmt::arg("log", shell_quote(job_dir + log)));
  };
  // "exit-code start end" to rc: a batch never fails for one job.
  if (!preload.empty()) {
    // A slow start-up (late instrumentation) dominates each process: the two run at once, each
    // on a core of its own (plan_groups gives such a suite half the groups), so the job takes
    // one start-up of wall time instead of two.
    log = "/log.2";
    const std::string second = run("2", kCallgrindLongMinTime, ">");
    log = "/log";
    return fmt::format(
        "cd {dir} || {{ echo \"127 0 0\" > {rc}; exit 0; }}\n"
        "start=$(date +%s.%N)\n"
        "{first} &\n"
        "first=$!\n"
        "{second} &\n"
        "second=$!\n"
        "wait $first\n"
        "code=$?\n"
        "wait $second\n"
        "code2=$?\n"
        "cat {log2} >> {log} 2> /dev/null; rm -f {log2}\n"
        "if [ \"$code\" -eq 0 ]; then code=$code2; fi\n"
        "echo \"$code $start $(date +%s.%N)\" > {rc}\n",
        fmt::arg("dir", shell_quote(worktree)), fmt::arg("rc", shell_quote(job_dir + "/rc")),
        fmt::arg("first", run("1", 0, ">")), fmt::arg("second", second),
        fmt::arg("log", shell_quote(job_dir + "/log")),
        fmt::arg("log2", shell_quote(job_dir + "/log.2")));
  }
  return fmt::format(
      "cd {dir} || {{ echo \"127 0 0\" > {rc}; exit 0; }}\n"
      "start=$(date +%s.%N)\n"
      "{first}\n"
      "code=$?\n"
      "if [ \"$code\" -eq 0 ]; then\n"
      "{second}\n"
      "code=$?\n"
      "fi\n"
      "echo \"$code $start $(date +%s.%N)\" > {rc}\n",
      fmt::arg("dir", shell_quote(worktree)), fmt::arg("rc", shell_quote(job_dir + "/rc")),
      fmt::arg("first", run("1", 0, ">")),
      fmt::arg("second", run("2", kCallgrindLongMinTime, ">>")));
}

double callgrind_process_timeout(double suite_timeout, std::size_t benchmarks) {
  return std::max(
      1.0, std::ceil(suite_timeout * static_cast<double>(std::max<std::size_t>(1, benchmarks))));
}

CallgrindJobResult read_callgrind_job(const std::string& job_dir, const std::string& name,
                                      double timeout, bool keep_texts, FileDigests* record) {
  Job job;
  job.dir = job_dir;
  job.name = name;
  CallgrindJobResult out;
  const Outcome o = read_outcome(job, timeout, record, keep_texts ? &out.files : nullptr);
  out.instructions = o.value;
  out.check = o.check;
  out.events = o.events;
  out.failure = o.failure;
  out.kind = o.kind;
  out.seconds = o.seconds;
  return out;
}

BenchmarkIterations benchmark_iterations(const std::string& json_text, const std::string& name) {
  Iterations i = iterations_from_json(json_text, name);
  return {i.count, std::move(i.error)};
}

bool valgrind_installed(exec::ProcessRunner& processes, const std::string& valgrind) {
  exec::ProcessSpec probe;
  probe.command = shell_quote(valgrind) + " --version";
  probe.timeout_seconds = 60;
  return processes.run(probe).ok();
}

std::string valgrind_missing_message() {
  return fmt::format(
      "instruction counts need Valgrind (Callgrind), which is not installed: install the "
      "Debian/Ubuntu package `{}` (apt-get install {}), or measure time only (remove "
      "`metric: instructions` / `instructions: true` from .benchpr.yml)",
      kValgrindPackage, kValgrindPackage);
}

namespace {

// What one side's counting shares with the other's and with the base counted again, internal to
// counting: the deadline's start and its length (counting's share, which the base's listings may
// widen), the clock, the earliest start of a counted run, and each suite's listing time.
struct CountingContext {
  const Clock& clock;
  double began = 0;
  double deadline = 0;  // seconds from `began`; 0: none
  double first_start = 0;
  // Each suite's listing time (its start-up, natively), the base's: the base counted again lists
  // nothing, and pays this start-up.
  std::map<std::string, StartUp> listed;
  // The base counted again: its benchmarks are `only`'s, its start-ups `listed`.
  bool again = false;
};

// "14s" or "21s (14s of CPU)": a start-up as its listing took it.
std::string start_up_words(const StartUp& s) {
  if (!(s.cpu > 0) || s.cpu >= s.wall * 0.9) return format_duration(s.wall);
  return fmt::format("{} ({} of CPU)", format_duration(s.wall), format_duration(s.cpu));
}

// A counted suite's benchmarks on one side, as listed (or known, for the base counted again).
struct SuiteListing {
  const SuiteConfig* suite = nullptr;
  Listing listing;
  bool late = false;  // a slow start-up, where the late-instrumentation library is there
};

// The Callgrind jobs of one side: one per benchmark. A suite that cannot be listed and a
// multi-threaded benchmark are recorded as failures instead. Every suite is listed first; after
// the base's first listings, counting's share of the budget is settled (counting_share), before
// anything runs under Callgrind. Nothing when interrupted.
std::optional<std::vector<Job>> plan_jobs(exec::ProcessRunner& processes, Results& results,
                                          const InstructionSetup& setup, CountingContext& context,
                                          Side side, const std::string& side_dir,
                                          const std::function<void(const std::string&)>& progress) {
  const Config& c = results.config;
  std::vector<SuiteListing> suites;
  for (const SuiteConfig& suite : c.suites) {
    if (!c.counts_instructions(suite)) continue;
    if (setup.skipped_suites && setup.skipped_suites->count(suite.name)) continue;
    const std::string dir = side == Side::Base ? setup.base_dir : setup.head_dir;
    // The base counted again lists nothing: its benchmarks are known, and a listing costs a
    // start-up. Its start-up is known from the first count too.
    SuiteListing listed;
    listed.suite = &suite;
    Listing& listing = listed.listing;
    if (context.again) {
      const auto known = context.listed.find(suite.name);
      if (known != context.listed.end()) listing.start_up = known->second;
      if (setup.only)
        if (const auto mine = setup.only->find(suite.name); mine != setup.only->end())
          listing.names = mine->second;
    } else {
      listing = list_benchmarks(processes, results, suite, dir);
      if (side == Side::Base) context.listed[suite.name] = listing.start_up;
    }
    if (setup.only) {
      if (const auto mine = setup.only->find(suite.name); mine != setup.only->end()) {
        const std::set<std::string> keep(mine->second.begin(), mine->second.end());
        std::erase_if(listing.names, [&keep](const std::string& n) { return keep.count(n) == 0; });
      }
    }
    if (exec::interrupt_requested()) return std::nullopt;
    listed.late = !listing.failure && listing.start_up.wall >= kLateInstrumentationStartUp &&
                  !instrument_on_open_library().empty();
    suites.push_back(std::move(listed));
  }
  // Counting's share, from the start-ups the base's listings measured: a quarter of the budget,
  // or half where a quarter is too little for both sides and half enough.
  if (side == Side::Base && !context.again && setup.deadline_seconds > 0 &&
      setup.budget_seconds > 0) {
    std::vector<SuiteStartUp> start_ups;
    for (const SuiteListing& s : suites)
      if (!s.listing.failure && !s.listing.names.empty())
        start_ups.push_back({s.listing.start_up, s.late});
    const CountingShare share =
        counting_share(setup.budget_seconds,
                       estimate_counting(start_ups, context.clock.now_seconds() - context.began));
    context.deadline = share.seconds;
    results.counting_share_seconds = share.seconds;
    progress(share.sentence);
  }
  std::vector<Job> jobs;
  std::optional<std::string> side_preload;  // written once per side, when a suite needs it
  for (SuiteListing& listed : suites) {
    const SuiteConfig& suite = *listed.suite;
    const Listing& listing = listed.listing;
    const std::vector<std::string>& names = listing.names;
    const std::string series_suite = instruction_suite_name(suite.name);
    if (listing.failure) {
      progress(fmt::format("  {} {}: {}", side_word(side), suite.name, *listing.failure));
      set_failure(results, series_suite, "(suite " + series_suite + ")", side, *listing.failure);
      continue;
    }
    // A slow start-up runs uninstrumented where the library is there: the instrumentation
    // comes on when Google Benchmark starts (runner/instrument_on_open.hpp).
    std::string preload;
    if (listed.late) {
      if (!side_preload) side_preload = write_instrument_on_open(side_dir).value_or("");
      preload = *side_preload;
      if (!preload.empty())
        progress(
            fmt::format("  {} {}: its start-up takes {} natively; it runs uninstrumented "
                        "under Callgrind, counting from the first benchmark",
                        side_word(side), suite.name, start_up_words(listing.start_up)));
    }
    // The cost bounded before starting: each Callgrind process (two per job) pays the suite's
    // start-up, which its listing took natively. Where that alone would overrun a side's half
    // of counting's share of the budget, its benchmarks are not counted, and say why.
    // Late instrumentation also runs a group's two processes at once: one start-up of wall time.
    const double start_up = start_up_bound(listing.start_up, !preload.empty());
    if (context.deadline > 0 && start_up > context.deadline / 2) {
      const std::string why = fmt::format(
          "not counted: the suite's start-up takes {} before its first benchmark (its listing, "
          "natively), at least {} per Callgrind job{}, more than counting's share of the "
          "time budget ({}) allows; a longer `budget:`, or `instructions: false` in "
          ".benchpr.yml, saves the time",
          start_up_words(listing.start_up), format_duration(start_up),
          preload.empty() ? "" : " even uninstrumented", format_duration(context.deadline));
      progress(
          fmt::format("  {} {}: {} benchmarks {}", side_word(side), suite.name, names.size(), why));
      for (const std::string& name : names)
        set_failure(results, series_suite, name, side, why, FailureKind::Timeout);
      continue;
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string& name = names[i];
      if (is_multithreaded_benchmark(name)) {
        set_failure(results, series_suite, name, side,
                    "multi-threaded: Callgrind runs threads one at a time and cannot count one "
                    "thread's loop (its time is compared)",
                    FailureKind::Setup);
        continue;
      }
      Job job;
      job.suite = &suite;
      job.side = side;
      job.name = name;
      job.preload = preload;
      // The same length on both sides (side folders of one length, the benchmark's place in the
      // list): the JSON path is on the benchmark's command line, and its length can move the
      // allocator's state, and so the count of a loop that allocates.
      job.dir = fmt::format("{}/{}-{:05}", side_dir, suite.name, i);
      jobs.push_back(std::move(job));
    }
  }
  return jobs;
}

// A fresh folder for one side's jobs below `parent`, its name unpredictable ("base-" or "head-"
// and six random characters: the same length for both sides), readable by its owner only.
std::optional<std::string> make_side_dir(const std::string& parent, Side side) {
  std::string path = parent + "/" + std::string(to_string(side)) + "-XXXXXX";
  if (::mkdtemp(path.data()) == nullptr) return std::nullopt;
  return path;
}

// Writes the script of each process (a group's, or a benchmark's alone) and the list the batch
// runs into `list_path`; false (every job recorded as failed) when the list cannot be written.
// Each script runs its benchmarks under Callgrind twice: at one iteration per repetition (1/)
// and, when that worked, at the iterations kCallgrindLongMinTime takes (2/).
bool write_job_scripts(const std::vector<Job>& jobs, const std::vector<Group>& groups,
                       const std::vector<std::size_t>& alone, Results& results,
                       const InstructionSetup& setup, const std::string& list_path,
                       const std::function<void(const std::string&)>& progress) {
  const Config& c = results.config;
  std::error_code ec;
  std::string list;
  const auto write = [&](const Job& first, const std::vector<std::string>& names,
                         const std::string& dir) {
    fs::create_directories(dir + "/1", ec);
    fs::create_directories(dir + "/2", ec);
    const std::string script = callgrind_job_script(
        *first.suite, c, names, first.side == Side::Base ? setup.base_dir : setup.head_dir, dir,
        setup.valgrind, first.preload);
    try {
      write_file_atomically(dir + "/job.sh", script);
    } catch (const StoreError& e) {
      progress(std::string("warning: ") + e.what());
    }
    list += dir + "/job.sh\n";
  };
  for (const Group& g : groups) {
    std::vector<std::string> names;
    for (std::size_t i : g.members) names.push_back(jobs[i].name);
    write(jobs[g.members.front()], names, g.dir);
  }
  for (std::size_t i : alone) write(jobs[i], {jobs[i].name}, jobs[i].dir);
  try {
    write_file_atomically(list_path, list);
  } catch (const StoreError& e) {
    for (const Job& job : jobs)
      set_failure(results, instruction_suite_name(job.suite->name), job.name, job.side, e.what());
    return false;
  }
  return true;
}

// The processes of one side: each suite's benchmarks in at most `parallel` groups (one process
// each, so the suite's start-up is paid once per group); a group of one runs alone in its own
// folder. `alone` receives the jobs that run by themselves.
std::vector<Group> plan_groups(std::vector<Job>& jobs, int parallel, const std::string& side_dir,
                               std::vector<std::size_t>& alone) {
  std::vector<Group> groups;
  std::map<const SuiteConfig*, std::vector<std::size_t>> by_suite;
  std::vector<const SuiteConfig*> order;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (by_suite[jobs[i].suite].empty()) order.push_back(jobs[i].suite);
    by_suite[jobs[i].suite].push_back(i);
  }
  std::error_code ec;
  for (const SuiteConfig* suite : order) {
    const std::vector<std::size_t>& indices = by_suite[suite];
    std::vector<std::string> names;
    for (std::size_t i : indices) names.push_back(jobs[i].name);
    // A suite instrumented late runs each group's two processes at once (callgrind_job_script):
    // half the groups keep the cores as busy, and pay the start-up half as often.
    const bool late = !jobs[indices.front()].preload.empty();
    const auto planned = callgrind_groups(names, late ? std::max(1, parallel / 2) : parallel);
    for (std::size_t g = 0; g < planned.size(); ++g) {
      if (planned[g].size() == 1) {
        alone.push_back(indices[planned[g].front()]);
        continue;
      }
      Group group;
      // The same length on both sides, like the benchmarks' folders.
      group.dir = fmt::format("{}/groups/{}-{:05}", side_dir, suite->name, g);
      for (std::size_t k : planned[g]) {
        group.members.push_back(indices[k]);
        jobs[indices[k]].sharing = planned[g].size();
      }
      groups.push_back(std::move(group));
    }
  }
  fs::create_directories(side_dir + "/groups", ec);
  return groups;
}

// Runs the scripts listed in `list_path`, `parallel` at a time; the batch's result.
exec::ProcessResult run_batch(exec::ProcessRunner& processes, const Config& c,
                              const std::string& side_dir, const std::string& list_path,
                              double timeout, int parallel, const std::string& log_path) {
  exec::ProcessSpec spec;
  spec.cwd = side_dir;
  spec.command = fmt::format("xargs -d '\\n' -P {} -n 1 sh < {}", parallel, shell_quote(list_path));
  spec.timeout_seconds = timeout;
  spec.scrub_env = c.scrub_env;
  spec.log_path = log_path;
  spec.tail_bytes = exec::kMessageTailBytes;
  return processes.run(spec);
}

// Each job's run record, and its count or failure in the instruction series; how many failed.
// Every job's files are read here, once, and sealed (setup.sealed).
int record_outcomes(const std::vector<Job>& jobs, Results& results, const InstructionSetup& setup,
                    double& first_start, const std::optional<std::string>& stopped,
                    const std::function<void(const std::string&)>& progress) {
  std::vector<Outcome> outcomes;
  std::vector<FileDigests> digests(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    outcomes.push_back(read_outcome(
        job, callgrind_process_timeout(results.config.timeout_for(*job.suite), job.sharing),
        &digests[i]));
    // A job the deadline kept from running, or stopped, says so rather than what it left.
    if (stopped && (!outcomes.back().ran || outcomes.back().kind == FailureKind::Timeout)) {
      outcomes.back().failure = *stopped;
      outcomes.back().kind = FailureKind::Timeout;
    }
    if (outcomes.back().ran && (first_start == 0 || outcomes.back().started < first_start))
      first_start = outcomes.back().started;
  }
  int failed = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    const Outcome& o = outcomes[i];
    const std::string suite = instruction_suite_name(job.suite->name);
    RunRecord rec;
    rec.round = 0;
    rec.suite = suite;
    rec.side = job.side;
    rec.started = setup.started + (o.ran ? std::max(0.0, o.started - first_start) : 0);
    rec.seconds = o.seconds;
    rec.ok = !o.failure;
    rec.failure = o.failure ? job.name + ": " + *o.failure : "";
    rec.failure_kind = o.failure ? o.kind : FailureKind::None;
    if (!rec.ok) rec.log_tail = last_line(read_or_empty(job.dir + "/log", 1u << 20));
    results.runs.push_back(std::move(rec));
    if (o.failure) {
      ++failed;
      set_failure(results, suite, job.name, job.side, *o.failure, o.kind);
      progress(fmt::format("  {} {} {}: {} (log: {}/log)", side_word(job.side), job.suite->name,
                           job.name, *o.failure, job.dir));
      continue;
    }
    BenchmarkSeries& s = instruction_series(results, suite, job.name);
    std::vector<double> values = {o.value};
    const bool checked = std::isfinite(o.check) && o.check > 0;
    if (checked) values.push_back(o.check);
    (job.side == Side::Base ? s.base : s.head) = std::move(values);
    // The cache events at the same places as the count and its check.
    std::map<std::string, std::vector<double>>& events =
        job.side == Side::Base ? s.base_events : s.head_events;
    events.clear();
    for (const auto& [name, value] : o.events) {
      std::vector<double>& v = events[name];
      v.push_back(value);
      if (const auto check = o.check_events.find(name); checked && check != o.check_events.end())
        v.push_back(check->second);
    }
    if (setup.sealed)
      (*setup.sealed)[{job.suite->name, job.side, job.name}] = {job.dir, std::move(digests[i]),
                                                                !job.preload.empty()};
  }
  return failed;
}

// The batch's own limit: every process's allowance (two runs, 15 s to start) spread over the
// cores, plus the longest once and a minute; 0 (none) when a suite has no timeout.
double batch_timeout(const std::vector<Job>& jobs, const std::vector<Group>& groups,
                     const std::vector<std::size_t>& alone, const Config& c, int parallel) {
  double total = 0, longest = 0;
  const auto add = [&](const Job& job, std::size_t benchmarks) {
    const double suite = c.timeout_for(*job.suite);
    if (!(suite > 0)) return false;
    const double t = 2 * callgrind_process_timeout(suite, benchmarks) + 15;
    total += t;
    longest = std::max(longest, t);
    return true;
  };
  for (const Group& g : groups)
    if (!add(jobs[g.members.front()], g.members.size())) return 0;
  for (std::size_t i : alone)
    if (!add(jobs[i], 1)) return 0;
  return std::ceil(total / std::max(1, parallel)) + longest + 60;
}

std::string deadline_reason(double deadline, bool late) {
  // Most often a suite's start-up (what its main does before the first benchmark: loading
  // data) runs 20-50 times slower under Valgrind, once per Callgrind process; about 4 times even
  // uninstrumented (late instrumentation).
  return fmt::format(
      "not counted: instruction counting's share of the time budget ({}) ran out (under "
      "Callgrind a suite's start-up before its first benchmark runs {} times slower{}; a longer "
      "`budget:`, `instructions: true` (counting without a share of its own), or `instructions: "
      "false` in .benchpr.yml, saves the time)",
      format_duration(deadline), late ? "about 4" : "20–50", late ? " even uninstrumented" : "");
}

bool group_timed_out(const std::string& group_dir) {
  std::istringstream rc(read_or_empty(group_dir + "/rc"));
  int code = -1;
  return (rc >> code) && code == exec::kTimeoutExitCode;
}

enum class SideEnd { Done, Interrupted, Abandoned };

// Counts one side's benchmarks (all those `setup` asks for) in a fresh folder of its own: lists
// them, runs their groups as one batch within the side's share of the deadline, counts again
// one at a time the benchmarks of a group whose process failed, and records every outcome.
SideEnd count_side(exec::ProcessRunner& processes, Results& results, const InstructionSetup& setup,
                   Side side, const std::string& label, bool half_of_what_is_left,
                   CountingContext& timing,
                   const std::function<void(const std::string&)>& progress) {
  const Config& c = results.config;
  std::error_code ec;
  const int parallel = std::max(1, setup.parallel);
  const Clock& clock = timing.clock;
  const double began = timing.began;
  double& first_start = timing.first_start;
  const std::optional<std::string> side_dir = make_side_dir(setup.work_dir, side);
  if (!side_dir) {
    progress("warning: cannot create a folder for Callgrind's files in " + setup.work_dir);
    return SideEnd::Abandoned;
  }
  const std::optional<std::vector<Job>> planned =
      plan_jobs(processes, results, setup, timing, side, *side_dir, progress);
  if (!planned) return SideEnd::Interrupted;
  std::vector<Job> jobs = *planned;
  if (jobs.empty()) return SideEnd::Done;
  std::vector<std::size_t> alone;
  const std::vector<Group> groups = plan_groups(jobs, parallel, *side_dir, alone);
  progress(fmt::format(
      "counting instructions under Callgrind, {}: {} benchmarks in {} processes (two runs "
      "each), {} at a time",
      side_word(side), jobs.size(), groups.size() + alone.size(), parallel));
  const std::string log_path = setup.log_dir + "/instructions-" + label + ".log";
  fs::remove(log_path, ec);
  if (!write_job_scripts(jobs, groups, alone, results, setup, *side_dir + "/jobs.list", progress))
    return SideEnd::Done;
  // The deadline: half of what is left for the base, all of it for the PR. A batch it cuts
  // short leaves its jobs "not counted" with the reason, and no group is counted again.
  const auto allowance = [&](double limit) {
    if (!(timing.deadline > 0)) return limit;
    const double left = std::max(1.0, (timing.deadline - (clock.now_seconds() - began)) /
                                          (half_of_what_is_left ? 2.0 : 1.0));
    return limit > 0 ? std::min(limit, left) : left;
  };
  std::optional<std::string> stopped;
  const auto run = [&](const std::string& list, double limit, const std::string& log) {
    const double allowed = allowance(limit);
    exec::ProcessResult p = run_batch(processes, c, *side_dir, list, allowed, parallel, log);
    if (p.timed_out && timing.deadline > 0 && (limit <= 0 || allowed < limit))
      stopped = deadline_reason(
          timing.deadline,
          std::any_of(jobs.begin(), jobs.end(), [](const Job& j) { return !j.preload.empty(); }));
    return p;
  };
  exec::ProcessResult batch =
      run(*side_dir + "/jobs.list", batch_timeout(jobs, groups, alone, c, parallel), log_path);
  if (batch.interrupted) return SideEnd::Interrupted;
  // A group whose process failed (a crash, an exit code, output that cannot be told apart)
  // is counted again one benchmark at a time, so one benchmark's failure costs only its own
  // count; a group that ran out of time is not run again.
  std::vector<std::size_t> again;
  for (const Group& g : groups) {
    std::vector<std::string> names, dirs;
    for (std::size_t i : g.members) {
      names.push_back(jobs[i].name);
      dirs.push_back(jobs[i].dir);
    }
    std::optional<std::string> why = split_group_run(g.dir, names, dirs);
    if (!why) continue;
    if (std::optional<std::string> valgrind =
            valgrind_failure(read_or_empty(g.dir + "/log", 8u << 20)))
      why = std::move(valgrind);
    if (stopped || group_timed_out(g.dir)) {
      for (const std::string& dir : dirs) {
        fs::create_directories(dir, ec);
        fs::copy_file(g.dir + "/rc", dir + "/rc", fs::copy_options::overwrite_existing, ec);
        fs::copy_file(g.dir + "/log", dir + "/log", fs::copy_options::overwrite_existing, ec);
      }
      continue;
    }
    progress(fmt::format(
        "  {} {}: one Callgrind process for {} benchmarks did not give their "
        "counts ({}); counting them one at a time (log: {}/log)",
        side_word(side), jobs[g.members.front()].suite->name, names.size(), *why, g.dir));
    for (std::size_t i : g.members) {
      jobs[i].sharing = 1;
      again.push_back(i);
    }
  }
  if (!again.empty()) {
    if (!write_job_scripts(jobs, {}, again, results, setup, *side_dir + "/again.list", progress))
      return SideEnd::Done;
    const exec::ProcessResult retry =
        run(*side_dir + "/again.list", batch_timeout(jobs, {}, again, c, parallel),
            log_path + ".again");
    if (retry.interrupted) return SideEnd::Interrupted;
    batch.user_seconds += retry.user_seconds;
    batch.system_seconds += retry.system_seconds;
    batch.wall_seconds += retry.wall_seconds;
  }
  // wait4 of the batch counts every job it waited for: what the counts cost in CPU, whatever
  // else the machine was doing. A batch stopped by its time limit was killed before it waited
  // for its jobs: their CPU time is not known.
  if (batch.timed_out)
    progress(fmt::format("  {} Callgrind jobs stopped by their time limit after {}", jobs.size(),
                         format_duration(batch.wall_seconds)));
  else
    progress(fmt::format("  {} Callgrind jobs took {} of CPU time in {}", jobs.size(),
                         format_duration(batch.user_seconds + batch.system_seconds),
                         format_duration(batch.wall_seconds)));
  const int failed = record_outcomes(jobs, results, setup, first_start, stopped, progress);
  if (stopped) progress("  " + *stopped);
  if (!batch.ok() && failed == 0 && !stopped)
    progress("  warning: the Callgrind batch " + *batch.describe_failure(0));
  return SideEnd::Done;
}

// The benchmarks (by suite name) whose two sides' counts are not the same work: those a count
// could decide or keep from reading "same count". Those whose reading a count made again cannot
// change (recount_can_change_reading) are named in `settled` instead.
std::map<std::string, std::vector<std::string>> moved_counts(const Results& results,
                                                             std::vector<std::string>& settled) {
  std::map<std::string, std::vector<std::string>> out;
  const double threshold = results.config.instruction_threshold;
  const double agreement = count_agreement(threshold);
  for (const SuiteConfig& suite : results.config.suites) {
    if (!results.config.counts_instructions(suite)) continue;
    const std::string counted = instruction_suite_name(suite.name);
    for (const BenchmarkSeries& s : results.series) {
      if (s.suite != counted || s.base.empty() || s.head.empty()) continue;
      const double base = s.base.front(), head = s.head.front();
      if (!std::isfinite(base) || !std::isfinite(head) || !(base > 0) || !(head > 0)) continue;
      if (!(std::fabs(head / base - 1) > agreement + 1e-12)) continue;
      if (recount_can_change_reading(s, threshold))
        out[suite.name].push_back(s.name);
      else
        settled.push_back(s.name);
    }
  }
  return out;
}

// A count that moved is counted on the base again, after the PR's, in fresh processes: a
// benchmark whose work depends on the process it runs in (cctz's ParseTime/1: one side's two
// counts 4.3% apart in one comparison, the sides 8.9% apart in another while each side's own two
// counts agreed) shows it as a base that disagrees with itself, and its count does not decide
// (core's count check). The
// base's code is the base's: no code of the PR runs during it, as in the base's first batch.
bool count_moved_again(exec::ProcessRunner& processes, Results& results,
                       const InstructionSetup& setup, CountingContext& timing,
                       const std::function<void(const std::string&)>& progress) {
  std::vector<std::string> settled;
  const std::map<std::string, std::vector<std::string>> moved = moved_counts(results, settled);
  if (!settled.empty())
    progress(fmt::format(
        "not counting again on the base {} benchmark(s) whose counts moved but whose own counts "
        "already disagree by more than any change could stand clear of (their time decides; a "
        "count made again could only widen that): {}",
        settled.size(), fmt::join(settled, ", ")));
  if (moved.empty()) return true;
  if (timing.deadline > 0) {
    // What the base's processes pay before their first benchmark, by the bound: a recount the
    // deadline would cut short tells nothing.
    double start_up = 0;
    for (const auto& [suite, names] : moved) {
      (void)names;
      const auto listed = timing.listed.find(suite);
      const StartUp known = listed == timing.listed.end() ? StartUp{} : listed->second;
      start_up += start_up_bound(known, known.wall >= kLateInstrumentationStartUp &&
                                            !instrument_on_open_library().empty());
    }
    const double left = timing.deadline - (timing.clock.now_seconds() - timing.began);
    if (!recount_fits(left, start_up)) {
      progress(fmt::format(
          "not counting the moved counts again on the base: {} of counting's share of the "
          "budget ({}) is left, and its processes would pay about {} of start-up (at least {}): "
          "the counts made decide as they are",
          format_duration(std::max(0.0, left)), format_duration(timing.deadline),
          format_duration(start_up), format_duration(kLeastRecountSeconds)));
      return true;
    }
  }
  std::size_t count = 0;
  std::set<std::string> others;  // counted suites with nothing to count again
  for (const auto& [suite, names] : moved) count += names.size();
  for (const SuiteConfig& suite : results.config.suites)
    if (!moved.count(suite.name)) others.insert(suite.name);
  progress(fmt::format(
      "counting again on the base, after the PR: {} benchmark(s) whose counts moved (a count that "
      "depends on when it runs is not the PR's change)",
      count));
  // The PR's code ran since the base's count: the base's programs must be the ones built.
  if (setup.before_base_again) setup.before_base_again();
  Results again = results;
  InstructionSetup recount = setup;
  recount.only = &moved;
  recount.skipped_suites = &others;
  recount.sealed = nullptr;  // the profiles reuse the first count's files
  timing.again = true;
  const SideEnd end = count_side(processes, again, recount, Side::Base, "base-again", false, timing,
                                 [&](const std::string& line) { progress(line); });
  timing.again = false;
  if (end == SideEnd::Interrupted) return false;
  if (setup.after_side) setup.after_side(Side::Base);
  for (const auto& [suite, names] : moved) {
    const std::string counted = instruction_suite_name(suite);
    for (const std::string& name : names) {
      const BenchmarkSeries* later = nullptr;
      for (const BenchmarkSeries& s : again.series)
        if (s.suite == counted && s.name == name) later = &s;
      if (later == nullptr || !later->base_failure.empty() || later->base.empty()) continue;
      BenchmarkSeries& s = instruction_series(results, counted, name);
      if (s.base.empty()) continue;
      // [count, check, again]: a count without its check keeps the check's place empty.
      s.base.resize(2, kMissing);
      s.base.push_back(later->base.front());
    }
  }
  return true;
}

}  // namespace

bool count_instructions(exec::ProcessRunner& processes, Results& results,
                        const InstructionSetup& setup,
                        const std::function<void(const std::string&)>& progress) {
  std::error_code ec;
  fs::remove_all(setup.work_dir, ec);
  fs::create_directories(setup.work_dir, ec);
  fs::permissions(setup.work_dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  if (setup.sealed) setup.sealed->clear();
  const Clock& clock = setup.clock ? *setup.clock : steady_clock();
  CountingContext timing{clock, clock.now_seconds(), setup.deadline_seconds, 0, {}, false};
  // One side at a time, the base first: a side's outputs are read and sealed before the other
  // side's code runs at all (its listing included), so the PR's code never finds the base's
  // counts unread.
  for (Side side : {Side::Base, Side::Head}) {
    const SideEnd end = count_side(processes, results, setup, side, std::string(to_string(side)),
                                   side == Side::Base, timing, progress);
    if (end == SideEnd::Interrupted) return false;
    if (setup.after_side) setup.after_side(side);
    if (end == SideEnd::Abandoned) return true;
  }
  return count_moved_again(processes, results, setup, timing, progress);
}

}  // namespace benchpr::runner
