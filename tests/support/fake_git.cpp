#include "support/fake_git.hpp"

namespace benchpr::testing {

namespace {

class FakeRepository final : public git::Repository {
 public:
  explicit FakeRepository(const FakeGit& git) : git_(git) {}
  RevisionInfo resolve(const std::string& spec) override { return git_.resolve(spec); }
  std::optional<std::string> read_file(const std::string&, const std::string&) override {
    return std::nullopt;
  }
  void materialise(const std::string&, const std::string&) override {
    throw git::GitError("the fake repository has no trees to materialise");
  }
  std::string git_dir() const override { return "/repo/.git"; }
  std::string workdir() const override { return "/repo"; }
  std::string merge_base(const std::string& a, const std::string& b) override {
    return git_.merge_base(a, b);
  }
  bool is_shallow() const override { return git_.shallow; }
  std::vector<std::string> changed_paths(const std::string&, const std::string&) override {
    return {};
  }

 private:
  const FakeGit& git_;
};

class FakeFetcher final : public app::GitFetcher {
 public:
  explicit FakeFetcher(FakeGit& git) : git_(git) {}
  std::string origin_url() override { return git_.origin; }
  std::optional<std::string> fetch(const std::string& url,
                                   const std::vector<std::string>& refspecs) override {
    return git_.fetch_from(url, refspecs);
  }
  std::optional<std::string> unshallow(const std::string& url) override {
    const std::optional<std::string> problem = git_.fetch_from(url, {"--unshallow"});
    const auto remote = git_.remotes.find(url);
    if (!problem && remote != git_.remotes.end() && remote->second.unshallows) git_.shallow = false;
    return problem;
  }

 private:
  FakeGit& git_;
};

}  // namespace

void FakeGit::add(const std::string& spec, const std::string& sha, const std::string& subject) {
  RevisionInfo info;
  info.spec = spec;
  info.sha = sha;
  info.subject = subject;
  revisions_[spec] = info;
  info.spec = sha;
  revisions_[sha] = info;
}

void FakeGit::set_merge_base(const std::string& a, const std::string& b, const std::string& base) {
  merge_bases_[{a, b}] = base;
  merge_bases_[{b, a}] = base;
}

void FakeGit::break_revision(const std::string& spec, const std::string& message) {
  broken_[spec] = message;
}

RevisionInfo FakeGit::resolve(const std::string& spec) const {
  if (const auto broken = broken_.find(spec); broken != broken_.end())
    throw git::GitError(broken->second);
  const auto it = revisions_.find(spec);
  if (it == revisions_.end())
    throw git::RevisionNotFound("revision '" + spec + "' not found in /repo");
  RevisionInfo info = it->second;
  info.spec = spec;
  return info;
}

std::string FakeGit::merge_base(const std::string& a, const std::string& b) const {
  const auto it = merge_bases_.find({a, b});
  if (it == merge_bases_.end())
    throw git::GitError("no merge base between " + a + " and " + b + " (unrelated histories)");
  return it->second;
}

std::optional<std::string> FakeGit::fetch_from(const std::string& url,
                                               const std::vector<std::string>& refspecs) {
  fetches.push_back({url, refspecs});
  const auto remote = remotes.find(url);
  if (remote == remotes.end()) return "fatal: repository '" + url + "' not found";
  if (remote->second.problem) return remote->second.problem;
  for (const auto& [spec, sha] : remote->second.brings) add(spec, sha);
  return std::nullopt;
}

std::unique_ptr<app::GitFetcher> FakeGit::fetcher() { return std::make_unique<FakeFetcher>(*this); }

app::RepositoryOpener FakeGit::opener() {
  return [this](const std::string&) -> std::unique_ptr<git::Repository> {
    ++opened;
    return std::make_unique<FakeRepository>(*this);
  };
}

}  // namespace benchpr::testing
