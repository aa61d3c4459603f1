#include "benchpr/app/cli.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "benchpr/app/commands.hpp"
#include "benchpr/app/config_loader.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/suggest.hpp"
#include "benchpr/app/token_file.hpp"
#include "benchpr/app/user_error.hpp"
#include "benchpr/core/base/error.hpp"
#include "benchpr/core/base/name_table.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/model/comment_policy.hpp"
#include "benchpr/render/escape.hpp"

namespace benchpr::app {

namespace {

// The text CLI11 reads for each closed-set option, parsed into the options by its table once the
// command line is read (parse_choice). Each starts as the name of the options' default, or "" for
// an option whose value may be none (parse_optional_choice).
struct ChoiceTexts {
  std::string format;
  std::string color;
  std::string fail_on;
  std::string compare;
  std::string input_format;
  std::string comment;  // "" = not given
  std::string done;     // "" = not given
};

// The options `run` and `publish` share: where the report goes and which pull request gets it.
// Both option structs name these fields alike.
template <typename Options>
void add_report_options(CLI::App& cmd, Options& o, ChoiceTexts& texts, const std::string& pr_help) {
  cmd.add_option("--markdown", o.markdown, "Write the comment's markdown here");
  cmd.add_option("--html", o.html, "Write a self-contained HTML report (charts per round) here");
  cmd.add_option("--templates", o.templates_dir, "Directory of *.mustache templates to use");
  cmd.add_option("--key", o.key, "Sticky-comment key, for several benchpr comments on one PR");
  cmd.add_flag("--dry-run", o.dry_run, "Print the markdown; post nothing");
  texts.format = kStdoutFormats.name(o.format);
  cmd.add_option("--format", texts.format,
                 "What stdout gets: text (an aligned table; the default at a terminal) or "
                 "markdown (the comment; the default otherwise)");
  texts.color = kColorModes.name(o.color);
  cmd.add_option("--color", texts.color,
                 "Colour the text report: auto (a terminal without NO_COLOR), always, never");
  cmd.add_option("--pr", o.pr, pr_help);
  cmd.add_option("--repo", o.repo, "OWNER/NAME of the repository on GitHub");
  cmd.add_option("--api-url", o.api_url, "GitHub API base URL (default: $GITHUB_API_URL)");
  cmd.add_option("--comment", texts.comment,
                 "When to post the comment: always, on-change (some verdict is not unchanged; "
                 "an existing comment is still updated) or never (default: the config's; for "
                 "publish, always: the results file does not choose)");
  cmd.add_option("--comment-author", o.comment_author,
                 "Login whose marked comment is benchpr's (default: the token's own; "
                 "github-actions[bot] for GITHUB_TOKEN)");
  cmd.add_flag("--status", o.status,
               "Set the commit status benchpr (benchpr/KEY) on the pull request's head");
}

void add_run_options(CLI::App& run, RunOptions& o, ChoiceTexts& texts) {
  run.add_option("--base", o.base,
                 "Revision to compare against (branch, tag, SHA, HEAD~2); not needed with --pr "
                 "or inside a GitHub Actions pull_request job");
  run.add_option("--head", o.head,
                 "Revision of the change (default HEAD); WORKTREE: the working tree as it is, "
                 "uncommitted and untracked files included (then --base defaults to HEAD)");
  run.add_option("--pr-head", o.pr_head,
                 "With --pr: the head commit to measure (40 hex digits); refused when the pull "
                 "request has moved on (/benchmark passes the head it accepted the command at)");
  run.add_option("-C,--directory", o.directory, "Repository to work in (default: .)");
  run.add_option("--config", o.config_file,
                 "Configuration file (default: .benchpr.yml of the base revision)");
  run.add_option("--rounds", o.rounds,
                 "Analysed rounds as a fixed plan (overrides the config; without it, rounds "
                 "are added for the benchmarks still open while the budget lasts)");
  run.add_option("--warmup", o.warmup_rounds, "Warm-up rounds (overrides the config)");
  run.add_option("--threshold", o.threshold, "Practical threshold, e.g. 2% (overrides the config)");
  run.add_option("--budget", o.budget,
                 "Time budget of the comparison, builds included, e.g. 20m (default 15m)");
  run.add_option("--filter", o.filter,
                 "Only benchmarks whose name matches this regular expression (Google Benchmark "
                 "gets it as BENCHMARK_FILTER; other formats' results are filtered)");
  run.add_option("--why", o.why,
                 "Also explain these benchmarks (a regular expression of names) with a "
                 "function-level profile under Callgrind, as every regression and improvement is");
  auto* count = run.add_flag("--instructions", o.instructions,
                             "Count instructions per iteration of every Google Benchmark suite "
                             "under Callgrind beside time, and fail if valgrind is missing "
                             "(without it or --no-instructions they are counted wherever "
                             "valgrind is installed)");
  run.add_flag("--no-instructions", o.no_instructions,
               "Do not count instructions (suites with `metric: instructions` still are)")
      ->excludes(count);
  run.add_flag("--no-cycle-estimate", o.no_cycle_estimate,
               "Count instructions without Callgrind's cache simulation, so without the "
               "estimated cycles beside each count (the config's `cycle_estimate: false`)");
  run.add_flag("--no-placement-control", o.no_placement_control,
               "Run only the programs as built, not also relinked at other code offsets (the "
               "config's `placement_control: false`)");
  run.add_flag("--bisect", o.bisect,
               "After a regression or improvement, measure the changed benchmarks on the pull "
               "request's commits to find the ones behind it, within the budget left (the "
               "config's `bisect: auto`)");
  run.add_option("--bench-args", o.bench_args,
                 "Words appended to every suite's command, e.g. \"--benchmark_min_time=0.05\"");
  run.add_option("--output", o.output, "Write the results JSON here (updated after every round)");
  run.add_option("--workdir", o.workdir,
                 "Work directory for worktrees and logs (default: <git dir>/benchpr)");
  texts.fail_on = kFailOns.name(o.fail_on);
  run.add_option("--fail-on", texts.fail_on,
                 "regression: exit 3 when the recommendation is don't merge; failed: that, and "
                 "exit 4 when a build, a suite run or a benchmark failed; never (the default)");
  run.add_option("--seed", o.seed,
                 "Seed of the round order (default: random, recorded; with --shard, derived "
                 "from the commits, the configuration and the shard count, so every shard of "
                 "a comparison draws the same)");
  run.add_option("--resume", o.resume,
                 "Continue the interrupted comparison in this results file (same builds, seed "
                 "and schedule; rounds are added to it)");
  run.add_flag("--skip-build", o.skip_build, "Reuse the builds already in the work directory");
  run.add_flag("--time-identical", o.time_identical,
               "Time the suites whose programs are byte-identical on both sides too (an A/A "
               "comparison); by default their benchmarks are unchanged without a round");
  texts.compare = kCompareModes.name(o.compare);
  run.add_option("--compare", texts.compare, "PR mode: merge-base (default) or merge");
  add_report_options(
      run, o, texts,
      "Pull request number: asks the GitHub API for it, fetches it from the clone URL the API "
      "reports, compares and posts the comment");
  run.add_option("--shard", o.shard,
                 "Measure only shard I of N (e.g. 2/3) of the benchmarks, for a CI matrix; "
                 "default: $BENCHPR_SHARD. Join the shards with `benchpr merge`");
  run.add_option("--base-exe", o.base_exe,
                 "Instead of revisions: the base's built Google Benchmark executable (with "
                 "--head-exe; no git, nothing built, run from a fresh copy every round)");
  run.add_option("--head-exe", o.head_exe, "The PR's built Google Benchmark executable");
  run.add_option("--balance-from", o.balance_from,
                 "With --shard: balance the shards by the durations in this earlier results "
                 "file (give every shard the same one)");
  run.add_flag("--run-pr-code-with-write-token", o.pull_request_target_write_token,
               "Allow a pull_request_target job: it builds and runs the pull request's code with "
               "a token that can write to the repository (see docs/github.md)");
}

void add_publish_options(CLI::App& publish, PublishOptions& o, ChoiceTexts& texts) {
  publish.add_option("results", o.results_file, "Results file written by `benchpr run --output`")
      ->required();
  add_report_options(publish, o, texts, "Pull request number (default: the one in the file)");
  texts.fail_on = kFailOns.name(o.fail_on);
  publish.add_option("--fail-on", texts.fail_on,
                     "As for run: exit 3 when the recommendation is don't merge (regression), "
                     "also 4 when something failed (failed); never (the default)");
}

void add_compare_options(CLI::App& compare, CompareOptions& o, ChoiceTexts& texts) {
  compare.add_option("files", o.files, "BASE.json HEAD.json: one results file of each side");
  compare
      .add_option("--base", o.base_files,
                  "Results files of the base, one process each (hyperfine: one per run); 4 or more "
                  "for a verdict")
      ->expected(1, -1);
  compare
      .add_option("--head", o.head_files, "Results files of the PR, paired with --base in order")
      ->expected(1, -1);
  texts.input_format = kInputFormats.name(o.input_format);
  compare.add_option("--input-format", texts.input_format,
                     "google-benchmark, jmh or hyperfine (default: from the files' shape)");
  compare.add_option("--metric", o.metric,
                     "The value compared, as a suite's metric: (e.g. real_time, cpu_time, "
                     "items_per_second); default: the format's");
  compare.add_option("--threshold", o.threshold, "Practical threshold, e.g. 2% (the default)");
  compare.add_option("--output", o.output, "Write the results JSON here");
  compare.add_option("--markdown", o.markdown, "Write the comment's markdown here");
  compare.add_option("--html", o.html, "Write a self-contained HTML report here");
  compare.add_option("--templates", o.templates_dir, "Directory of *.mustache templates to use");
  compare.add_option("--key", o.key, "Comment key, as for run");
  texts.format = kStdoutFormats.name(o.format);
  compare.add_option("--format", texts.format,
                     "What stdout gets: text (an aligned table; the default at a terminal) or "
                     "markdown (the comment; the default otherwise)");
  texts.color = kColorModes.name(o.color);
  compare.add_option("--color", texts.color,
                     "Colour the text report: auto (a terminal without NO_COLOR), always, never");
  texts.fail_on = kFailOns.name(o.fail_on);
  compare.add_option("--fail-on", texts.fail_on,
                     "As for run: exit 3 when the recommendation is don't merge (regression), "
                     "also 4 when a benchmark failed (failed); never (the default)");
}

void add_init_options(CLI::App& init, InitOptions& o) {
  init.add_option("-C,--directory", o.directory, "Project directory (default: .)");
  init.add_flag("--force", o.force, "Replace existing .benchpr.yml and workflow files");
  init.add_option("--shards", o.shards,
                  "Write a matrix workflow: N jobs measure a shard each, one merges and posts");
  init.add_flag("--fork-safe", o.fork_safe,
                "Write the fork-safe pair: measure on pull_request without a write token, "
                "publish on workflow_run (comments on pull requests from forks too)");
  init.add_flag("--command", o.command,
                "Also write the /benchmark workflow: maintainers start a run from a comment");
}

void add_slash_command_options(CLI::App& slash, SlashCommandOptions& o, ChoiceTexts& texts) {
  slash.add_option("--api-url", o.api_url, "GitHub API base URL (default: $GITHUB_API_URL)");
  slash.add_option("--done", texts.done,
                   "The run it started finished: success (🚀), or failure, cancelled or skipped "
                   "(😕)");
}

void add_merge_options(CLI::App& merge, MergeOptions& o) {
  merge.add_option("shards", o.files, "Shard results files (`benchpr run --shard I/N --output`)")
      ->required();
  merge.add_option("-o,--output", o.output, "Write the merged results file here")->required();
}

// Choices and ranges are checked here rather than by CLI11, so every message says what to write
// in the same words.
UserError bad_choice(const std::string& option, const std::string& value,
                     const std::vector<std::string>& choices) {
  return UserError(option + ": expected " + one_of(choices) + ", got '" + value + "'" +
                   did_you_mean(value, choices));
}

// A closed set's value from its option's text, by the set's table (the option's only parser);
// any other text is a UserError (bad_choice).
template <typename Value, std::size_t N>
Value parse_choice(const std::string& option, const std::string& text,
                   const NameTable<Value, N>& table) {
  if (const std::optional<Value> value = table.parse(text)) return *value;
  throw bad_choice(option, text, table.names());
}

// An optional closed set's value: none when the option was not given (or given as "", as the
// action passes an input left empty).
template <typename Value, std::size_t N>
std::optional<Value> parse_optional_choice(const std::string& option, const std::string& text,
                                           const NameTable<Value, N>& table) {
  if (text.empty()) return std::nullopt;
  return parse_choice(option, text, table);
}

template <typename Options>
void parse_report_choices(Options& o, const ChoiceTexts& texts) {
  o.format = parse_choice("--format", texts.format, kStdoutFormats);
  o.color = parse_choice("--color", texts.color, kColorModes);
  o.comment = parse_optional_choice("--comment", texts.comment, kCommentPolicies);
}

std::vector<std::string> long_names(const CLI::App& cmd) {
  std::vector<std::string> names = {"--help"};
  for (const CLI::Option* opt : cmd.get_options()) {
    for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
    for (const std::string& n : opt->get_snames()) names.push_back("-" + n);
  }
  return names;
}

// CLI11's parse errors in benchpr's words: unknown commands and options get the nearest known
// one; anything else keeps CLI11's description.
std::string describe_parse_error(const CLI::ParseError& e, CLI::App& app, int argc, char** argv) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    commands.push_back(sub->get_name());
  CLI::App* cmd = nullptr;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("-")) continue;
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
      if (sub->get_name() == arg) cmd = sub;
    if (!cmd) {
      return "unknown command `" + std::string(arg) + "`" + did_you_mean(arg, commands) +
             " (commands: run, compare, publish, merge, init)";
    }
    break;
  }
  if (!cmd)
    return "which command? benchpr run, benchpr compare, benchpr publish, benchpr merge or benchpr "
           "init (see "
           "--help)";
  const std::vector<std::string> known = long_names(*cmd);
  for (int k = i + 1; k < argc; ++k) {
    std::string_view arg = argv[k];
    if (arg == "--") break;
    if (!arg.starts_with("-") || arg == "-") continue;
    if (const std::size_t eq = arg.find('='); eq != std::string_view::npos) arg = arg.substr(0, eq);
    // "-C." and "-Cdir": a short option with its value attached.
    const std::string_view name = arg.starts_with("--") ? arg : arg.substr(0, 2);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return "unknown option `" + std::string(name) + "` for `benchpr " + cmd->get_name() + "`" +
             did_you_mean(name, known);
    }
    // The value of an option may itself start with '-' (--bench-args "--benchmark_...").
    const CLI::Option* opt = cmd->get_option_no_throw(std::string(name));
    const bool attached = arg.size() < std::string_view(argv[k]).size();
    if (opt != nullptr && opt->get_items_expected_min() > 0 && !attached) ++k;
  }
  std::string what = e.what();
  // "Could not convert: --rounds = x" -> "--rounds: expected a number, got 'x'".
  constexpr std::string_view kConvert = "Could not convert: ";
  if (dynamic_cast<const CLI::ConversionError*>(&e) != nullptr && what.starts_with(kConvert)) {
    const std::string rest = what.substr(kConvert.size());
    if (const std::size_t eq = rest.find(" = "); eq != std::string::npos)
      return rest.substr(0, eq) + ": expected a number, got '" + rest.substr(eq + 3) + "'";
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr)
    what = "unexpected arguments: " + what.substr(what.find(':') + 1);
  while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) what.pop_back();
  return what + " (see `benchpr " + cmd->get_name() + " --help`)";
}

}  // namespace

