// Command-line mistakes end in one line in benchpr's voice ("benchpr: error: ..."), name the
// fix (the nearest option, the allowed range) and exit with 2 before any git or build work.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "support/benchpr_process.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::testing {
namespace {

struct ErrorCase {
  std::vector<std::string> args;
  std::string message;  // the whole of stderr, without "benchpr: error: " and the newline
  // The message only starts with `message` (what follows is another library's words).
  bool prefix = false;
};

class CliErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(CliErrors, OneLineInBenchprsVoice) {
  TempDir dir;  // not a repository: nothing may get as far as opening one
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, GetParam().args, {}, dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::string expected = "benchpr: error: " + GetParam().message;
  if (GetParam().prefix) {
    EXPECT_EQ(r.err.rfind(expected, 0), 0u) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;  // one line
  } else {
    EXPECT_EQ(r.err, expected + "\n");
  }
  EXPECT_EQ(r.out, "");
}

INSTANTIATE_TEST_SUITE_P(
    Cli, CliErrors,
    ::testing::Values(
        // A result file that is not there is named, before any file is read.
        ErrorCase{{"compare", "missing.json", "head.json"}, "compare: missing.json: no such file"},
        ErrorCase{{"compare", "--base", "a.json", "--head", "gone/b.json"},
                  "compare: a.json: no such file"},
        ErrorCase{{"publish", "missing.json", "--dry-run"}, "publish: missing.json: no such file"},
        ErrorCase{{"merge", "-o", "merged.json", "shard1.json", "shard2.json"},
                  "merge: shard1.json: no such file"},
        ErrorCase{{"run", "--base", "main", "--dryrun"},
                  "unknown option `--dryrun` for `benchpr run`; did you mean `--dry-run`?"},
        ErrorCase{{"run", "--base", "main", "--treshold", "2%"},
                  "unknown option `--treshold` for `benchpr run`; did you mean `--threshold`?"},
        ErrorCase{{"publish", "r.json", "--dry-rn"},
                  "unknown option `--dry-rn` for `benchpr publish`; did you mean `--dry-run`?"},
        ErrorCase{{"run", "--base", "main", "--frobnicate"},
                  "unknown option `--frobnicate` for `benchpr run`"},
        ErrorCase{
            {"rn", "--base", "main"},
            "unknown command `rn`; did you mean `run`? (commands: run, compare, publish, merge, "
            "init)"},
        ErrorCase{{},
                  "which command? benchpr run, benchpr compare, benchpr publish, benchpr merge or "
                  "benchpr init (see --help)"},
        ErrorCase{{"run", "--base", "main", "--threshold", "60%"},
                  "--threshold: must be between 0.1% and 50%, got '60%'"},
        ErrorCase{{"run", "--base", "main", "--threshold", "0.05%"},
                  "--threshold: must be between 0.1% and 50%, got '0.05%'"},
        ErrorCase{{"run", "--base", "main", "--threshold", "two"},
                  "--threshold: expected a percentage like 2%, got 'two'"},
        ErrorCase{{"run", "--base", "main", "--rounds", "1"},
                  "--rounds: must be between 2 and 1000, got 1"},
        ErrorCase{{"run", "--base", "main", "--warmup", "101"},
                  "--warmup: must be between 0 and 100, got 101"},
        ErrorCase{{"run", "--base", "main", "--fail-on", "regresion"},
                  "--fail-on: expected never, regression or failed, got 'regresion'; did you "
                  "mean `regression`?"},
        ErrorCase{{"run", "--base", "main", "--format", "txt"},
                  "--format: expected auto, markdown or text, got 'txt'; did you mean `text`?"},
        ErrorCase{{"run", "--base", "main", "--color", "sometimes"},
                  "--color: expected auto, always or never, got 'sometimes'"},
        ErrorCase{{"run", "--base", "main", "--compare", "merge-bas"},
                  "--compare: expected merge-base or merge, got 'merge-bas'; did you mean "
                  "`merge-base`?"},
        ErrorCase{{"run", "--base", "main", "--comment", "sometimes"},
                  "--comment: expected always, on-change or never, got 'sometimes'"},
        ErrorCase{{"publish", "r.json", "--comment", "on-chnage"},
                  "--comment: expected always, on-change or never, got 'on-chnage'; did you mean "
                  "`on-change`?"},
        ErrorCase{{"slash-command", "--done", "sucess"},
                  "--done: expected success, failure, cancelled or skipped, got 'sucess'; did "
                  "you mean `success`?"},
        ErrorCase{{"init", "--shards", "1"}, "--shards: must be between 2 and 256, got 1"},
        ErrorCase{{"run", "--base", "main", "--rounds", "ten"},
                  "--rounds: expected a number, got 'ten'"},
        // A value that looks like an option is the value, not an unknown option.
        ErrorCase{
            {"run", "--bench-args", "--benchmark_min_time=0.05", "--base", "main", "--rounds", "x"},
            "--rounds: expected a number, got 'x'"},
        // Refused before anything runs; the regex library's own words follow in parentheses.
        ErrorCase{{"run", "--base", "main", "--filter", "BM_(a"},
                  "--filter: 'BM_(a' is not a regular expression (",
                  true},
        ErrorCase{{"run", "--base", "main", "--why", "BM_[a"},
                  "--why: 'BM_[a' is not a regular expression (",
                  true},
        // std::regex compiles by recursion: a pattern this long is refused before it is.
        ErrorCase{{"run", "--base", "main", "--why", std::string(1001, 'a')},
                  "--why: 1001 characters, more than 1000; shorten the pattern"}));

// README's list of `benchpr run` options and `benchpr run --help` name the same options (among
// them those added since the first release), the help exits 0, and it states the exit codes
// README documents.
TEST(CliErrorsValues, ReadmeOptionListMatchesRunHelp) {
  const std::string readme = read_file(std::string(BENCHPR_SOURCE_DIR) + "/README.md");
  const std::size_t from = readme.find("Options of `benchpr run`:");
  const std::size_t to = readme.find("`benchpr run --help` lists everything", from);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const std::regex option("--[a-z][a-z_-]*[a-z]");
  auto options_in = [&](const std::string& text) {
    std::set<std::string> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), option);
         it != std::sregex_iterator(); ++it)
      found.insert(it->str());
    return found;
  };
  const BenchprRun r = run_benchpr(BENCHPR_BINARY, {"run", "--help"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> in_help = options_in(r.out);
  for (const char* option : {"--filter", "--bench-args", "--format", "--color", "--skip-build",
                             "--fail-on", "--dry-run"})
    EXPECT_EQ(in_help.count(option), 1u) << option << "\n" << r.out;
  in_help.erase("--help");
  std::set<std::string> in_readme = options_in(readme.substr(from, to - from));
  in_readme.erase("--help");
  // Values that look like options inside the help's own descriptions.
  for (const char* word : {"--benchmark_min_time", "--benchmark_filter"}) in_help.erase(word);
  EXPECT_EQ(in_readme, in_help);
  EXPECT_NE(r.out.find("4 --fail-on failed and a build, a suite run or a benchmark failed"),
            std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace benchpr::testing
