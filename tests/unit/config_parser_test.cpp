// .benchpr.yml -> Config: every key, the defaults, and the exact wording of every error.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/config/config_parser.hpp"

namespace benchpr::config {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    parse_config(yaml);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* kMinimal = "suites:\n  - name: core\n    run: build/core_bench\n";

TEST(ConfigParser, EveryKey) {
  const Config c = parse_config(R"(# benchpr settings
build: cmake -S . -B build && cmake --build build -j2
build_timeout: 45m
suites:
  - name: core
    run: build/bench/core_bench --benchmark_min_time=0.2
    format: google-benchmark
    timeout: 5m
    metric: cpu_time
    better: lower
  - name: tls.jmh-1
    run: java -jar bench.jar -rf json -rff {out}
    format: jmh
  - name: cli
    run: hyperfine --export-json {out} 'build/tool --help'
    format: hyperfine
  - name: proxy
    run: ./bench.sh > {out}
    format: custom
    better: higher
rounds: 20
warmup_rounds: 2
threshold: 0.5%
timeout: 1h30m
budget: 2h
scrub_env: [AWS_SECRET_ACCESS_KEY, NPM_TOKEN]
comment: on-change
bisect: auto
)");
  EXPECT_EQ(c.comment, CommentPolicy::OnChange);
  EXPECT_EQ(c.bisect, BisectMode::Auto);
  EXPECT_EQ(c.build, "cmake -S . -B build && cmake --build build -j2");
  EXPECT_DOUBLE_EQ(c.build_timeout_seconds, 45 * 60);
  ASSERT_EQ(c.suites.size(), 4u);
  const SuiteConfig& core = c.suites[0];
  EXPECT_EQ(core.name, "core");
  EXPECT_EQ(core.run, "build/bench/core_bench --benchmark_min_time=0.2");
  EXPECT_EQ(core.format, FormatKind::GoogleBenchmark);
  EXPECT_EQ(core.timeout_seconds, 300);
  EXPECT_EQ(core.metric, "cpu_time");
  EXPECT_EQ(core.better, Better::Lower);
  EXPECT_EQ(core.line, 5);
  EXPECT_EQ(c.suites[1].name, "tls.jmh-1");
  EXPECT_EQ(c.suites[1].format, FormatKind::Jmh);
  EXPECT_EQ(c.suites[1].line, 11);
  EXPECT_EQ(c.suites[1].timeout_seconds, std::nullopt);
  EXPECT_EQ(c.suites[1].better, std::nullopt);
  EXPECT_EQ(c.suites[2].format, FormatKind::Hyperfine);
  EXPECT_EQ(c.suites[2].run, "hyperfine --export-json {out} 'build/tool --help'");
  EXPECT_EQ(c.suites[3].better, Better::Higher);
  EXPECT_EQ(c.suites[3].line, 17);
  EXPECT_EQ(c.rounds, 20);
  EXPECT_EQ(c.warmup_rounds, 2);
  EXPECT_DOUBLE_EQ(c.threshold, 0.005);
  EXPECT_DOUBLE_EQ(c.timeout_seconds, 5400);
  EXPECT_EQ(c.budget_seconds, 7200);
  EXPECT_EQ(c.scrub_env, (std::vector<std::string>{"AWS_SECRET_ACCESS_KEY", "NPM_TOKEN"}));
  EXPECT_DOUBLE_EQ(c.timeout_for(core), 300);
  EXPECT_DOUBLE_EQ(c.timeout_for(c.suites[1]), 5400);
}

TEST(ConfigParser, InstructionCounts) {
  const Config c = parse_config(
      "suites:\n  - name: core\n    run: a\n    metric: instructions\n"
      "  - name: io\n    run: b\n    instructions: true\n  - name: plain\n    run: c\n"
      "instruction_threshold: 0.2%\n");
  ASSERT_EQ(c.suites.size(), 3u);
  EXPECT_NEAR(c.instruction_threshold, 0.002, 1e-12);
  EXPECT_TRUE(c.counts_instructions(c.suites[0]));
  EXPECT_FALSE(Config::measures_time(c.suites[0]));
  EXPECT_TRUE(c.counts_instructions(c.suites[1]));
  EXPECT_TRUE(Config::measures_time(c.suites[1]));
  EXPECT_FALSE(c.counts_instructions(c.suites[2]));
  const Config all = parse_config(std::string(kMinimal) + "instructions: true\n");
  EXPECT_EQ(all.instructions, InstructionCounting::On);
  EXPECT_TRUE(all.counts_instructions(all.suites[0]));
  EXPECT_FALSE(all.counts_by_default(all.suites[0]));
  EXPECT_NEAR(parse_config(kMinimal).instruction_threshold, 0.005, 1e-12);
}

TEST(ConfigParser, UnsaidCountingIsDecidedWhenRunningAndFalseTurnsItOff) {
  // Nothing said: `run` counts where Valgrind is installed; until then nothing is counted.
  Config unsaid = parse_config(kMinimal);
  EXPECT_EQ(unsaid.instructions, InstructionCounting::Auto);
  EXPECT_FALSE(unsaid.counts_instructions(unsaid.suites[0]));
  unsaid.instructions = InstructionCounting::ByDefault;
  EXPECT_TRUE(unsaid.counts_instructions(unsaid.suites[0]));
  EXPECT_TRUE(unsaid.counts_by_default(unsaid.suites[0]));
  const Config off = parse_config(std::string(kMinimal) + "instructions: false\n");
  EXPECT_EQ(off.instructions, InstructionCounting::Off);
  EXPECT_FALSE(off.counts_instructions(off.suites[0]));
  // A suite that asks is counted, and is never "by default", whatever the top level says.
  Config asked = parse_config(
      "instructions: false\nsuites:\n  - name: io\n    run: b\n    instructions: true\n");
  EXPECT_TRUE(asked.counts_instructions(asked.suites[0]));
  asked.instructions = InstructionCounting::ByDefault;
  EXPECT_FALSE(asked.counts_by_default(asked.suites[0]));
}

TEST(ConfigParser, CycleEstimateIsOnUnlessTurnedOff) {
  EXPECT_TRUE(parse_config(kMinimal).cycle_estimate);
  EXPECT_TRUE(parse_config(std::string(kMinimal) + "cycle_estimate: true\n").cycle_estimate);
  EXPECT_FALSE(parse_config(std::string(kMinimal) + "cycle_estimate: false\n").cycle_estimate);
  EXPECT_THROW(parse_config(std::string(kMinimal) + "cycle_estimate: 3\n"), ConfigError);
}

TEST(ConfigParser, PlacementControlIsOnUnlessTurnedOff) {
  EXPECT_TRUE(parse_config(kMinimal).placement_control);
  EXPECT_FALSE(
      parse_config(std::string(kMinimal) + "placement_control: false\n").placement_control);
  EXPECT_THROW(parse_config(std::string(kMinimal) + "placement_control: maybe\n"), ConfigError);
}

TEST(ConfigParser, SuiteAndBenchmarkThresholdsFirstMatchWins) {
  const Config c = parse_config(R"(threshold: 2%
suites:
  - name: core
    run: build/core_bench
    threshold: 3%
    benchmarks:
      - match: "BM_Alloc/*"
        threshold: 10%
      - match: "BM_Alloc/64"
        threshold: 1%
        better: higher
      - {match: "BM_P?rse*", threshold: 0.5%}
  - name: net
    run: ./net > {out}
    format: custom
)");
  const SuiteConfig& core = c.suites[0];
  ASSERT_EQ(core.benchmarks.size(), 3u);
  EXPECT_EQ(core.benchmarks[0].match, "BM_Alloc/*");
  EXPECT_EQ(core.benchmarks[0].line, 7);
  EXPECT_FALSE(core.benchmarks[0].better);
  // The first entry that sets a value wins: BM_Alloc/64 keeps 10% but takes the second's better.
  EXPECT_DOUBLE_EQ(c.threshold_for("core", "BM_Alloc/64"), 0.10);
  EXPECT_EQ(rule_better(core, "BM_Alloc/64"), Better::Higher);
  EXPECT_EQ(rule_better(core, "BM_Alloc/4096"), std::nullopt);
  EXPECT_DOUBLE_EQ(c.threshold_for("core", "BM_Parse/json"), 0.005);
  EXPECT_DOUBLE_EQ(c.threshold_for("core", "BM_Copy"), 0.03);      // the suite's
  EXPECT_DOUBLE_EQ(c.threshold_for("net", "anything"), 0.02);      // the run's
  EXPECT_DOUBLE_EQ(c.threshold_for("gone", "BM_Alloc/64"), 0.02);  // an unknown suite
}

// `exclude:` leaves benchmarks out by name pattern: a list, or one pattern.
TEST(ConfigParser, ExcludePatternsPerSuite) {
  const Config c = parse_config(
      "suites:\n  - name: latency\n    run: a\n    exclude: [\"disabled-*\", BM_Slow]\n"
      "  - name: other\n    run: b\n    exclude: \"BM_X*\"\n");
  EXPECT_EQ(c.suites[0].exclude, (std::vector<std::string>{"disabled-*", "BM_Slow"}));
  EXPECT_EQ(c.suites[1].exclude, (std::vector<std::string>{"BM_X*"}));
  EXPECT_TRUE(excluded(c.suites[0], "disabled-at-compile-time"));
  EXPECT_FALSE(excluded(c.suites[0], "BM_Slower"));
  EXPECT_EQ(error_of("suites:\n  - name: l\n    run: a\n    exclude: {a: 1}\n"),
            ".benchpr.yml:4: suites[0].exclude: expected a list of benchmark name patterns, got a "
            "mapping (write e.g. 'exclude: [\"BM_Slow*\", \"disabled-*\"]')");
}

TEST(GlobMatch, WholeNameWithStarAndQuestionMark) {
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("BM_Copy/*", "BM_Copy/64"));
  EXPECT_TRUE(glob_match("BM_Copy/*", "BM_Copy/64/real_time"));  // '*' crosses '/'
  EXPECT_FALSE(glob_match("BM_Copy/*", "BM_CopyN/64"));
  EXPECT_FALSE(glob_match("BM_Copy", "BM_Copy/64"));  // whole name, not a prefix
  EXPECT_TRUE(glob_match("*throughput", "tcp throughput"));
  EXPECT_TRUE(glob_match("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(glob_match("a*b*c", "aXbYbZ"));
  EXPECT_TRUE(glob_match("BM_?", "BM_x"));
  EXPECT_FALSE(glob_match("BM_?", "BM_"));
  EXPECT_TRUE(glob_match("org.example.*:size=64", "org.example.Bench.run:size=64"));
  EXPECT_FALSE(glob_match("a.c", "abc"));  // '.' is itself, not any character
}

TEST(ConfigParser, Defaults) {
  const Config c = parse_config(kMinimal);
  EXPECT_EQ(c.build, "");
  EXPECT_DOUBLE_EQ(c.build_timeout_seconds, 30 * 60);
  EXPECT_EQ(c.comment, CommentPolicy::Always);
  ASSERT_EQ(c.suites.size(), 1u);
  EXPECT_EQ(c.suites[0].format, FormatKind::GoogleBenchmark);
  EXPECT_EQ(c.suites[0].metric, "");
  EXPECT_EQ(c.suites[0].timeout_seconds, std::nullopt);
  EXPECT_EQ(c.suites[0].line, 2);
  EXPECT_EQ(c.rounds, 10);
  EXPECT_EQ(c.warmup_rounds, 1);
  EXPECT_DOUBLE_EQ(c.threshold, 0.02);
  EXPECT_DOUBLE_EQ(c.timeout_seconds, 10 * 60);
  EXPECT_EQ(c.budget_seconds, std::nullopt);
  EXPECT_TRUE(c.scrub_env.empty());
  EXPECT_EQ(c.repetitions, 3);
}

TEST(ConfigParser, ValuesAtTheEdgesOfTheirRanges) {
  const Config low = parse_config(std::string(kMinimal) +
                                  "rounds: 2\nwarmup_rounds: 0\nthreshold: 0.1%\ntimeout: 1\n");
  EXPECT_EQ(low.rounds, 2);
  EXPECT_EQ(low.warmup_rounds, 0);
  EXPECT_DOUBLE_EQ(low.threshold, 0.001);
  EXPECT_DOUBLE_EQ(low.timeout_seconds, 1);
  const Config high =
      parse_config(std::string(kMinimal) + "rounds: 1000\nwarmup_rounds: 100\nthreshold: 50%\n");
  EXPECT_EQ(high.rounds, 1000);
  EXPECT_EQ(high.warmup_rounds, 100);
  EXPECT_DOUBLE_EQ(high.threshold, 0.5);
  // Odd counts are accepted here; the scheduler rounds them up to whole AB/BA blocks.
  EXPECT_EQ(parse_config(std::string(kMinimal) + "rounds: 7\n").rounds, 7);
  // Quoted scalars and an empty build are fine.
  const Config quoted = parse_config(std::string(kMinimal) + "rounds: \"12\"\nbuild:\n");
  EXPECT_EQ(quoted.rounds, 12);
  EXPECT_EQ(quoted.build, "");
}

TEST(ConfigParser, FileNameAppearsInMessages) {
  try {
    parse_config("rounds: 3\n", "ci/bench.yml");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("ci/bench.yml:1: suites: missing"));
  }
}

struct ErrorCase {
  const char* yaml;
  const char* message;
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << ::testing::PrintToString(c.yaml); }

class ConfigErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ConfigErrors, ExactMessage) { EXPECT_EQ(error_of(GetParam().yaml), GetParam().message); }

