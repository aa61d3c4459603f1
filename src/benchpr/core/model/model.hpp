// The plain values that flow through benchpr's pipeline. No IO here: every layer (formats,
// runner, statistics, rendering, GitHub) speaks these types, so each can be tested alone.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/base/name_table.hpp"
#include "benchpr/core/model/benchmark_flag.hpp"
#include "benchpr/core/model/bisect_types.hpp"
#include "benchpr/core/model/comment_policy.hpp"
#include "benchpr/core/model/format_kind.hpp"
#include "benchpr/core/model/hot_code.hpp"
#include "benchpr/core/model/profile.hpp"
#include "benchpr/core/model/stop_reason.hpp"

namespace benchpr {

inline constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
inline bool is_missing(double v) { return std::isnan(v); }

enum class Side { Base, Head };
enum class Better { Lower, Higher };

// A side as the results file names it (a build's, a run's, a digest's `side`).
inline constexpr NameTable<Side, 2> kSides{{{
    {Side::Base, "base"},
    {Side::Head, "head"},
}}};
// Which way a benchmark's value is better: a suite's or rule's `better:` and a series' `better`.
inline constexpr NameTable<Better, 2> kBetters{{{
    {Better::Lower, "lower"},
    {Better::Higher, "higher"},
}}};

std::string_view to_string(Side side);
std::optional<Side> side_from_string(std::string_view s);
std::string_view to_string(Better better);
std::optional<Better> better_from_string(std::string_view s);

// Why a build, a run or a benchmark gave no value. Decisions (give up on a suite after a
// timeout, probe a crashed suite for its crasher, ...) are made on the kind; the message next to
// it is for people and is never parsed back.
enum class FailureKind {
  None,             // no failure
  ExitCode,         // the process exited with a non-zero code
  Signal,           // killed by a signal (a crash), also when the shell reports it as 128+N
  Timeout,          // killed by benchpr after its timeout
  NotStarted,       // could not start: no working directory, no shell, command not found (126/127)
  Interrupted,      // benchpr itself was asked to stop
  BadOutput,        // no results file, or one that cannot be read or parsed
  BenchmarkError,   // the tool reported the benchmark as failed (error_occurred, missing data)
  ValueOutOfRange,  // a value that cannot be a measurement of its unit (NaN, 0, negative, ...)
  GivenUp,          // not run again: an earlier run of the suite on that side timed out
  NotMeasured,      // its shard of a merged comparison is missing or failed, or no analysed
                    // round holds a value of it (every round left out as lopsided)
  Setup,            // the configuration cannot be carried out (unknown format or metric)
  Other,            // a failure of no known kind (results written before kinds were recorded)
};
inline constexpr NameTable<FailureKind, 13> kFailureKinds{{{
    {FailureKind::None, "none"},
    {FailureKind::ExitCode, "exit-code"},
    {FailureKind::Signal, "signal"},
    {FailureKind::Timeout, "timeout"},
    {FailureKind::NotStarted, "not-started"},
    {FailureKind::Interrupted, "interrupted"},
    {FailureKind::BadOutput, "bad-output"},
    {FailureKind::BenchmarkError, "benchmark-error"},
    {FailureKind::ValueOutOfRange, "value-out-of-range"},
    {FailureKind::GivenUp, "given-up"},
    {FailureKind::NotMeasured, "not-measured"},
    {FailureKind::Setup, "setup"},
    {FailureKind::Other, "other"},
}}};
std::string_view to_string(FailureKind kind);
std::optional<FailureKind> failure_kind_from_string(std::string_view s);

// ---------------------------------------------------------------------------------------------
// Configuration (.benchpr.yml, read from the base revision). Durations are in seconds.

// One entry of a suite's `benchmarks:` list: settings for the benchmarks whose names match.
// For each setting, the first entry that matches and sets it wins.
struct BenchmarkRule {
  std::string match;                // glob over the whole name: '*' any characters, '?' one
  std::optional<double> threshold;  // replaces the suite's / the run's threshold
  std::optional<Better> better;     // replaces the suite's direction
  int line = 0;                     // line in .benchpr.yml
};

struct SuiteConfig {
  std::string name;
  std::string run;  // shell command, run with /bin/sh -c in the worktree
  FormatKind format = FormatKind::GoogleBenchmark;
  std::optional<double> timeout_seconds;  // per invocation; falls back to Config::timeout_seconds
  // Which value to compare ("" = the format's default; for Google Benchmark that is "auto":
  // cpu_time for single-threaded benchmarks, real_time for threaded / real / manual time ones).
  std::string metric;
  std::optional<Better> better;  // override of the format's direction (custom format needs it)
  int line = 0;                  // line in .benchpr.yml, for error messages
  // `instructions: true`: also count instructions per iteration under Callgrind (Google
  // Benchmark suites), beside the time metric. `metric: instructions` counts them instead of time.
  bool instructions = false;
  // Default-initialised, so aggregate initialisations that stop at `line` compile clean.
  std::optional<double> threshold{};        // replaces Config::threshold for this suite
  std::vector<BenchmarkRule> benchmarks{};  // per-benchmark threshold / better, first match wins
  // `exclude:` patterns (glob_match): benchmarks left out of the comparison, as if never run.
  std::vector<std::string> exclude{};
};

// Whether one of the suite's `exclude:` patterns matches `name`.
bool excluded(const SuiteConfig& suite, std::string_view name);

// The metric name of instruction counts (Callgrind), in the config and in BenchmarkSeries::metric.
inline constexpr std::string_view kInstructionsMetric = "instructions";

// True when `name` matches `pattern` as a whole: '*' stands for any run of characters ('/'
// included), '?' for one character, everything else for itself.
bool glob_match(std::string_view pattern, std::string_view name);
// The direction a suite's `benchmarks:` rules set for `name`, if any.
std::optional<Better> rule_better(const SuiteConfig& suite, std::string_view name);
// The direction configured for `name`: its rule's, else the suite's; nullopt when neither says.
std::optional<Better> configured_better(const SuiteConfig& suite, std::string_view name);

// Fewer analysed rounds can never give a verdict: the crossover fit spends two degrees of
// freedom on the change and the run-order effect, and the leave-one-round-out check needs the rest.
inline constexpr int kMinDecidingRounds = 4;

enum class InstructionCounting {
  Auto,       // nothing said: `run` counts where Valgrind is installed (ByDefault), else Off
  On,         // top-level `instructions: true`, --instructions
  Off,        // `instructions: false`, --no-instructions, or Auto without Valgrind
  ByDefault,  // Auto with Valgrind: counted, and a count that fails is a note, not a failure
};

struct Config {
  std::string build;  // shell command; empty means "nothing to build"
  double build_timeout_seconds = 30 * 60;
  std::vector<SuiteConfig> suites;
  int rounds = 10;          // analysed rounds (after warm-up); rounded up to an even number
  int warmup_rounds = 1;    // discarded
  double threshold = 0.02;  // practical significance and equivalence margin, as a fraction
  double timeout_seconds = 10 * 60;      // default per suite invocation
  std::optional<double> budget_seconds;  // adaptive rounds stop here
  std::vector<std::string> scrub_env;    // extra variables removed from children's environment
  int repetitions = 3;                   // Google Benchmark repetitions per run (least taken)
  CommentPolicy comment = CommentPolicy::Always;  // when to post
  std::string filter;      // --filter: ECMAScript regex; only benchmarks whose name matches count
  std::string bench_args;  // --bench-args: appended to every suite's command (shell words)
  // Instruction counts are exact: a change is reported when it reaches this fraction.
  double instruction_threshold = 0.005;
  // Whether every Google Benchmark suite's instructions are counted beside its time (a suite's
  // own `instructions: true` or `metric: instructions` counts it whatever this says).
  InstructionCounting instructions = InstructionCounting::Auto;
  // Whether the instruction counts also run Callgrind's cache simulation, for an estimate of
  // cycles per iteration beside each count (`cycle_estimate: false`, --no-cycle-estimate: off;
  // docs/instructions.md, core/evidence/cycle_estimate.hpp).
  bool cycle_estimate = true;
  // Whether the timed programs are also relinked at other code offsets and the rounds rotated
  // over them, so that a change is read as its mean over placements (`placement_control: false`,
  // --no-placement-control: off; docs/placement.md, runner/placement_variants.hpp).
  bool placement_control = true;
  // `bisect: auto`: after a change is found, search the PR's commits for the ones behind it.
  BisectMode bisect = BisectMode::Off;