// An error's lines: room for a long path or two, and the fix at the end is kept when cut.
constexpr std::size_t kErrorLineMaxChars = 1000;

int exit_code_for(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::Usage:
    case ErrorCategory::Config:
    case ErrorCategory::Input:
      return kExitUsage;
    case ErrorCategory::Git:
    case ErrorCategory::GitHub:
    case ErrorCategory::Output:
    case ErrorCategory::Void:  // rounds were measured and kept: the job failed, as when interrupted
    case ErrorCategory::Internal:
      return kExitFailure;
  }
  return kExitFailure;
}

namespace {

// Every command's options as the command line fills them, and the subcommand that declares
// them. CLI11 keeps references to the fields: the struct stays where it was made.
struct CommandLine {
  std::string token_file;
  RunOptions run_options;
  ChoiceTexts run_texts;
  PublishOptions publish_options;
  ChoiceTexts publish_texts;
  SlashCommandOptions slash_options;
  ChoiceTexts slash_texts;
  MergeOptions merge_options;
  CompareOptions compare_options;
  ChoiceTexts compare_texts;
  InitOptions init_options;
  CLI::App* run = nullptr;
  CLI::App* publish = nullptr;
  CLI::App* slash = nullptr;
  CLI::App* merge = nullptr;
  CLI::App* compare = nullptr;
  CLI::App* init = nullptr;
};

// The commands and their options, declared on `app` in the order `--help` lists them.
void declare_commands(CLI::App& app, CommandLine& cl) {
  app.set_version_flag("--version", std::string("benchpr ") + BENCHPR_VERSION);
  app.require_subcommand(1);
  cl.run = app.add_subcommand("run", "Compare two revisions and report");
  add_run_options(*cl.run, cl.run_options, cl.run_texts);
  // The same list as README's "Exit codes", so CI authors need not look further.
  cl.run->footer(
      "Exit codes: 0 the comparison ran (whatever it found, unless --fail-on says otherwise); "
      "1 the job failed (interrupted, a file could not be written, posting failed); 2 bad usage "
      "or configuration (nothing was measured); 3 --fail-on regression|failed and the "
      "recommendation is don't merge; 4 --fail-on failed and a build, a suite run or a benchmark "
      "failed. When several apply (run, compare and publish alike): 1 if interrupted, then 3 or "
      "4, then 1 for a file not written or a failed posting.");
  cl.publish = app.add_subcommand("publish", "Render and post the comment from a results file");
  add_publish_options(*cl.publish, cl.publish_options, cl.publish_texts);
  cl.slash = app.add_subcommand(
      "slash-command",
      "In an issue_comment job: accept or refuse a /benchmark comment (see docs/github.md)");
  add_slash_command_options(*cl.slash, cl.slash_options, cl.slash_texts);
  // The commands that talk to GitHub take the token from a file as well as the environment.
  for (CLI::App* command : {cl.run, cl.publish, cl.slash}) {
    command->add_option("--token-file", cl.token_file,
                        "Read the GitHub token from this file (mode 0600, yours; deleted once "
                        "read) instead of GITHUB_TOKEN/GH_TOKEN; default: $BENCHPR_TOKEN_FILE");
  }
  cl.merge = app.add_subcommand(
      "merge",
      "Join the results of the shards of one comparison (`run --shard I/N`) into one file");
  add_merge_options(*cl.merge, cl.merge_options);
  cl.compare = app.add_subcommand(
      "compare",
      "Compare existing result files (Google Benchmark, JMH or hyperfine JSON): the same "
      "statistics and comment as run, nothing built or run");
  add_compare_options(*cl.compare, cl.compare_options, cl.compare_texts);
  cl.init = app.add_subcommand(
      "init", "Write a .benchpr.yml for this project and a GitHub workflow that runs benchpr");
  add_init_options(*cl.init, cl.init_options);
}

// The command line parsed into `app`'s options; the exit code when nothing is to run: --help and
// --version answered, or a usage error said on stderr.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      app.exit(e);  // --help, --version
      return kExitOk;
    }
    std::cerr << "benchpr: error: "
              << render::terminal_text(describe_parse_error(e, app, argc, argv), kErrorLineMaxChars)
              << std::endl;
    return kExitUsage;
  }
  return std::nullopt;
}

