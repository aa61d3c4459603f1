#include "benchpr/app/git_remote.hpp"

#include "benchpr/core/text.hpp"
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

}  // namespace

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

std::vector<std::pair<std::string, std::string>> git_auth_environment(const std::string& remote_url,
                                                                      const std::string& token) {
  const std::string origin = http_origin(remote_url);
  if (token.empty() || origin.empty()) return {};
  // The empty value first clears headers configured before (actions/checkout persists its own
  // Authorization header in .git/config; two of them make GitHub refuse the request).
  const std::string key = "http." + origin + ".extraHeader";
  return {{"GIT_CONFIG_COUNT", "2"},
          {"GIT_CONFIG_KEY_0", key},
          {"GIT_CONFIG_VALUE_0", ""},
          {"GIT_CONFIG_KEY_1", key},
          {"GIT_CONFIG_VALUE_1", "Authorization: " + git_basic_auth_value(token)}};
}

std::string fetch_hardening_options(bool with_token) {
  std::string options =
      "-c core.hooksPath=/dev/null"               // no hook (reference-transaction, pre-auto-gc...)
      " -c core.fsmonitor=false"                  // no file-system monitor program
      " -c core.alternateRefsCommand=true"        // no program listing an alternate's refs
      " -c protocol.ext.allow=never"              // no ext:: remote running a command
      " -c submodule.recurse=false"               // no fetch in submodules (their own hooks)
      " -c gc.auto=0 -c maintenance.auto=false";  // no background gc keeping the token alive
  // Clears the list of credential helpers and the configured askpass program. Only with the
  // token: without it, the user's own helper may be what lets the fetch in.
  if (with_token) options += " -c credential.helper= -c core.askPass=";
  return options;
}

GitRemote::GitRemote(exec::ProcessRunner& processes, std::string repo_dir, std::string token)
    : processes_(processes), repo_dir_(std::move(repo_dir)), token_(std::move(token)) {}

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

exec::ProcessResult GitRemote::git(const std::string& args,
                                   const std::vector<std::pair<std::string, std::string>>& env) {
  return processes_.run(git_process_spec(args, repo_dir_, env, 2000));
}

std::string GitRemote::origin_url() {
  auto result = git("remote get-url origin", {});
  return result.ok() ? std::string(trim(result.output_tail)) : std::string();
}

std::optional<std::string> GitRemote::fetch(const std::vector<std::string>& args) {
  // The fetch may carry the token in git's environment, and every program git starts inherits
  // it. The clone's configuration and hooks may have been written by the code of an earlier
  // pull request, so nothing they name may run: command-line settings override every file.
  auto env = git_auth_environment(origin_url(), token_);
  const bool with_token = !env.empty();
  // With the token, credentials come from the header only: no helper or prompt program.
  if (with_token) env.emplace_back("GIT_ASKPASS", "true");
  std::string command = fetch_hardening_options(with_token) +
                        " fetch --no-tags --quiet --no-recurse-submodules origin";
  for (const auto& a : args) command += " " + shell_quote(a);
  auto result = git(command, env);
  if (result.ok()) return std::nullopt;
  std::string detail(trim(result.output_tail));
  if (detail.empty()) detail = *result.describe_failure(kGitTimeoutSeconds);
  return github::redact(detail, token_);
}

}  // namespace benchpr::app
