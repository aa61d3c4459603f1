// A repository and its remotes in memory, for unit tests of what benchpr asks of git (the
// comparison): commits by name, merge bases, a shallow checkout, fetches that bring commits in
// or fail. Reopening sees what a fetch added, as libgit2 does after a real fetch.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/app/comparison.hpp"
#include "benchpr/app/git_remote.hpp"
#include "benchpr/git/repository.hpp"

namespace benchpr::testing {

class FakeGit {
 public:
  // Makes `spec` (and the commit's own SHA) resolve to a commit with this SHA and subject.
  void add(const std::string& spec, const std::string& sha, const std::string& subject = "");
  void set_merge_base(const std::string& a, const std::string& b, const std::string& base);
  // Resolving `spec` fails for another reason than "not found" (a broken repository).
  void break_revision(const std::string& spec, const std::string& message);
  bool shallow = false;

  // What fetching from `url` brings: the revisions added (spec -> sha), or the problem.
  struct Remote {
    std::vector<std::pair<std::string, std::string>> brings;
    std::optional<std::string> problem;
    bool unshallows = true;  // `fetch --unshallow` from it makes the clone whole
  };
  std::map<std::string, Remote> remotes;  // by URL
  std::string origin = "https://github.com/acme/widgets.git";

  // What the code under test did.
  struct Fetch {
    std::string url;
    std::vector<std::string> refspecs;  // {"--unshallow"} for an unshallow
  };
  std::vector<Fetch> fetches;
  int opened = 0;

  // The seams of app::RepoContext, bound to this fake (which must outlive them).
  std::unique_ptr<app::GitFetcher> fetcher();
  app::RepositoryOpener opener();

  // What the fake repository answers (called by it).
  RevisionInfo resolve(const std::string& spec) const;
  std::string merge_base(const std::string& a, const std::string& b) const;
  std::optional<std::string> fetch_from(const std::string& url,
                                        const std::vector<std::string>& refspecs);

 private:
  std::map<std::string, RevisionInfo> revisions_;
  std::map<std::pair<std::string, std::string>, std::string> merge_bases_;
  std::map<std::string, std::string> broken_;
};

}  // namespace benchpr::testing
