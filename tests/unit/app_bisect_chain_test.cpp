// The chain a search walks: the head's first-parent ancestors back to the base, in a real
// repository. A merge inside the pull request is one step (its first parent is followed, the
// merged branch's commits are not); a chain that joins the base's history through a merge of
// the base branch stops there.
#include "benchpr/app/bisect_chain.hpp"
#include "benchpr/app/bisect_run.hpp"

#include <gtest/gtest.h>

#include "support/temp_repo.hpp"

namespace benchpr::app {
namespace {

using testing::TempRepo;

std::vector<std::string> subjects(const std::vector<BisectCommit>& chain) {
  std::vector<std::string> out;
  for (const BisectCommit& c : chain) out.push_back(c.subject);
  return out;
}

TEST(BisectChain, FirstParentsFromTheBaseToTheHeadAMergeIsOneStep) {
  TempRepo repo;
  repo.write("a", "1\n");
  repo.commit_base_and_branch("pr");
  repo.write("a", "2\n");
  repo.commit("one");
  repo.branch("side");
  repo.checkout("side");
  repo.write("b", "side\n");
  repo.commit("on the side branch");
  repo.checkout("pr");
  repo.write("a", "3\n");
  repo.commit("two");
  repo.git("merge --no-ff -q -m 'merge the side branch' side");
  repo.write("a", "4\n");
  repo.commit("three");

  auto git = git::open_repository(repo.path());
  const RevisionInfo base = git->resolve("main");
  const RevisionInfo head = git->resolve("pr");
  const std::vector<BisectCommit> chain = first_parent_chain(*git, base, head).value();
  EXPECT_EQ(subjects(chain),
            (std::vector<std::string>{"base", "one", "two", "merge the side branch", "three"}));
  EXPECT_EQ(chain.front().sha, base.sha);
  EXPECT_EQ(chain.back().sha, head.sha);
}

TEST(BisectChain, AChainThatJoinsTheBaseThroughAMergeStopsThere) {
  TempRepo repo;
  repo.write("a", "1\n");
  repo.commit_base_and_branch("pr");
  repo.checkout("main");
  repo.write("m", "main moved on\n");
  repo.commit("main moves on");
  repo.checkout("pr");
  // The branch starts by merging main in: its first parent is the old base, in main's history.
  repo.git("merge --no-ff -q -m 'merge main' main");
  repo.write("a", "2\n");
  repo.commit("the change");

  auto git = git::open_repository(repo.path());
  const RevisionInfo base = git->resolve("main");  // main's tip is the merge base now
  const std::vector<BisectCommit> chain =
      first_parent_chain(*git, base, git->resolve("pr")).value();
  EXPECT_EQ(subjects(chain),
            (std::vector<std::string>{"main moves on", "merge main", "the change"}));
}

// A chain longer than the search takes is not cut: cut, its first step would carry the changes
// of every commit left out, put on the oldest commit kept. At the limit it is walked whole, the
// base first.
TEST(BisectChain, AChainLongerThanTheLimitIsNotSearchedAtTheLimitItIsWhole) {
  TempRepo repo;
  repo.write("a", "0\n");
  repo.commit_base_and_branch("pr");
  for (int i = 1; i <= 4; ++i) {
    repo.write("a", std::to_string(i) + "\n");
    repo.commit("commit " + std::to_string(i));
  }
  auto git = git::open_repository(repo.path());
  const RevisionInfo base = git->resolve("main");
  const RevisionInfo head = git->resolve("pr");
  EXPECT_FALSE(first_parent_chain(*git, base, head, 3).has_value());
  const auto whole = first_parent_chain(*git, base, head, 4);
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(subjects(*whole),
            (std::vector<std::string>{"base", "commit 1", "commit 2", "commit 3", "commit 4"}));
  EXPECT_EQ(whole->front().sha, base.sha);
}

// Whether a search is needed: the reason it is not, or nothing when it is (never "").
TEST(AppBisectRun, NotNeededSaysWhyOrNothing) {
  Results results;
  results.complete = true;
  Analysis analysis;
  analysis.benchmarks.resize(1);
  analysis.benchmarks[0].verdict = Verdict::Unchanged;
  EXPECT_EQ(bisect_not_needed(results, analysis, 5),
            std::optional<std::string>("no benchmark is a regression or an improvement"));
  analysis.benchmarks[0].verdict = Verdict::Regression;
  EXPECT_EQ(bisect_not_needed(results, analysis, 5), std::nullopt);
  EXPECT_TRUE(bisect_not_needed(results, analysis, 2).has_value());
  results.complete = false;
  EXPECT_EQ(bisect_not_needed(results, analysis, 5),
            std::optional<std::string>("the comparison did not finish"));
}

}  // namespace
}  // namespace benchpr::app
