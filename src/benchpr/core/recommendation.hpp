// The merge recommendation: one verdict for the pull request and the sentence that justifies
// it with the deciding benchmarks and numbers.
#pragma once

#include "benchpr/core/model.hpp"

namespace benchpr {

// Uses analysis.benchmarks (verdicts already decided) and, from results, the builds and the
// pull request's intent (a title starting with "perf" or a "performance" label).
Recommendation recommend(const Results& results, const Analysis& analysis);

// True when the PR presents itself as a performance change.
bool claims_performance(const PullRequestInfo& pr);

}  // namespace benchpr