// The chosen command's words turned into its options' values, and its numbers range-checked,
// before anything runs: a typo must not cost a build. Throws UserError.
void check_options(CommandLine& cl) {
  if (cl.run->parsed()) {
    parse_report_choices(cl.run_options, cl.run_texts);
    cl.run_options.fail_on = parse_choice("--fail-on", cl.run_texts.fail_on, kFailOns);
    cl.run_options.compare = parse_choice("--compare", cl.run_texts.compare, kCompareModes);
    // Range errors before any git or build work: the overrides checked on a throwaway config.
    Config scratch;
    apply_overrides(scratch, cl.run_options);
  }
  if (cl.publish->parsed()) {
    parse_report_choices(cl.publish_options, cl.publish_texts);
    cl.publish_options.fail_on = parse_choice("--fail-on", cl.publish_texts.fail_on, kFailOns);
  }
  if (cl.compare->parsed()) {
    CompareOptions& o = cl.compare_options;
    o.format = parse_choice("--format", cl.compare_texts.format, kStdoutFormats);
    o.color = parse_choice("--color", cl.compare_texts.color, kColorModes);
    o.fail_on = parse_choice("--fail-on", cl.compare_texts.fail_on, kFailOns);
    o.input_format = parse_choice("--input-format", cl.compare_texts.input_format, kInputFormats);
  }
  if (cl.slash->parsed())
    cl.slash_options.done = parse_optional_choice("--done", cl.slash_texts.done, kRunOutcomes);
  if (cl.init->parsed() && cl.init->count("--shards") > 0 &&
      (cl.init_options.shards < 2 || cl.init_options.shards > 256))
    throw UserError("--shards: must be between 2 and 256, got " +
                    std::to_string(cl.init_options.shards));
}

