// The chain a search walks: the head's first-parent ancestors back to the base, in a real
// repository. A merge inside the pull request is one step (its first parent is followed, the
// merged branch's commits are not); a chain that joins the base's history through a merge of
// the base branch stops there.
#include "benchpr/app/bisect_chain.hpp"

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
  const std::vector<BisectCommit> chain = first_parent_chain(*git, base, head);
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
  const std::vector<BisectCommit> chain = first_parent_chain(*git, base, git->resolve("pr"));
  EXPECT_EQ(subjects(chain),
            (std::vector<std::string>{"main moves on", "merge main", "the change"}));
}

}  // namespace
}  // namespace benchpr::app