#define SUITE "suites:\n  - name: core\n    run: build/core_bench\n"

INSTANTIATE_TEST_SUITE_P(
    Config, ConfigErrors,
    ::testing::Values(
        // --- the file as a whole
        ErrorCase{"",
                  ".benchpr.yml:1: suites: missing, the file has no settings (a minimal "
                  "config: 'suites: [{name: core, run: build/bench/core_bench}]')"},
        ErrorCase{"# nothing yet\n",
                  ".benchpr.yml:1: suites: missing, the file has no settings (a minimal "
                  "config: 'suites: [{name: core, run: build/bench/core_bench}]')"},
        ErrorCase{"rounds: 10\n",
                  ".benchpr.yml:1: suites: missing (a minimal config: 'suites: "
                  "[{name: core, run: build/bench/core_bench}]')"},
        ErrorCase{"- core\n",
                  ".benchpr.yml:1: (top level): expected a mapping of settings, got "
                  "a list (write 'key: value' lines, starting with 'suites:')"},
        ErrorCase{"just words\n",
                  ".benchpr.yml:1: (top level): expected a mapping of settings, got 'just "
                  "words' (write 'key: value' lines, starting with 'suites:')"},
        ErrorCase{SUITE "rounds: [10\n",
                  ".benchpr.yml:5: invalid YAML: end of sequence flow not found"},
        ErrorCase{"suites:\n  - name: core\n    run: build/bench --benchmark_filter=BM_A: x\n",
                  ".benchpr.yml:3: invalid YAML: illegal map value (a value with ': ' in it must "
                  "be quoted: run: 'build/bench --benchmark_filter=BM_A: x')"},
        ErrorCase{SUITE "\trounds: 10\n",
                  ".benchpr.yml:4: invalid YAML: illegal tab when looking for indentation"},
        ErrorCase{
            SUITE "rownds: 10\n",
            ".benchpr.yml:4: rownds: unknown key (valid keys: build, build_timeout, "
            "suites, rounds, warmup_rounds, threshold, timeout, budget, scrub_env, comment, "
            "instructions, instruction_threshold, cycle_estimate, bisect, placement_control)"},
        ErrorCase{SUITE "rounds: 10\nrounds: 12\n",
                  ".benchpr.yml:5: rounds: appears twice, first on line 4 (keep one of them)"},
        ErrorCase{SUITE "comment: sometimes\n",
                  ".benchpr.yml:4: comment: expected always, on-change or never, got "
                  "'sometimes' (write 'comment: on-change')"},
        ErrorCase{SUITE "bisect: sometimes\n",
                  ".benchpr.yml:4: bisect: expected auto or off, got 'sometimes' (write 'bisect: "
                  "auto')"},
        ErrorCase{SUITE "comment: [always]\n",
                  ".benchpr.yml:4: comment: expected always, on-change or never, got a list "
                  "(write 'comment: on-change')"},
        // --- rounds, warmup_rounds
        ErrorCase{SUITE "rounds: ten\n",
                  ".benchpr.yml:4: rounds: expected a positive integer, got 'ten'"},
        ErrorCase{SUITE "rounds: 2.5\n",
                  ".benchpr.yml:4: rounds: expected a positive integer, got '2.5'"},
        ErrorCase{SUITE "rounds: -4\n",
                  ".benchpr.yml:4: rounds: expected a positive integer, got '-4'"},
        ErrorCase{SUITE "rounds: 1\n", ".benchpr.yml:4: rounds: must be at least 2, got 1"},
        ErrorCase{SUITE "rounds: 1001\n", ".benchpr.yml:4: rounds: must be at most 1000, got 1001"},
        ErrorCase{SUITE "rounds: 99999999999999999999999\n",
                  ".benchpr.yml:4: rounds: must be at most 1000, got 99999999999999999999999"},
        ErrorCase{SUITE "rounds:\n",
                  ".benchpr.yml:4: rounds: expected a positive integer, got "
                  "nothing"},
        ErrorCase{SUITE "rounds: [10]\n",
                  ".benchpr.yml:4: rounds: expected a positive integer, got a list"},
        ErrorCase{SUITE "warmup_rounds: none\n",
                  ".benchpr.yml:4: warmup_rounds: expected a non-negative integer, got 'none'"},
        ErrorCase{SUITE "warmup_rounds: 101\n",
                  ".benchpr.yml:4: warmup_rounds: must be at most 100, got 101"},
        // --- threshold
        ErrorCase{SUITE "threshold: 0.02\n",
                  ".benchpr.yml:4: threshold: expected a percentage, got 0.02 (write '2%')"},
        ErrorCase{SUITE "threshold: 5\n",
                  ".benchpr.yml:4: threshold: expected a percentage, got 5 (write '5%')"},
        ErrorCase{SUITE "threshold: two percent\n",
                  ".benchpr.yml:4: threshold: expected a percentage, got 'two percent' (write "
                  "e.g. '2%')"},
        ErrorCase{SUITE "threshold: 60%\n",
                  ".benchpr.yml:4: threshold: must be between 0.1% and 50%, got '60%'"},
        ErrorCase{SUITE "threshold: 0.05%\n",
                  ".benchpr.yml:4: threshold: must be between 0.1% and 50%, got '0.05%'"},
        // --- durations
        ErrorCase{SUITE "timeout: soon\n",
                  ".benchpr.yml:4: timeout: expected a duration, got 'soon' (write e.g. '90s', "
                  "'20m' or '1h30m')"},
        ErrorCase{SUITE "timeout: 0s\n",
                  ".benchpr.yml:4: timeout: must be greater than zero, got '0s' (write e.g. "
                  "'90s', '20m' or '1h30m')"},
        ErrorCase{SUITE "build_timeout: 10 minutes\n",
                  ".benchpr.yml:4: build_timeout: expected a duration, got '10 minutes' (write "
                  "e.g. '90s', '20m' or '1h30m')"},
        ErrorCase{SUITE "budget: {hours: 1}\n",
                  ".benchpr.yml:4: budget: expected a duration, got a mapping (write e.g. "
                  "'90s', '20m' or '1h30m')"},
        // --- build, scrub_env
        ErrorCase{SUITE "build:\n  - cmake -B build\n  - cmake --build build\n",
                  ".benchpr.yml:5: build: expected a shell command, got a list (write one "
                  "command; join steps with &&)"},
        ErrorCase{SUITE "scrub_env: MY_TOKEN\n",
                  ".benchpr.yml:4: scrub_env: expected a list of environment variable names, got "
                  "'MY_TOKEN' (write 'scrub_env: [MY_TOKEN]')"},
        ErrorCase{SUITE "scrub_env:\n  - OK_NAME\n  - MY-TOKEN\n",
                  ".benchpr.yml:6: scrub_env[1]: 'MY-TOKEN' is not an environment variable name "
                  "(letters, digits and '_', not starting with a digit)"},
        // --- suites
        ErrorCase{"suites: core\n",
                  ".benchpr.yml:1: suites: expected a list of suites, got "
                  "'core' (a minimal config: 'suites: [{name: core, run: "
                  "build/bench/core_bench}]')"},
        ErrorCase{"suites: []\n",
                  ".benchpr.yml:1: suites: the list is empty (a minimal config: "
                  "'suites: [{name: core, run: build/bench/core_bench}]')"},
        ErrorCase{"suites:\n",
                  ".benchpr.yml:1: suites: expected a list of suites, got nothing (a "
                  "minimal config: 'suites: [{name: core, run: "
                  "build/bench/core_bench}]')"},
        ErrorCase{"suites:\n  - core\n",
                  ".benchpr.yml:2: suites[0]: expected a mapping with name and run, got 'core' "
                  "(write '- name: core' and 'run: ...' on the next line)"},
        ErrorCase{"rounds: 10\nsuites:\n  - name: core\n    run: a\n  - name: tls\n    run: b\n"
                  "    formt: jmh\n",
                  ".benchpr.yml:7: suites[1].formt: unknown key (valid keys: name, run, format, "
                  "timeout, metric, better, instructions, threshold, benchmarks, "
                  "exclude)"},
        // --- instruction counts
        ErrorCase{"suites:\n  - name: cli\n    run: hyperfine {out}\n    format: hyperfine\n"
                  "    metric: instructions\n",
                  ".benchpr.yml:2: suites[0].metric: instruction counts need a google-benchmark "
                  "suite, not hyperfine (measure this suite by time)"},
        ErrorCase{SUITE "    instructions: maybe\n",
                  ".benchpr.yml:4: suites[0].instructions: expected true or false, got 'maybe' "
                  "(write 'instructions: true')"},
        ErrorCase{SUITE "instruction_threshold: 0.5\n",
                  ".benchpr.yml:4: instruction_threshold: expected a percentage, got 0.5 "
                  "(write '50%')"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    threshold: 60%\n",
                  ".benchpr.yml:4: suites[0].threshold: must be between 0.1% and 50%, got '60%'"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    benchmarks:\n"
                  "      - {match: \"BM_A*\", threshold: 0.05}\n",
                  ".benchpr.yml:5: suites[0].benchmarks[0].threshold: expected a percentage, got "
                  "0.05 (write '5%')"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    benchmarks:\n"
                  "      - match: \"BM_A*\"\n        threshold: 5%\n"
                  "      - match: \"BM_B*\"\n        threshold: 0.01%\n",
                  ".benchpr.yml:8: suites[0].benchmarks[1].threshold: must be between 0.1% and "
                  "50%, got '0.01%'"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    benchmarks:\n"
                  "      - match: \"BM_A*\"\n",
                  ".benchpr.yml:5: suites[0].benchmarks[0]: sets nothing (add 'threshold: 5%' or "
                  "'better: higher')"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    benchmarks:\n"
                  "      - threshold: 5%\n",
                  ".benchpr.yml:5: suites[0].benchmarks[0].match: missing (the benchmarks it "
                  "applies to, e.g. 'match: \"BM_Alloc/*\"')"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    benchmarks:\n"
                  "      - {match: \"x\", better: faster}\n",
                  ".benchpr.yml:5: suites[0].benchmarks[0].better: expected 'lower' or 'higher', "
                  "got 'faster'"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    benchmarks:\n"
                  "      - {match: \"x\", treshold: 5%}\n",
                  ".benchpr.yml:5: suites[0].benchmarks[0].treshold: unknown key (valid keys: "
                  "match, threshold, better)"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    benchmarks:\n      match: x\n",
                  ".benchpr.yml:5: suites[0].benchmarks: expected a list of {match, threshold, "
                  "better} entries, got a mapping (write e.g. '- {match: \"BM_Alloc/*\", "
                  "threshold: 5%}')"},
        ErrorCase{"suites:\n  - run: build/core_bench\n",
                  ".benchpr.yml:2: suites[0].name: missing (every suite needs a name, e.g. "
                  "'name: core')"},
        ErrorCase{"suites:\n  - name: core\n",
                  ".benchpr.yml:2: suites[0].run: missing (the command that runs the "
                  "benchmarks, e.g. 'run: build/bench/core_bench')"},
        ErrorCase{"suites:\n  - name: core\n    run: \"  \"\n",
                  ".benchpr.yml:3: suites[0].run: empty command (write e.g. 'run: "
                  "build/bench/core_bench')"},
        ErrorCase{"suites:\n  - name: my suite\n    run: a\n",
                  ".benchpr.yml:2: suites[0].name: 'my suite' may contain only letters, digits, "
                  "'_', '.' and '-' (write e.g. 'my_suite')"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n  - name: core\n    run: b\n",
                  ".benchpr.yml:4: suites[1].name: 'core' is already the name of the suite on "
                  "line 2 (give each suite its own name)"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    format: gbench\n",
                  ".benchpr.yml:4: suites[0].format: unknown format 'gbench' (valid formats: "
                  "google-benchmark, jmh, hyperfine, command, custom)"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    better: faster\n",
                  ".benchpr.yml:4: suites[0].better: expected 'lower' or 'higher', got 'faster'"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    timeout: -1m\n",
                  ".benchpr.yml:4: suites[0].timeout: expected a duration, got '-1m' (write "
                  "e.g. '90s', '20m' or '1h30m')"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    metric: [a, b]\n",
                  ".benchpr.yml:4: suites[0].metric: expected a metric name, got a list (write "
                  "e.g. 'metric: cpu_time')"},
        ErrorCase{"suites:\n  - name: core\n    run: a\n    run: b\n",
                  ".benchpr.yml:4: suites[0].run: appears twice, first on line 3 (keep one of "
                  "them)"}));

#undef SUITE

TEST(ConfigParser, HostileYamlIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_THAT(error_of("suites: " + deep), ::testing::StartsWith(".benchpr.yml:1: invalid YAML: "));
  // An alias repeats a suite, and so its name.
  EXPECT_EQ(error_of("suites:\n  - &s {name: a, run: x}\n  - *s\n"),
            ".benchpr.yml:2: suites[1].name: 'a' is already the name of the suite on line 2 (give "
            "each suite its own name)");
  // Nothing is mistaken for a duration or a count by YAML's own typing.
  EXPECT_EQ(error_of(std::string(kMinimal) + "rounds: 0x10\n"),
            ".benchpr.yml:4: rounds: expected a positive integer, got '0x10'");
}

}  // namespace
}  // namespace benchpr::config
