// The pull request's commits as a bisection walks them: the first-parent chain from the head
// back to the base. Merges inside the pull request are followed through their first parent, so a
// merge of the base branch is one step, not the base branch's history.
#pragma once

#include <cstddef>
#include <vector>

#include "benchpr/core/bisect_types.hpp"
#include "benchpr/core/model.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::app {

// Longer chains are cut to their last commits (the first step then covers the rest).
inline constexpr std::size_t kMaxChainCommits = 1000;

// [0] the base, then the head's first-parent ancestors after it, oldest first, the head last.
// The walk stops at the base, or at the first commit that is in the base's history (a chain that
// reaches the base only through a merge). Throws GitError when the repository cannot answer.
std::vector<BisectCommit> first_parent_chain(git::Repository& repo, const RevisionInfo& base,
                                             const RevisionInfo& head);

}  // namespace benchpr::app
