// What a search for the commits behind a change measured (`bisect: auto`, `--bisect`): the pull
// request's first-parent chain and paired comparisons of some of its commits. Persisted in the
// results file (docs/results-format.md), so `benchpr publish` attributes the change from the
// measurements, never from words. Plain values; core/bisect/bisect.hpp plans and attributes.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/core/base/name_table.hpp"
#include "benchpr/core/model/stop_reason.hpp"

namespace benchpr {

// `bisect:` in .benchpr.yml and config.bisect in the results file (absent: off).
enum class BisectMode {
  Auto,  // after a change is found, search the PR's commits for the ones behind it
  Off,
};
inline constexpr NameTable<BisectMode, 2> kBisectModes{{{
    {BisectMode::Auto, "auto"},
    {BisectMode::Off, "off"},
}}};
constexpr std::string_view to_string(BisectMode mode) { return kBisectModes.name(mode); }
constexpr std::optional<BisectMode> bisect_mode_from_string(std::string_view name) {
  return kBisectModes.parse(name);
}

// How a search measures its pairs: the results file's bisect.method.
enum class BisectMethod {
  Time,          // interleaved rounds
  Instructions,  // exact counts, one per commit
};
inline constexpr NameTable<BisectMethod, 2> kBisectMethods{{{
    {BisectMethod::Time, "time"},
    {BisectMethod::Instructions, "instructions"},
}}};
constexpr std::string_view to_string(BisectMethod method) { return kBisectMethods.name(method); }
constexpr std::optional<BisectMethod> bisect_method_from_string(std::string_view name) {
  return kBisectMethods.parse(name);
}

// A commit of the chain: [0] is the comparison's base, the last is the PR's head.
struct BisectCommit {
  std::string sha;
  std::string subject;      // first line of its message (untrusted: shown as code)
  bool skipped = false;     // did not build: stepped over, like `git bisect skip`
  std::string skip_reason;  // the build's failure ("exit code 1")
};

// A benchmark the search follows: one the comparison labelled `regression` or `improvement`.
struct BisectTarget {
  std::string suite;  // as in the analysis ("micro", or "micro (instructions)" for counts)
  std::string name;
  double change = std::numeric_limits<double>::quiet_NaN();  // the whole PR's, head/base - 1
  double threshold = 0.02;  // what a step must reach to be named (exact counts only)
  bool exact = false;       // instruction counts: one exact value per commit
};

// One benchmark in a paired comparison of two commits of the chain.
struct BisectValue {
  std::string suite;
  std::string name;
  double from_value = std::numeric_limits<double>::quiet_NaN();  // the earlier commit
  double to_value = std::numeric_limits<double>::quiet_NaN();
  double change = std::numeric_limits<double>::quiet_NaN();   // to/from - 1
  double ci_low = std::numeric_limits<double>::quiet_NaN();   // 95% interval of the change;
  double ci_high = std::numeric_limits<double>::quiet_NaN();  // missing for exact counts
  int rounds = 0;                                             // analysed rounds (0: counts)
};

// One paired comparison: the commits `from` < `to` (indices into Bisection::commits), measured
// interleaved like the main comparison (or counted, for instructions).
struct BisectPair {
  int from = 0;
  int to = 0;
  double seconds = 0;   // what it cost, builds included (0 for the main comparison)
  std::string failure;  // "" or why it measured nothing (a commit did not build)
  std::vector<BisectValue> values;
};

struct Bisection {
  BisectMethod method = BisectMethod::Time;
  std::vector<BisectCommit> commits;
  std::vector<BisectTarget> targets;
  // pairs[0] is the main comparison (base, head); the rest in the order measured.
  std::vector<BisectPair> pairs;
  double budget_seconds = 0;  // what was left of the comparison's budget for the search
  double seconds = 0;         // what the search spent
  bool complete = false;      // every step the search needed was measured
  StopReason stop;            // StepsDone, BudgetSpent, Interrupted, Void
};

}  // namespace benchpr
