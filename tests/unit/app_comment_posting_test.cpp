// The commit status a recommendation sets: which states block a merge and what the description
// says. A wrong mapping would block merges on noisy runners or let a regression through.
#include "benchpr/app/comment_posting.hpp"

#include <gtest/gtest.h>

namespace benchpr::app {
namespace {

TEST(CommitStatusFor, MergeIsSuccessWithTheReasonAsPlainText) {
  const StatusText s = status_for(RecommendationKind::Merge, "no regressions in **12** benchmarks");
  EXPECT_EQ(s.state, "success");
  EXPECT_EQ(s.description, "Merge: no regressions in 12 benchmarks");
}

TEST(CommitStatusFor, DoNotMergeBlocks) {
  const StatusText s = status_for(RecommendationKind::DoNotMerge, "`BM_Sort/64` is 12% slower");
  EXPECT_EQ(s.state, "failure");
  EXPECT_EQ(s.description, "Don't merge: BM_Sort/64 is 12% slower");
}

// GitHub's states: `failure` says the change is bad, `error` that the check itself could not
// judge it. Both block a required check.
TEST(CommitStatusFor, FailedComparisonIsAnErrorThatBlocks) {
  const StatusText s = status_for(RecommendationKind::Failed, "the PR's build failed");
  EXPECT_EQ(s.state, "error");
  EXPECT_EQ(s.description, "Failed: the PR's build failed");
}

TEST(CommitStatusFor, InconclusiveDoesNotBlockButSaysSo) {
  const StatusText s = status_for(RecommendationKind::Inconclusive, "3 benchmarks undecided");
  EXPECT_EQ(s.state, "success");
  EXPECT_EQ(s.description, "Inconclusive (not blocking): 3 benchmarks undecided");
}

TEST(CommitStatusContext, DefaultKeyIsPlainOthersAreNamespaced) {
  EXPECT_EQ(status_context("default"), "benchpr");
  EXPECT_EQ(status_context("linux-gcc"), "benchpr/linux-gcc");
}

}  // namespace
}  // namespace benchpr::app