  double timeout_for(const SuiteConfig& s) const {
    return s.timeout_seconds.value_or(timeout_seconds);
  }
  // Whether the suite's instructions are counted (`metric: instructions`, or `instructions: true`
  // on the suite or at the top level), and whether its time is measured in rounds.
  bool counts_instructions(const SuiteConfig& s) const {
    return s.format == FormatKind::GoogleBenchmark &&
           (s.metric == kInstructionsMetric || s.instructions ||
            instructions == InstructionCounting::On ||
            instructions == InstructionCounting::ByDefault);
  }
  // Whether the suite is counted only because counting is on by default: nobody asked, so a
  // count that fails is said in a note and the benchmark is judged by its time.
  bool counts_by_default(const SuiteConfig& s) const {
    return instructions == InstructionCounting::ByDefault && counts_instructions(s) &&
           s.metric != kInstructionsMetric && !s.instructions;
  }
  static bool measures_time(const SuiteConfig& s) { return s.metric != kInstructionsMetric; }
  const SuiteConfig* find_suite(std::string_view suite) const;
  // The threshold a benchmark is judged by: its first matching rule's, else its suite's, else
  // the run's.
  double threshold_for(std::string_view suite, std::string_view name) const;
};

// ---------------------------------------------------------------------------------------------
// What one run of one suite produced (the output of a format parser).

struct Measurement {
  std::string name;  // exactly as the tool reports it, e.g. "BM_Copy/64"
  std::string unit;  // unit of value, e.g. "ns", "ops/ms", "B/s"
  Better better = Better::Lower;
  double value = 0;  // the run's value (e.g. mean time of its repetitions); always > 0
  // Google Benchmark: which time `value` is ("cpu_time" or "real_time"; "" for other metrics),
  // and both times (mean of the repetitions, ns; kMissing when the tool did not report them),
  // so the results keep what was not compared (contention and waiting are read from the
  // difference).
  std::string metric = {};
  double real_time = kMissing;
  double cpu_time = kMissing;
  // The least of the repetitions' compared values (the highest rate), kept beside the mean: where
  // the two part between the sides the PR's repetitions stall or spread
  // (core/verdicts/analysis.cpp). kMissing when the format has no repetitions.
  double least = kMissing;
  // The sample variance of log(value) over the run's repetitions (kMissing with fewer than two):
  // the within-process noise the round design reads (core/plan/round_design.hpp). Not persisted.
  double repetition_log_variance = kMissing;
};

struct BenchmarkFailure {
  std::string name;
  std::string reason;  // e.g. "error_occurred: out of memory", "time is NaN"
  FailureKind kind = FailureKind::BenchmarkError;
};

struct ParsedRun {
  std::vector<Measurement> measurements;
  std::vector<BenchmarkFailure> failures;
};

// ---------------------------------------------------------------------------------------------
// The plan and what happened.

struct RoundPlan {
  int index = 0;  // 0-based over all rounds, warm-up included
  bool warmup = false;
  Side first = Side::Base;  // which side runs first in this round
  bool head_second() const { return first == Side::Base; }
};

struct RunRecord {
  int round = 0;
  std::string suite;
  Side side = Side::Base;
  int position = 0;    // 0 ran first in its round, 1 second
  double started = 0;  // seconds since the measuring phase began
  double seconds = 0;  // wall time of the process
  bool ok = true;
  std::string failure;  // "exit code 1", "killed by signal 11 (SIGSEGV)", "timed out after 5m", ...
  std::string log_tail;  // last lines of the output when the run failed
  // CPU time (user + system, from wait4) of the process and its waited-for children; kMissing
  // when unknown. cpu_seconds / seconds is the CPU share the run got.
  double cpu_seconds = kMissing;
  // CPUs kept busy by everything else on the machine while the run ran (from /proc/stat, minus
  // the run's own CPU time); kMissing when unknown.
  double others_cpus = kMissing;
  // Processes the run left behind (daemons, orphans) that benchpr killed after it.
  int leftover_processes = 0;
  // The failure's kind; None exactly when ok.
  FailureKind failure_kind = FailureKind::None;
};

struct BuildResult {
  Side side = Side::Base;
  bool ok = true;
  double seconds = 0;
  std::string failure;   // "exit code 2", "timed out after 30m", ...
  std::string log_tail;  // last lines of the build log
  // The failure's kind; None exactly when ok.
  FailureKind failure_kind = FailureKind::None;
};

struct RevisionInfo {
  std::string spec;     // what the user asked for: "main", "HEAD~1", "refs/pull/7/head"
  std::string sha;      // full 40-hex SHA
  std::string subject;  // first line of the commit message
  // The base is the merge base of the PR's branch with `spec`'s branch (spec then says so in
  // words, "merge base of main"), not the branch's tip.
  bool merge_base = false;
};

struct MachineInfo {
  std::string cpu;
  int cores = 0;
  std::string kernel;
  std::string compiler;  // the compiler that built benchpr
};

struct PullRequestInfo {
  int number = 0;
  std::string repo;  // owner/name
  std::string title;
  std::vector<std::string> labels;
  std::string url;
  std::string head_sha;  // the pull request's head commit (the commit status goes there); may be ""
};

// One benchmark over the whole session. Indexed by round (warm-up included); kMissing where the
// side's run failed or did not report the benchmark (or the round has not run yet).
struct BenchmarkSeries {
  std::string suite;
  std::string name;
  std::string unit;
  Better better = Better::Lower;
  std::vector<double> base;
  std::vector<double> head;
  std::string base_failure;  // last reason this benchmark had no value on that side, if any
  std::string head_failure;
  FailureKind base_failure_kind = FailureKind::None;  // the kind of base_failure
  FailureKind head_failure_kind = FailureKind::None;
  // Instruction counts (metric "instructions"): per side the count at index 0, in instructions
  // per iteration, and the self-check count at index 1 (runner/callgrind.hpp, IterationWeights);
  // the series' suite is instruction_suite_name(suite).
  // Google Benchmark times: which one base/head hold ("cpu_time" / "real_time"; "" otherwise),
  // and both times per round like base/head (empty when the format has no such times).
  std::string metric;
  std::vector<double> base_real;
  std::vector<double> head_real;
  std::vector<double> base_cpu;
  std::vector<double> head_cpu;
  // The least of each run's repetitions of the compared metric, per round like base/head (empty
  // when the format reports no repetitions): a reading beside the mean, never in its place.
  std::vector<double> base_least;
  std::vector<double> head_least;
  // Instruction counts with Callgrind's cache simulation: per side each event's count per
  // iteration by its Callgrind name ("D1mr", "DLmw", ...), at index 0 and its self-check at
  // index 1 like base/head (core/evidence/cycle_estimate.hpp); empty when the simulation did not
  // run.
  std::map<std::string, std::vector<double>> base_events;
  std::map<std::string, std::vector<double>> head_events;
};

// How the session was sized to its time budget (core/plan/time_plan: plan_time). Absent in results
// written before the time plan existed, and when the rounds ran as configured.
struct TimePlan {
  double budget_seconds = 0;  // the whole comparison, builds included
  // Google Benchmark --benchmark_min_time (0 = not set by benchpr) and repetitions of the rounds:
  // with a budget, the round design in force (updated at every look, so --resume keeps it).
  double min_time_seconds = 0;
  int repetitions = 0;
  int rounds = 0;            // analysed rounds planned
  double round_seconds = 0;  // estimated cost of one round
  double spent_before = 0;   // builds and warm-up, when the plan was made
  bool fits = true;          // false: even the minimal plan overruns the budget
  std::string summary;       // the progress line that stated the plan
};

// One look of an adaptive session (core/adaptive/adaptive.hpp), fixed before its rounds ran: the
// analysed rounds it reads, the information fraction it was given (rounds done over the rounds the
// budget allowed, as estimated then) and the levels it tests at (the α-spending functions'
// increments).
struct LookRecord {
  int rounds = 0;
  double information = 0;
  double alpha = 0;              // significance: Benjamini-Hochberg q of this look
  double equivalence_alpha = 0;  // "unchanged": the (1 - 2 * this) CI inside the threshold
  // The share of the information scale (and of α) of the looks up to the horizon; the looks past
  // it spend the rest. 1: one stage, the horizon ends the looks (core/adaptive/adaptive.hpp,
  // next_look).
  double horizon_share = 1;
  // A slowdown whose size is open (`slower` with its estimate at or beyond the threshold) stays
  // open at this look, for rounds to settle it (core/adaptive/adaptive.hpp, size_open_slowdown).
  // The same on every look; false in files written before the rule, which closed it.
  bool keeps_size_open = false;
};

// Sharding (`benchpr run --shard I/N`, `benchpr merge`): a comparison split over several
// machines. Every shard computes the same partition from the same inputs and records all of it,
// so a merge can tell which benchmarks a missing shard would have measured.
struct ShardUnit {
  std::string suite;
  std::string name;  // a Google Benchmark benchmark; "" = the whole suite (other formats)
  int shard = 0;     // 1-based
};

// One shard as a merged file records it.
struct ShardRecord {
  int index = 0;     // 1-based
  std::string file;  // the shard results file it came from; "" when missing
  MachineInfo machine;
  double measuring_seconds = 0;
  bool complete = false;  // false: missing, interrupted, or a side failed to build
  std::string status;     // its stop reason, or "missing"
  int benchmarks = 0;     // series it contributed
  std::string workflow_run_url;
};

struct ShardInfo {
  int index = 0;  // this file's shard (1-based); 0 in a merged file
  int count = 0;
  std::string balance;               // how the partition was balanced, in words
  std::vector<ShardUnit> partition;  // the work of every shard, not only this one's
  std::vector<ShardRecord> shards;   // merged files: one per shard, in index order
};

// Where the two sides' values came from, which decides what the comment may claim about them.
enum class Origin {
  Revisions,    // two git revisions benchpr built and ran in interleaved rounds (`run`)
  Executables,  // two built programs benchpr ran in interleaved rounds (`run --base-exe`): no git
  ResultFiles,  // result files benchpr read (`compare`): it ran nothing, the run order is unknown
};
// As the results file's `origin` names it (absent: revisions).
inline constexpr NameTable<Origin, 3> kOrigins{{{
    {Origin::Revisions, "revisions"},
    {Origin::Executables, "executables"},
    {Origin::ResultFiles, "result-files"},
}}};
std::string_view to_string(Origin origin);
std::optional<Origin> origin_from_string(std::string_view s);

// The SHA-256 of a program (or a shared library it loads from the worktree) a suite runs, taken
// right after the builds: what a resumed comparison must find again before it measures more.
struct ExecutableDigest {
  std::string suite;
  Side side = Side::Base;
  std::string path;    // relative to the side's worktree
  std::string sha256;  // 64 hex digits
  bool operator==(const ExecutableDigest&) const = default;
};

// Everything measured: persisted after every round (results JSON), and the input of the analysis.
struct Results {
  int schema_version = 2;
  std::string tool_version;
  RevisionInfo base;
  RevisionInfo head;
  Config config;
  MachineInfo machine;
  std::optional<PullRequestInfo> pull_request;
  bool config_changed_by_head = false;  // the PR edits .benchpr.yml (the base's is used)
  std::uint64_t seed = 0;
  std::vector<RoundPlan> plan;
  std::vector<BuildResult> builds;
  std::vector<RunRecord> runs;
  std::vector<BenchmarkSeries> series;
  int rounds_done = 0;    // rounds completed, warm-up included
  bool complete = false;  // false while running, or when interrupted (partial results)
  StopReason stop;        // why the rounds ended (describe() makes its sentence)
  double measuring_seconds = 0;
  double overhead_seconds = 0;  // benchpr's own time outside builds and benchmark processes
  // Instruction counting's wall time as the session clocked it: the listings, both sides' counts
  // and the base counted again. 0 where not recorded (files written before it was): the span of
  // the counted runs stands in (counting_seconds, core/adaptive/adaptive.hpp).
  double counting_seconds = 0;
  // The most counting nobody asked for could take of the budget (runner/counting_share.hpp: a
  // quarter, or half for a slow start-up); 0: no cap (asked for, no budget, or an older file).
  double counting_share_seconds = 0;
  std::optional<TimePlan> time_plan;
  // Adaptive looks as the session scheduled them; empty in fixed plans and in files written
  // before looks were recorded (those replay the three looks of adaptive_plan_for).
  std::vector<LookRecord> looks;
  std::string workflow_run_url;
  std::optional<ShardInfo> shard;  // a shard's result, or several merged
  // The search for the commits behind the changes (`bisect: auto`), when one ran.
  std::optional<Bisection> bisect;
  // Function-level profiles of the benchmarks that changed (or were asked for with --why).
  std::vector<BenchmarkProfile> profiles;
  // The digests of what the suites run, as built (empty when no suite runs a worktree program).
  std::vector<ExecutableDigest> executables;
  // The suites whose programs were the same code and data on both sides (core/identical_programs):
  // their benchmarks are `unchanged` without being timed.
  std::vector<std::string> identical_suites;
  // The placement control (runner/placement_variants.hpp): the code offsets, in bytes, each
  // side's programs were relinked at, rotated over the rounds in AB/BA blocks (the first is 0,
  // the program as built). Empty: every round ran the programs as built.
  std::vector<int> placement_shifts;
  // The hot functions' code on both sides, for the benchmarks whose time moved (or could not be
  // settled) while their instruction counts did not (core/evidence/placement.hpp).
  std::vector<CodeEvidence> hot_code;
  // Rounds measured by an earlier process of a resumed comparison (0: measured in one process).
  int resumed_rounds = 0;
  // Not Revisions: base.sha and head.sha are "" (no commits), and for ResultFiles every round's
  // `first` is Side::Base only because nothing says otherwise (one order: no position effect is
  // fitted) and the reports do not claim an interleaving.
  Origin origin = Origin::Revisions;
};

// The same comparison with nothing measured: what says which comparison it is (tool version,
// origin, revisions, configuration, machine, pull request, seed, workflow run), for results made
// from another's (a look of the adaptive plan, shards merged).
Results same_comparison(const Results& r);

// ---------------------------------------------------------------------------------------------
// The analysis (pure function of Results).

enum class Verdict {
  Regression,    // BH-significant and |change| >= threshold, in the worse direction
  Improvement,   // BH-significant and |change| >= threshold, in the better direction
  Slower,        // BH-significant, worse, below threshold ("small consistent change")
  Faster,        // BH-significant, better, below threshold
  Unchanged,     // 90% CI inside +-threshold ("flat")
  Inconclusive,  // anything else ("no signal"), or flagged "order"
  Added,         // only the PR has it
  Removed,       // only the base has it
  Failed,        // no comparable values: crash, timeout, parse error, error_occurred
  // Time moved, but the instructions executed are the same and the functions they run in are
  // byte-identical code at other addresses: a code-placement (alignment) effect of relinking,
  // not the PR's change (core/evidence/placement.hpp). Never blocks a merge.
  Placement,
};
// The verdicts as the results file and the comment name them.
inline constexpr NameTable<Verdict, 10> kVerdicts{{{
    {Verdict::Regression, "regression"},
    {Verdict::Improvement, "improvement"},
    {Verdict::Slower, "slower"},
    {Verdict::Faster, "faster"},
    {Verdict::Unchanged, "unchanged"},
    {Verdict::Inconclusive, "inconclusive"},
    {Verdict::Added, "added"},
    {Verdict::Removed, "removed"},
    {Verdict::Failed, "failed"},
    {Verdict::Placement, "placement"},
}}};
std::string_view to_string(Verdict v);

// How the exact instruction counts and the code read a timed benchmark
// (core/evidence/placement.hpp).
enum class CodeReading {
  None,           // time decides alone
  Placement,      // time moved on the same instructions of byte-identical, moved code
  SameWork,       // time could not settle it; same instructions of byte-identical code: unchanged
  CountsDecided,  // time could not settle it; the counts moved beyond their threshold
  // Time could not settle it but shows no slowdown reaching the threshold, and code the PR
  // changed runs the same instructions with the same estimated cycles: unchanged.
  SameCount,
};
inline constexpr NameTable<CodeReading, 5> kCodeReadings{{{
    {CodeReading::None, "none"},
    {CodeReading::Placement, "placement"},
    {CodeReading::SameWork, "same-work"},
    {CodeReading::CountsDecided, "counts-decided"},
    {CodeReading::SameCount, "same-count"},
}}};
std::string_view to_string(CodeReading r);

// The order in which verdicts are reported: regressions first, unchanged last.
int verdict_order(Verdict v);

enum class RecommendationKind { Merge, DoNotMerge, Inconclusive, Failed };
inline constexpr NameTable<RecommendationKind, 4> kRecommendations{{{
    {RecommendationKind::Merge, "merge"},
    {RecommendationKind::DoNotMerge, "do-not-merge"},
    {RecommendationKind::Inconclusive, "inconclusive"},
    {RecommendationKind::Failed, "failed"},
}}};
std::string_view to_string(RecommendationKind k);

// A piece of a sentence: plain text, or a benchmark name to show as code. Names are untrusted,
// so the renderer escapes each part for its kind instead of parsing markup out of a string.
struct TextPart {
  std::string text;
  bool code = false;
};
// The parts as one line of plain text, names in backticks (JSON, logs).
std::string plain_text(const std::vector<TextPart>& parts);

// What a run-level note is about, set where the note is made, so that code and tests read the
// kind, never the words: the renderer shows cold rounds, a partial run and an edited config from
// Results itself and leaves out core's sentence for them; the other kinds name what a note
// reports.
enum class NoteKind {
  Other,
  ColdRounds,
  Partial,
  ConfigEdited,
  TooFewRounds,        // too few analysed rounds for any verdict (comment_notes)
  TooSmall,            // values below a picosecond, not compared (run_notes)
  Waiting,             // wall time moved while the compared CPU time did not (measurement_notes)
  MissedWork,          // CPU time missed work: compared on wall time (measurement_notes)
  MachineBusy,         // busy rounds, and what the load did to the times (measurement_notes)
  DisturbedRuns,       // processes the machine slowed as a whole (disturbed_runs)
  CountsDiffer,        // one side's instruction counts disagree (instruction_analysis)
  TimeVsInstructions,  // time and instruction counts tell different stories (instruction_analysis)
  CountsNotMade,       // instruction counts nobody asked for could not be made (default_counts)
};

// A run-level sentence (cold rounds, partial run, config edit, compared time, busy machine),
// with names as code parts.
struct Note {
  NoteKind kind = NoteKind::Other;
  std::vector<TextPart> parts;

