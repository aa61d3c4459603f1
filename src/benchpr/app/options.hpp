// What the command line asked for, as plain values (CLI11 fills them in cli.cpp, which parses
// each closed set's text once, by its table below).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/base/name_table.hpp"
#include "benchpr/core/model/comment_policy.hpp"
#include "benchpr/core/model/format_kind.hpp"

namespace benchpr::app {

// --format: what stdout gets.
enum class StdoutFormat {
  Auto,      // the text report at a terminal (outside Actions), else the markdown
  Markdown,  // the comment's markdown
  Text,      // the aligned text report
};
inline constexpr NameTable<StdoutFormat, 3> kStdoutFormats{{{
    {StdoutFormat::Auto, "auto"},
    {StdoutFormat::Markdown, "markdown"},
    {StdoutFormat::Text, "text"},
}}};

// --color: whether the text report is coloured.
enum class ColorMode {
  Auto,  // at a terminal without NO_COLOR
  Always,
  Never,
};
inline constexpr NameTable<ColorMode, 3> kColorModes{{{
    {ColorMode::Auto, "auto"},
    {ColorMode::Always, "always"},
    {ColorMode::Never, "never"},
}}};

// --fail-on: which findings end the job with a failing exit code.
enum class FailOn {
  Never,       // none
  Regression,  // exit 3 when the recommendation is don't merge
  Failed,      // that, and exit 4 when a build, a suite run or a benchmark failed
};
inline constexpr NameTable<FailOn, 3> kFailOns{{{
    {FailOn::Never, "never"},
    {FailOn::Regression, "regression"},
    {FailOn::Failed, "failed"},
}}};

// --compare: what a pull request's head is compared against.
enum class CompareMode {
  MergeBase,  // the merge base of the base branch and the head
  Merge,      // the merge commit GitHub made of the two
};
inline constexpr NameTable<CompareMode, 2> kCompareModes{{{
    {CompareMode::MergeBase, "merge-base"},
    {CompareMode::Merge, "merge"},
}}};

// --input-format of `compare`: a format that reads result files, or none (auto: the files'
// shape says which).
inline constexpr NameTable<std::optional<FormatKind>, 4> kInputFormats{{{
    {std::nullopt, "auto"},
    {FormatKind::GoogleBenchmark, kFormatKinds.name(FormatKind::GoogleBenchmark)},
    {FormatKind::Jmh, kFormatKinds.name(FormatKind::Jmh)},
    {FormatKind::Hyperfine, kFormatKinds.name(FormatKind::Hyperfine)},
}}};

// --done of `slash-command`: how the run a /benchmark command started ended, in GitHub's words
// for a step's outcome. Success reacts 🚀, every other outcome 😕.
enum class RunOutcome {
  Success,
  Failure,
  Cancelled,
  Skipped,
};
inline constexpr NameTable<RunOutcome, 4> kRunOutcomes{{{
    {RunOutcome::Success, "success"},
    {RunOutcome::Failure, "failure"},
    {RunOutcome::Cancelled, "cancelled"},
    {RunOutcome::Skipped, "skipped"},
}}};

struct RunOptions {
  std::string base;  // "" with --pr or inside GitHub Actions: taken from the pull request
  std::string head;
  std::string directory = ".";
  std::string config_file;  // "" = .benchpr.yml from the base revision
  std::optional<int> rounds;
  std::optional<int> warmup_rounds;
  std::string threshold;           // "2%"
  std::string budget;              // "20m"
  std::string filter;              // regex on benchmark names
  std::string why;                 // --why: regex of benchmarks to profile beside the changed ones
  std::string bench_args;          // appended to every suite's command
  bool instructions = false;       // --instructions: count instructions beside time (Callgrind)
  bool no_instructions = false;    // --no-instructions: count only suites whose metric is them
  bool no_cycle_estimate = false;  // --no-cycle-estimate: count without cache simulation
  bool no_placement_control = false;  // --no-placement-control: run the programs as built only
  bool bisect = false;   // --bisect: search the PR's commits for the ones behind a change
  std::string output;    // results JSON
  std::string resume;    // an interrupted comparison's results JSON to continue
  std::string markdown;  // markdown file
  std::string html;      // HTML report file
  std::string workdir;
  std::string templates_dir;
  std::string key = "default";
  StdoutFormat format = StdoutFormat::Auto;
  ColorMode color = ColorMode::Auto;
  FailOn fail_on = FailOn::Never;
  std::optional<std::uint64_t> seed;
  bool dry_run = false;
  bool skip_build = false;
  bool time_identical = false;  // time suites whose programs are identical on both sides too
  // GitHub (pull-request mode)
  std::optional<int> pr;
  std::string pr_head;  // with --pr: the head commit to measure; "" = whatever the head is
  std::string repo;
  std::string api_url;
  CompareMode compare = CompareMode::MergeBase;
  std::optional<CommentPolicy> comment;  // --comment (kCommentPolicies); none = the config's
  std::string comment_author;            // "" = the token's own login
  bool status = false;                   // set the commit status benchpr on the PR head
  // A pull_request_target job runs the PR's code with a write token: refused without this.
  bool pull_request_target_write_token = false;
  // Sharding: "I/N" (1-based; "" = $BENCHPR_SHARD, or the whole comparison), and a previous
  // results file whose durations balance the shards.
  std::string shard;
  std::string balance_from;
  // Two built Google Benchmark executables instead of revisions (no git, nothing built).
  std::string base_exe;
  std::string head_exe;
};

// `benchpr compare BASE.json HEAD.json` (or --base FILE... --head FILE...): existing result files.
struct CompareOptions {
  std::vector<std::string> files;          // positional: BASE HEAD
  std::vector<std::string> base_files;     // --base: several runs of the base
  std::vector<std::string> head_files;     // --head
  std::optional<FormatKind> input_format;  // none: auto, from the files' shape
  std::string metric;                      // as a suite's `metric:`; "" = the format's default
  std::string threshold;                   // "2%"
  std::string output;                      // results JSON
  std::string markdown;
  std::string html;
  std::string templates_dir;
  std::string key = "default";
  StdoutFormat format = StdoutFormat::Auto;  // what stdout gets, as for run
  ColorMode color = ColorMode::Auto;
  FailOn fail_on = FailOn::Never;
};

struct MergeOptions {
  std::vector<std::string> files;  // shard results files
  std::string output;              // the merged results file
};

struct PublishOptions {
  std::string results_file;
  std::optional<int> pr;
  std::string repo;
  std::string api_url;
  std::string markdown;
  std::string html;
  std::string templates_dir;
  std::string key = "default";
  StdoutFormat format = StdoutFormat::Auto;
  ColorMode color = ColorMode::Auto;
  bool dry_run = false;
  // --comment (kCommentPolicies); none = always: the results file does not choose.
  std::optional<CommentPolicy> comment;
  std::string comment_author;  // "" = the token's own login
  bool status = false;
  FailOn fail_on = FailOn::Never;  // as for run
};

struct SlashCommandOptions {
  std::string api_url;
  std::optional<RunOutcome> done;  // none = accept the command; else the run finished so
};

struct InitOptions {
  std::string directory = ".";
  bool force = false;      // overwrite existing files
  int shards = 0;          // > 1: a matrix workflow of this many measuring jobs and a merging one
  bool fork_safe = false;  // the measure/publish pair (pull_request + workflow_run)
  bool command = false;    // also the /benchmark workflow (issue_comment)
};

// Exit codes of the whole program.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;      // the job ran but something failed (posting, writing)
inline constexpr int kExitUsage = 2;        // bad usage or configuration: nothing was measured
inline constexpr int kExitRegression = 3;   // --fail-on regression|failed: a regression was found
inline constexpr int kExitSuiteFailed = 4;  // --fail-on failed: a build, suite or benchmark failed

}  // namespace benchpr::app
