#include "benchpr/app/bisect_chain.hpp"

#include <algorithm>

namespace benchpr::app {

std::optional<std::vector<BisectCommit>> first_parent_chain(git::Repository& repo,
                                                            const RevisionInfo& base,
                                                            const RevisionInfo& head,
                                                            std::size_t max_commits) {
  std::vector<BisectCommit> newest_first;
  RevisionInfo at = head;
  while (at.sha != base.sha) {
    if (newest_first.size() == max_commits) return std::nullopt;  // too long to attribute
    newest_first.push_back({at.sha, at.subject, false, ""});
    RevisionInfo parent;
    try {
      parent = repo.resolve(at.sha + "^1");
    } catch (const git::RevisionNotFound&) {
      break;  // a root commit (or history a shallow clone lacks): the base is the step before it
    }
    if (parent.sha == base.sha) break;
    // A first parent in the base's own history: the chain joins the base there.
    if (repo.merge_base(parent.sha, base.sha) == parent.sha) break;
    at = parent;
  }
  std::vector<BisectCommit> chain;
  chain.push_back({base.sha, base.subject, false, ""});
  chain.insert(chain.end(), newest_first.rbegin(), newest_first.rend());
  return chain;
}

}  // namespace benchpr::app
