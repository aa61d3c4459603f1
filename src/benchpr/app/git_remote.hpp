// The few git operations libgit2 is not used for: reading the origin remote's URL and fetching
// from it with the git command line (which speaks every transport and credential setup users
// have). The GitHub token reaches git only through its environment as an HTTP header scoped to
// the remote's host: never on a command line, in a URL or in .git/config.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchpr/exec/process.hpp"

namespace benchpr::app {

// "Basic base64(x-access-token:TOKEN)": how GitHub accepts a token over git's HTTP transport.
std::string git_basic_auth_value(const std::string& token);

std::string base64_encode(const std::string& bytes);

// Environment for a git child that sends `Authorization: <value>` to the host of `remote_url`
// only (git's http.<url>.extraHeader, replacing any configured before), through
// GIT_CONFIG_COUNT/KEY/VALUE. Empty when there is
// no token or the remote does not use http(s) (ssh and local remotes need no header).
std::vector<std::pair<std::string, std::string>> git_auth_environment(const std::string& remote_url,
                                                                      const std::string& token);

// How long one git command may take (a fetch of a large repository included).
inline constexpr double kGitTimeoutSeconds = 30 * 60;

// `git ARGS` in `directory` as benchpr runs git: with `env` added, at most kGitTimeoutSeconds,
// never prompting on a terminal; the last `tail_bytes` of its output kept.
exec::ProcessSpec git_process_spec(const std::string& args, const std::string& directory,
                                   std::vector<std::pair<std::string, std::string>> env,
                                   std::size_t tail_bytes);

class GitRemote {
 public:
  // `repo_dir` is the working tree (or git directory) the git commands run in.
  GitRemote(exec::ProcessRunner& processes, std::string repo_dir, std::string token);

  // `git remote get-url origin`; "" when there is no origin remote.
  std::string origin_url();

  // `git fetch --no-tags origin ARGS...` (args are git words, quoted here). Returns nothing on
  // success, else the problem: the end of git's output with the token removed.
  std::optional<std::string> fetch(const std::vector<std::string>& args);

 private:
  exec::ProcessResult git(const std::string& args,
                          const std::vector<std::pair<std::string, std::string>>& env);

  exec::ProcessRunner& processes_;
  std::string repo_dir_;
  std::string token_;
};

// `-c` options that keep repository-controlled programs (hooks, fsmonitor, ext:: remotes,
// submodules, background gc; with the token also credential helpers and askpass) from running
// while git holds the token.
std::string fetch_hardening_options(bool with_token);

}  // namespace benchpr::app
