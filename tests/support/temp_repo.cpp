#include "support/temp_repo.hpp"

#include <filesystem>

namespace benchpr::testing {

namespace {

// Environment for every git call: no system or global config, and none of the variables that
// would point git at another repository or inject configuration (as inside a git hook).
const char* const kIsolatedGit =
    "env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE -u GIT_OBJECT_DIRECTORY "
    "-u GIT_ALTERNATE_OBJECT_DIRECTORIES -u GIT_CEILING_DIRECTORIES -u GIT_CONFIG "
    "-u GIT_CONFIG_PARAMETERS -u GIT_CONFIG_COUNT "
    "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 git";

std::string trim_trailing_newlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TempRepo::TempRepo() {
  // One shell for all of it: each git process costs a few milliseconds.
  const std::string g = std::string(" && ") + kIsolatedGit + " ";
  git("init -q -b main" + g + "config user.name 'Benchpr Test'" + g +
      "config user.email test@benchpr.invalid" + g + "config commit.gpgsign false" + g +
      "config tag.gpgsign false" + g + "config core.autocrlf false");
}

void TempRepo::write(const std::string& rel, const std::string& content) {
  write_file(dir_ / rel, content);
}

void TempRepo::remove(const std::string& rel) { std::filesystem::remove_all(dir_ / rel); }

std::string TempRepo::commit(const std::string& message) {
  const std::string g = std::string(" && ") + kIsolatedGit + " ";
  return git("add -A" + g + "commit -q --allow-empty --no-verify -m " + shell_quote(message) + g +
             "rev-parse HEAD");
}

void TempRepo::branch(const std::string& name) { git("branch " + shell_quote(name)); }

void TempRepo::checkout(const std::string& name) { git("checkout -q " + shell_quote(name)); }

std::string TempRepo::commit_base_and_branch(const std::string& branch) {
  const std::string sha = commit("base");
  this->branch(branch);
  checkout(branch);
  return sha;
}

std::string TempRepo::git(const std::string& args) {
  return trim_trailing_newlines(run_checked(std::string(kIsolatedGit) + " " + args, path()));
}

}  // namespace benchpr::testing
