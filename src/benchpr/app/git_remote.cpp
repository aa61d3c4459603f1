#include "benchpr/app/git_remote.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "benchpr/core/base/link_host.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/github/redact.hpp"

namespace benchpr::app {

namespace {

// "https://host[:port]/" of an http(s) URL, "" for anything else (ssh, git@, file paths).
std::string http_origin(const std::string& url) {
  for (const char* scheme : {"https://", "http://"}) {
    if (!url.starts_with(scheme)) continue;
    std::string rest = url.substr(std::string(scheme).size());
    std::string authority = rest.substr(0, rest.find('/'));
    if (auto at = authority.rfind('@'); at != std::string::npos)  // drop user:password@
      authority = authority.substr(at + 1);
    if (authority.empty()) return "";
    return std::string(scheme) + authority + "/";
  }
  return "";
}

std::string scheme_of(const std::string& url) {
  const auto end = url.find("://");
  return end == std::string::npos ? "" : lower(url.substr(0, end));
}

bool is_hex_sha(const std::string& word) {
  return (word.size() == 40 || word.size() == 64) &&
         std::all_of(word.begin(), word.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A private directory for one fetch (mkdtemp: 0700), removed with everything in it.
class PrivateDirectory {
 public:
  PrivateDirectory() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/benchpr-fetch-XXXXXX";
    if (::mkdtemp(pattern.data())) path_ = pattern;
  }
  ~PrivateDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  PrivateDirectory(const PrivateDirectory&) = delete;
  PrivateDirectory& operator=(const PrivateDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Writes `text` to a new file `path` readable by its owner only; false when it cannot.
bool write_private_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  return ::close(fd) == 0 && done == text.size();
}

}  // namespace

std::string git_host_for_api(const std::string& api_url) {
  const std::string host = url_host(api_url);
  // api.github.com and the data-residency api.SUB.ghe.com serve git from the host without
  // "api."; GitHub Enterprise Server serves the API under /api/v3 of the git host itself.
  if (host == "api.github.com") return "github.com";
  if (host.starts_with("api.") && host.ends_with(".ghe.com")) return host.substr(4);
  return host;
}

std::optional<std::string> token_destination_problem(const std::string& url,
                                                     const std::string& api_url) {
  const std::string host = url_host(url);
  const std::string expected = git_host_for_api(api_url);
  if (host.empty()) return "'" + url + "' is not an http(s) URL";
  if (expected.empty()) return "the API URL '" + api_url + "' names no host";
  if (host != expected) {
    return "its host " + host + " is not " + expected + ", the git host of the GitHub API at " +
           api_url;
  }
  if (scheme_of(api_url) == "https" && scheme_of(url) != "https")
    return "'" + url + "' is not https (the API is)";
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> isolated_git_environment() {
  return {{"GIT_CONFIG_NOSYSTEM", "1"}, {"GIT_CONFIG_GLOBAL", "/dev/null"}};
}

std::string base64_encode(const std::string& bytes) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                 (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                 static_cast<unsigned char>(bytes[i + 2]);
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    out += table[(v >> 6) & 63];
    out += table[v & 63];
  }
  if (i + 1 == bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                 (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    out += table[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

std::string git_basic_auth_value(const std::string& token) {
  return "Basic " + base64_encode("x-access-token:" + token);
}

std::string git_auth_config(const std::string& remote_url, const std::string& token) {
  const std::string origin = http_origin(remote_url);
  if (token.empty() || origin.empty()) return "";
  std::string subsection;
  for (char c : origin) {
    if (c == '"' || c == '\\') subsection += '\\';
    subsection += c;
  }
  return "[http \"" + subsection +
         "\"]\n\textraHeader = Authorization: " + git_basic_auth_value(token) + "\n";
}

std::string git_auth_options(const std::string& remote_url, const std::string& file) {
  // The empty value first clears headers configured before (actions/checkout persists its own
  // Authorization header in .git/config; two of them make GitHub refuse the request); the
  // included file, read as command-line configuration, then adds benchpr's.
  return "-c " + shell_quote("http." + http_origin(remote_url) + ".extraHeader=") + " -c " +
         shell_quote("include.path=" + file);
}

std::string fetch_hardening_options(bool with_token) {
  std::string options =
      "-c core.hooksPath=/dev/null"              // no hook (reference-transaction, pre-auto-gc...)
      " -c core.fsmonitor=false"                 // no file-system monitor program
      " -c core.alternateRefsCommand=true"       // no program listing an alternate's refs
      " -c protocol.ext.allow=never"             // no ext:: remote running a command
      " -c submodule.recurse=false"              // no fetch in submodules (their own hooks)
      " -c gc.auto=0 -c maintenance.auto=false"  // no background gc keeping the token alive
      // The certificate is always checked. No proxy comes from configuration (the private git
      // directory reads none; a deepened clone's http.* keys refuse the token), but the runner's
      // own http_proxy/https_proxy environment is its network and is used.
      " -c http.sslVerify=true";
  // Clears the list of credential helpers and the configured askpass program. Only with the
  // token: without it, the user's own helper may be what lets the fetch in.
  if (with_token) options += " -c credential.helper= -c core.askPass=";
  return options;
}

std::string no_repository_programs_options(exec::ProcessRunner& processes,
                                           const std::string& directory) {
  std::string options =
      "-c core.hooksPath=/dev/null -c core.fsmonitor=false -c commit.gpgSign=false"
      " -c gc.auto=0 -c maintenance.auto=false";
  const exec::ProcessResult listed = processes.run(
      git_process_spec("config --name-only --get-regexp '^filter\\..*\\.(clean|smudge|process)$'",
                       directory, {}, std::size_t{1} << 20));
  std::set<std::string> drivers;
  std::istringstream lines(listed.output_tail);
  for (std::string key; std::getline(lines, key);) {
    const auto last = key.rfind('.');
    if (key.starts_with("filter.") && last > 7) drivers.insert(key.substr(7, last - 7));
  }
  for (const std::string& name : drivers) {
    for (const char* part : {".clean=", ".smudge=", ".process="})
      options += " -c " + shell_quote("filter." + name + part);
    options += " -c " + shell_quote("filter." + name + ".required=false");
  }
  return options;
}

GitRemote::GitRemote(exec::ProcessRunner& processes, std::string repo_dir, std::string token,
                     std::string api_url)
    : processes_(processes),
      repo_dir_(std::move(repo_dir)),
      token_(std::move(token)),
      api_url_(std::move(api_url)) {}

exec::ProcessSpec git_process_spec(const std::string& args, const std::string& directory,
                                   std::vector<std::pair<std::string, std::string>> env,
                                   std::size_t tail_bytes) {
  exec::ProcessSpec spec;
  spec.command = "git " + args;
  spec.cwd = directory;
  spec.timeout_seconds = kGitTimeoutSeconds;
  spec.tail_bytes = tail_bytes;
  spec.set_env = std::move(env);
  // Never wait for a password on a terminal that no one watches.
  spec.set_env.emplace_back("GIT_TERMINAL_PROMPT", "0");
  return spec;
}

exec::ProcessResult GitRemote::git(const std::string& args, const std::string& directory,
                                   const std::vector<std::pair<std::string, std::string>>& env) {
  return processes_.run(git_process_spec(args, directory, env, exec::kMessageTailBytes));
}

std::optional<std::string> GitRemote::failure(const exec::ProcessResult& result) const {
  if (result.ok()) return std::nullopt;
  std::string detail(trim(result.output_tail));
  if (detail.empty()) detail = *result.describe_failure(kGitTimeoutSeconds);
  return github::redact(detail, token_);
}

std::string GitRemote::origin_url() {
  auto result = git("remote get-url origin", repo_dir_, {});
  return result.ok() ? std::string(trim(result.output_tail)) : std::string();
}

std::optional<std::string> GitRemote::fetch(const std::string& url,
                                            const std::vector<std::string>& refspecs) {
  if (!token_.empty() && !url_host(url).empty()) return fetch_with_token(url, refspecs);
  // No token to lose: git fetches in the clone as the user would (its helpers, its ssh setup).
  std::string command = fetch_hardening_options(false) +
                        " fetch --no-tags --quiet --no-recurse-submodules " + shell_quote(url);
  for (const auto& r : refspecs)
    command += " " + shell_quote(is_hex_sha(r) ? r + ":refs/benchpr/fetched/" + r : r);
  return failure(git(command, repo_dir_, {}));
}

std::optional<std::string> GitRemote::fetch_with_token(const std::string& url,
                                                       const std::vector<std::string>& refspecs) {
  if (auto problem = token_destination_problem(url, api_url_))
    return "refusing to send the token to " + url + ": " + *problem;
  const PrivateDirectory dir;
  if (dir.path().empty()) return std::string("cannot create a private directory for the fetch");
  auto env = isolated_git_environment();

  // Where the clone keeps its objects: the private repository borrows them (alternates), so only
  // what the clone lacks is fetched, and the clone's refs are offered as what it has.
  auto common = git("rev-parse --path-format=absolute --git-common-dir", repo_dir_, {});
  if (auto problem = failure(common)) return problem;
  if (auto problem = failure(git("init -q --bare --template= .", dir.path(), env))) return problem;
  const std::string common_dir(trim(common.output_tail));
  {
    std::ofstream alternates(dir.path() + "/objects/info/alternates");
    alternates << common_dir << "/objects\n";
  }
  // A shallow clone's history ends where its shallow file says: the private repository too.
  std::error_code ec;
  if (std::filesystem::exists(common_dir + "/shallow", ec))
    std::filesystem::copy_file(common_dir + "/shallow", dir.path() + "/shallow", ec);
  exec::ProcessSpec list =
      git_process_spec("for-each-ref --format=%(objectname)", repo_dir_, {}, std::size_t{16} << 20);
  const exec::ProcessResult listed = processes_.run(list);
  {
    std::istringstream lines(listed.ok() ? listed.output_tail : std::string());
    std::set<std::string> haves;
    for (std::string line; std::getline(lines, line);)
      if (is_hex_sha(line)) haves.insert(line);
    std::ofstream packed(dir.path() + "/packed-refs");
    std::size_t n = 0;
    for (const auto& sha : haves) {
      char name[32];
      std::snprintf(name, sizeof name, "%010zu", n++);
      packed << sha << " refs/have/" << name << "\n";
    }
  }

  // The fetch itself: in the private repository, whose configuration benchpr wrote, with every
  // other configuration file ignored; refspecs keep their destinations there.
  // The header goes in a 0600 file of the private directory, never in an environment or on a
  // command line (both readable through /proc by the same user).
  const std::string auth_file = dir.path() + "/auth.config";
  if (!write_private_file(auth_file, git_auth_config(url, token_)))
    return std::string("cannot write the fetch's credentials to ") + auth_file;
  std::vector<std::string> destinations;
  std::string command = fetch_hardening_options(true) + " " + git_auth_options(url, auth_file) +
                        " fetch --no-tags --quiet --no-recurse-submodules --no-write-fetch-head " +
                        shell_quote(url);
  for (const auto& r : refspecs) {
    const std::string spec = is_hex_sha(r) ? r + ":refs/benchpr/fetched/" + r : r;
    const auto colon = spec.rfind(':');
    destinations.push_back(spec.substr(colon + 1));
    command += " " + shell_quote(spec);
  }
  auto fetch_env = env;
  fetch_env.emplace_back("GIT_DIR", dir.path());
  // With the token, credentials come from the header only: no helper or prompt program.
  fetch_env.emplace_back("GIT_ASKPASS", "true");
  const exec::ProcessResult fetched = git(command, dir.path(), fetch_env);
  std::filesystem::remove(auth_file);
  if (auto problem = failure(fetched)) return problem;

  // Into the clone: a local fetch from the private repository, without the token.
  std::string import = fetch_hardening_options(false) +
                       " fetch --no-tags --quiet --no-recurse-submodules --no-write-fetch-head " +
                       shell_quote(dir.path());
  for (const auto& d : destinations) import += " " + shell_quote("+" + d + ":" + d);
  return failure(git(import, repo_dir_, {}));
}

std::vector<std::string> GitRemote::redirecting_config_keys() {
  exec::ProcessSpec spec = git_process_spec("config --includes --name-only --list", repo_dir_,
                                            isolated_git_environment(), std::size_t{4} << 20);
  const exec::ProcessResult listed = processes_.run(spec);
  std::vector<std::string> keys;
  std::istringstream lines(listed.output_tail);
  for (std::string key; std::getline(lines, key);) {
    const std::string k = lower(key);
    const bool http = k.starts_with("http.") && !k.ends_with(".extraheader");
    const bool remote_proxy = k.starts_with("remote.") && k.ends_with(".proxy");
    if (k.starts_with("url.") || k.starts_with("include.") || k.starts_with("includeif.") || http ||
        remote_proxy)
      keys.push_back(key);
  }
  return keys;
}

std::optional<std::string> GitRemote::unshallow(const std::string& url) {
  bool with_token = !token_.empty() && !url_host(url).empty();
  // The fetch must run in the clone (its shallow file, its refspecs), so its configuration is
  // read: when it could redirect the request or load more configuration, benchpr's token stays
  // out of it (the clone's own credentials, such as a checkout's persisted ones, may still work).
  std::string withheld;
  if (with_token) {
    if (auto problem = token_destination_problem(url, api_url_))
      return "refusing to send the token to " + url + ": " + *problem;
    if (const auto keys = redirecting_config_keys(); !keys.empty()) {
      with_token = false;
      withheld = " (benchpr did not send its token: the clone's git configuration sets " +
                 keys.front() + ", which could send the request elsewhere)";
    }
  }
  std::string options = fetch_hardening_options(with_token);
  std::vector<std::pair<std::string, std::string>> env;
  const PrivateDirectory dir;
  if (with_token) {
    const std::string auth_file = dir.path() + "/auth.config";
    if (dir.path().empty() || !write_private_file(auth_file, git_auth_config(url, token_)))
      return std::string("cannot write the fetch's credentials to a private file");
    options += " " + git_auth_options(url, auth_file);
    env = isolated_git_environment();
    env.emplace_back("GIT_ASKPASS", "true");
  }
  auto problem =
      failure(git(options + " fetch --unshallow --no-tags --quiet --no-recurse-submodules origin",
                  repo_dir_, env));
  if (problem) *problem += withheld;
  return problem;
}

}  // namespace benchpr::app