  Note() = default;
  // A sentence without names.
  Note(std::string text) : parts{{std::move(text), false}} {}  // NOLINT: implicit by design
  Note(const char* text) : Note(std::string(text)) {}          // NOLINT: implicit by design
  Note(NoteKind k, std::vector<TextPart> p) : kind(k), parts(std::move(p)) {}
  Note(NoteKind k, std::string text) : kind(k), parts{{std::move(text), false}} {}

  // The sentence as plain text, names in backticks: for JSON, logs and tests.
  std::string plain() const;
};
// Each note's plain text (the results file keeps notes this way).
std::vector<std::string> plain_texts(const std::vector<Note>& notes);

struct Recommendation {
  RecommendationKind kind = RecommendationKind::Inconclusive;
  std::string reason;  // the sentence as plain text (names in backticks), for JSON and logs
  std::vector<TextPart> reason_parts;  // the same sentence, for rendering
  // A regression beside an improvement: the headline names both, and the title says "don't
  // merge" (the kind, the exit code of --fail-on regression, the status) and that there are
  // improvements too.
  bool mixed = false;
  // Benchmarks failed beside compared ones: the sentence reads the compared ones and names the
  // failures. A reading that would be a merge is `Failed` instead (a failure never leaves a
  // merge), titled as what it is rather than "could not compare".
  bool incomplete = false;
};

struct BenchmarkAnalysis {
  std::string suite;
  std::string name;
  std::string unit;
  std::string metric;  // the series' metric; "instructions" for exact instruction counts
  Better better = Better::Lower;
  Verdict verdict = Verdict::Inconclusive;
  std::string reason;  // why inconclusive / failed, in words
  // Inconclusive because the interval is too wide to call either way (not for the correction
  // over the family, nor for run order): the renderers shorten the reason to "no signal".
  bool no_signal = false;
  // Why it failed (the PR's side when both failed); None unless the verdict is failed.
  FailureKind failure = FailureKind::None;
  double threshold = 0.02;  // the threshold this benchmark was judged by (Config::threshold_for)