// The chosen command run, and its exit code.
int run_command_chosen(const CommandLine& cl) {
  if (cl.run->parsed()) return run_command(cl.run_options);
  if (cl.publish->parsed()) return publish_command(cl.publish_options);
  if (cl.merge->parsed()) return merge_command(cl.merge_options);
  if (cl.compare->parsed()) return compare_command(cl.compare_options);
  if (cl.init->parsed()) return init_command(cl.init_options);
  if (cl.slash->parsed()) return slash_command(cl.slash_options);
  return kExitUsage;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{
      "benchpr: tells a pull request, with evidence, whether it makes the code faster or "
      "slower.\nBuilds base and PR, runs their benchmarks in interleaved rounds, and writes "
      "the comment."};
  CommandLine cl;
  declare_commands(app, cl);
  if (const std::optional<int> answered = parse_command_line(app, argc, argv)) return *answered;
  // Every error rises to here and is said as one line; its category picks the exit code.
  try {
    load_token_file(cl.token_file);  // before anything else runs: the file is gone once read
    check_options(cl);
    return run_command_chosen(cl);
  } catch (const Error& e) {
    std::cerr << "benchpr: error: " << render::terminal_text(e.what(), kErrorLineMaxChars)
              << std::endl;
    return exit_code_for(e.category());
  } catch (const std::exception& e) {
    std::cerr << "benchpr: error: " << render::terminal_text(e.what(), kErrorLineMaxChars)
              << std::endl;
    return exit_code_for(ErrorCategory::Internal);
  }
}

}  // namespace benchpr::app
