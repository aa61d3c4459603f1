// The pull request's commits as a bisection walks them: the first-parent chain from the head
// back to the base. Merges inside the pull request are followed through their first parent, so a
// merge of the base branch is one step, not the base branch's history.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "benchpr/core/model/bisect_types.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::app {

// The most commits (after the base) a search walks. A longer chain is not searched: cut to its
// last commits, its first step would put the changes of every commit left out on the oldest one
// kept (once, a +99.7% on a docs commit).
inline constexpr std::size_t kMaxChainCommits = 1000;

// [0] the base, then the head's first-parent ancestors after it, oldest first, the head last.
// The walk stops at the base, or at the first commit that is in the base's history (a chain that
// reaches the base only through a merge). nullopt when the chain holds more than `max_commits`
// commits after the base. Throws GitError when the repository cannot answer.
std::optional<std::vector<BisectCommit>> first_parent_chain(
    git::Repository& repo, const RevisionInfo& base, const RevisionInfo& head,
    std::size_t max_commits = kMaxChainCommits);

}  // namespace benchpr::app