  int rounds_used = 0;  // analysed rounds with both values, after dropping
  // Geometric mean of the base over the used rounds, in unit; head_value is base_value times the
  // paired ratio (1 + change), which is the PR's geometric mean when the rounds are balanced
  // between AB and BA. So the columns a reader sees always agree with the change.
  double base_value = kMissing;
  double head_value = kMissing;
  double change = kMissing;  // head/base - 1 of the metric (geometric, from the fit)
  double ci_low = kMissing;  // 95% CI of change, fractions
  double ci_high = kMissing;
  // The interval the "unchanged" rule tests (Analysis::equivalence_level, 90% by default).
  double eq_low = kMissing;
  double eq_high = kMissing;
  double eq_level = kMissing;         // its confidence, as computed (adaptive looks differ)
  double p = kMissing;                // two-sided p of "no effect"
  double p_adjusted = kMissing;       // Benjamini-Hochberg
  double position_effect = kMissing;  // gamma: log-ratio shift when the PR runs second
  double position_p = kMissing;
  double mde = kMissing;  // smallest |change| found with the set power at alpha/m, fraction
  // Smallest |change| labelled `regression`/`improvement` with the set power: the label that
  // blocks a merge also needs the change shown beyond half the threshold, so this is larger.
  double mde_label = kMissing;
  // Rounds that would settle it: +-threshold for an inconclusive benchmark; for a `slower` or
  // `faster` one whose estimate reads at or above the threshold, whether it exceeds it.
  std::optional<int> rounds_needed;
  std::vector<BenchmarkFlag> flags;  // in the order they were found, each once
  std::optional<int> dropped_round;  // analysed-round number (1-based) left out as cold
  int worse_rounds = 0;              // rounds where the PR was worse
  int better_rounds = 0;
  std::vector<double> round_changes;  // per analysed round head/base - 1, kMissing if absent
  // Instruction counts: the sentence (after the name) when a side's two counts disagree by more
  // than half the threshold (core/evidence/instruction_analysis.hpp); "" when they agree.
  std::string count_check;
  // What the exact counts and the hot functions' code said about this timed benchmark
  // (core/evidence/placement.hpp): None, or how they changed or explained its reading.
  CodeReading code_reading = CodeReading::None;
  // With a reading: the verdict time alone gave, and the instructions per iteration per side.
  Verdict time_verdict = Verdict::Inconclusive;
  double instructions_base = kMissing;
  double instructions_head = kMissing;
  // Instruction counts with cache simulation: the estimated cycles per iteration per side
  // (core/evidence/cycle_estimate.hpp); kMissing without. Evidence beside the count, never its
  // verdict.
  double cycles_base = kMissing;
  double cycles_head = kMissing;
  // The estimate moved by at least the instruction threshold, clear of its own self-check: a
  // "same work" or code-placement reading is not claimed for it (core/evidence/placement.hpp).
  bool cycles_moved = false;

  bool has_flag(BenchmarkFlag flag) const;
  void add_flag(BenchmarkFlag flag);  // once: a flag found twice is still one flag
};

struct SuiteSummary {
  std::string suite;
  int benchmarks = 0;        // benchmarks compared
  double change = kMissing;  // geometric mean of head/base - 1 over benchmarks ("worse" = +)
  double ci_low = kMissing;
  double ci_high = kMissing;
};

struct Analysis {
  std::vector<BenchmarkAnalysis> benchmarks;
  std::vector<SuiteSummary> suites;
  Recommendation recommendation;
  int analysed_rounds = 0;          // analysed rounds completed
  double alpha = 0.05;              // significance level and false discovery rate used
  double equivalence_level = 0.90;  // confidence of the interval "unchanged" tests
  double run_mde = kMissing;        // median MDE over compared benchmarks
  double run_mde_label = kMissing;  // median mde_label over compared benchmarks
  bool order_warning = false;       // many benchmarks share the order flag
  std::vector<Note> notes;          // run-level sentences (cold rounds, partial run, config edit)
};

}  // namespace benchpr
