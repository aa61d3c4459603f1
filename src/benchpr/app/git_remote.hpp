// The few git operations libgit2 is not used for: reading the origin remote's URL and fetching
// with the git command line (which speaks every transport and credential setup users have).
//
// The clone is not trusted while git holds the token: the code of an earlier pull request ran as
// the same user and may have written its .git/config (url.*.insteadOf, http.proxy,
// remote.origin.url, include.path...). So a fetch that carries the token goes to a URL benchpr
// chose (the clone URL GitHub's API reports, never origin's), only to the git host of the API
// benchpr talks to, and runs in a private, empty git directory of its own: git reads no system,
// global or repository configuration there, and the token sits in a 0600 file of that
// directory, never on a command line or in an environment. The fetched objects then come into the
// clone by a local fetch without the token.
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

// The git host that goes with a GitHub API URL: github.com for https://api.github.com,
// SUB.ghe.com for https://api.SUB.ghe.com, the API's own host for GitHub Enterprise Server
// (https://HOST/api/v3) and anything else.
std::string git_host_for_api(const std::string& api_url);

// The problem with sending the token to `url`, or nothing when it may go there: the URL must be
// http(s) (https when the API is) on git_host_for_api(api_url).
std::optional<std::string> token_destination_problem(const std::string& url,
                                                     const std::string& api_url);

// How long one git command may take (a fetch of a large repository included).
inline constexpr double kGitTimeoutSeconds = 30 * 60;

// `git ARGS` in `directory` as benchpr runs git: with `env` added, at most kGitTimeoutSeconds,
// never prompting on a terminal; the last `tail_bytes` of its output kept.
exec::ProcessSpec git_process_spec(const std::string& args, const std::string& directory,
                                   std::vector<std::pair<std::string, std::string>> env,
                                   std::size_t tail_bytes);

// The git configuration (a file's text) that sends `Authorization: Basic …` with `token` to
// the host of `remote_url` only (http.<scheme://host/>.extraHeader); "" when there is no token
// or the remote does not use http(s) (ssh and local remotes need no header).
std::string git_auth_config(const std::string& remote_url, const std::string& token);

// `-c` options that clear the extra headers configured for the host of `remote_url` and then
// include `file` (holding git_auth_config()) as command-line configuration: the token reaches
// git through a 0600 file, not its environment or command line.
std::string git_auth_options(const std::string& remote_url, const std::string& file);

// Environment for a git that must read no system or global configuration.
std::vector<std::pair<std::string, std::string>> isolated_git_environment();

// What a comparison asks of the remotes: a seam, so tests run it against a fake. The
// problem, or nothing on success, as GitRemote below reports it.
class GitFetcher {
 public:
  virtual ~GitFetcher() = default;
  virtual std::string origin_url() = 0;
  virtual std::optional<std::string> fetch(const std::string& url,
                                           const std::vector<std::string>& refspecs) = 0;
  virtual std::optional<std::string> unshallow(const std::string& url) = 0;
};

class GitRemote final : public GitFetcher {
 public:
  // `repo_dir` is the working tree (or git directory) the git commands run in; `api_url` is the
  // GitHub API benchpr talks to, whose git host alone may receive the token.
  GitRemote(exec::ProcessRunner& processes, std::string repo_dir, std::string token,
            std::string api_url);

  // `git remote get-url origin`; "" when there is no origin remote. Never used to send the token
  // anywhere: the clone's configuration decides it.
  std::string origin_url() override;

  // Fetches `refspecs` ("+SRC:DST", or a bare commit SHA) from `url` into the clone. With a
  // token and an http(s) URL: refused unless token_destination_problem() finds none, then
  // carried out in a private git directory (above). Without a token, or for a non-http URL (a
  // local path, ssh), git fetches in the clone. Returns nothing on success, else the problem:
  // the end of git's output with the token removed.
  std::optional<std::string> fetch(const std::string& url,
                                   const std::vector<std::string>& refspecs) override;

  // `git fetch --unshallow` from origin (whose URL is `url`) in the clone: a shallow checkout
  // needs its own shallow file and configured refspecs. The token goes along only when `url` may
  // receive it and the clone's configuration holds nothing that redirects or proxies a request
  // or loads more configuration; else the fetch runs without it.
  std::optional<std::string> unshallow(const std::string& url) override;

 private:
  exec::ProcessResult git(const std::string& args, const std::string& directory,
                          const std::vector<std::pair<std::string, std::string>>& env);
  std::optional<std::string> failure(const exec::ProcessResult& result) const;
  std::optional<std::string> fetch_with_token(const std::string& url,
                                              const std::vector<std::string>& refspecs);
  // Keys of the clone's own configuration that could send a request elsewhere.
  std::vector<std::string> redirecting_config_keys();

  exec::ProcessRunner& processes_;
  std::string repo_dir_;
  std::string token_;
  std::string api_url_;
};

// `-c` options for git commands that read the working tree (status, add, commit-tree,
// update-ref) so that no program the configuration names runs: no hook, no fsmonitor, no commit
// signing program, and every filter driver configured anywhere (filter.NAME.clean/smudge/process)
// cleared and not required. The working tree's files are then recorded as they are. Lists the
// configured filter drivers with `git config` in `directory` (which runs no program).
std::string no_repository_programs_options(exec::ProcessRunner& processes,
                                           const std::string& directory);

// `-c` options that keep repository-controlled programs (hooks, fsmonitor, ext:: remotes,
// submodules, background gc; with the token also credential helpers and askpass) from running
// while git holds the token, and keep the transport direct and verified (no proxy, TLS checked).
std::string fetch_hardening_options(bool with_token);

}  // namespace benchpr::app
