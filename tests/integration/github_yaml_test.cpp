// The shipped GitHub files (action.yml, .github/workflows/*.yml) are valid, tidy YAML, and the
// action declares what docs/github.md and benchpr's step outputs promise.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/temp_dir.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

const std::string kSource = BENCHPR_SOURCE_DIR;

// yamllint's defaults, with GitHub's `on:` key allowed and lines up to 100 characters.
const char* const kYamllintConfig =
    "{extends: default, rules: {line-length: {max: 100}, document-start: disable, "
    "truthy: {check-keys: false}}}";

std::vector<std::string> github_yaml_files() {
  std::vector<std::string> files = {kSource + "/action.yml"};
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/.github/workflows")) {
    if (entry.path().extension() == ".yml") files.push_back(entry.path().string());
  }
  return files;
}

TEST(GitHubYaml, ActionAndWorkflowsPassYamllint) {
  if (run_command("yamllint --version").exit_code != 0) GTEST_SKIP() << "yamllint not installed";
  const auto files = github_yaml_files();
  ASSERT_GE(files.size(), 3u);  // action.yml, ci.yml, benchpr.yml
  std::string command = "yamllint -s -f parsable -d " + shell_quote(kYamllintConfig);
  for (const auto& f : files) command += " " + shell_quote(f);
  const CommandResult r = run_command(command);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

// The workflows docs/github.md offers for copying are as valid as the shipped ones.
TEST(GitHubYaml, WorkflowsInTheDocsPassYamllint) {
  if (run_command("yamllint --version").exit_code != 0) GTEST_SKIP() << "yamllint not installed";
  const std::string doc = read_file(kSource + "/docs/github.md");
  TempDir dir;
  int blocks = 0;
  std::string command = "yamllint -s -f parsable -d " + shell_quote(kYamllintConfig);
  for (std::size_t pos = doc.find("```yaml\n"); pos != std::string::npos;
       pos = doc.find("```yaml\n", pos)) {
    pos += 8;
    const std::size_t end = doc.find("```", pos);
    ASSERT_NE(end, std::string::npos);
    const std::string path = dir / ("block" + std::to_string(++blocks) + ".yml");
    write_file(path, doc.substr(pos, end - pos));
    command += " " + shell_quote(path);
    pos = end + 3;
  }
  EXPECT_GE(blocks, 3);  // same-repository, measure, publish
  const CommandResult r = run_command(command);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(GitHubYaml, YamllintCatchesABrokenFile) {
  if (run_command("yamllint --version").exit_code != 0) GTEST_SKIP() << "yamllint not installed";
  TempDir dir;
  write_file(dir / "bad.yml", "on:\n  push:\n   branches: [main]\n  bad: [\n");
  const CommandResult r = run_command("yamllint -s -d " + shell_quote(kYamllintConfig) + " " +
                                      shell_quote(dir / "bad.yml"));
  EXPECT_NE(r.exit_code, 0) << r.output;
}

TEST(GitHubYaml, ActionDeclaresTheDocumentedInputsAndOutputs) {
  const std::string action = read_file(kSource + "/action.yml");
  for (const char* input :
       {"config:", "rounds:", "budget:", "fail-on:", "token:", "key:", "args:", "command:"}) {
    EXPECT_NE(action.find("\n  " + std::string(input)), std::string::npos) << input;
  }
  for (const char* output : {"recommendation", "regressions", "improvements", "inconclusive",
                             "failed", "results", "comment-url"}) {
    EXPECT_NE(action.find("${{ steps.benchpr.outputs." + std::string(output) + " }}"),
              std::string::npos)
        << output;
  }
  EXPECT_NE(action.find("using: composite"), std::string::npos);
  // Input values reach the script through its environment, never pasted into it.
  const std::string run_script = action.substr(action.find("run: |", action.find("id: benchpr")));
  EXPECT_EQ(run_script.find("${{"), std::string::npos);
}

}  // namespace
}  // namespace benchpr::testing
