// The merge recommendation: one verdict for the pull request and the sentence that justifies
// it with the deciding benchmarks and numbers.
#pragma once

#include <optional>
#include <string>

#include "benchpr/core/model/model.hpp"

namespace benchpr {

// Uses analysis.benchmarks (verdicts already decided) and, from results, the builds and the
// pull request's intent (see performance_claim).
Recommendation recommend(const Results& results, const Analysis& analysis);

// Why the PR presents itself as a performance change: `what` in words and `quoted`, the word,
// tag or label that says so ("its title starts with" `perf:`, "its title says" `faster`, "it
// has the label" `performance`). Whole words, not prefixes: "Perfect the README" claims
// nothing. A revert ("Revert \"perf: …\"") claims nothing either: undoing a speed-up is
// expected to be slower.
struct PerformanceClaim {
  std::string what;
  std::string quoted;
};
std::optional<PerformanceClaim> performance_claim(const PullRequestInfo& pr);

}  // namespace benchpr
