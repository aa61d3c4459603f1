// The shipped GitHub files (action.yml, .github/workflows/*.yml) are valid, tidy YAML, and the
// action declares what docs/github.md and benchpr's step outputs promise.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include "benchpr/app/workflow_template.hpp"
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
  EXPECT_GE(blocks, 4);  // same-repository, measure, publish, /benchmark
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
  const std::size_t run_start = action.find("run: |", action.find("id: benchpr"));
  const std::string run_script =
      action.substr(run_start, action.find("\n    - name: ", run_start) - run_start);
  EXPECT_EQ(run_script.find("${{"), std::string::npos);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

std::string trimmed(const std::string& s) {
  const std::size_t b = s.find_first_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b);
}

// The script text of every `run: |` block (the lines indented deeper than `run:`).
std::vector<std::string> run_blocks(const std::string& yaml) {
  std::vector<std::string> blocks;
  const auto lines = lines_of(yaml);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trimmed(lines[i]);
    if (t != "run: |") continue;
    const std::size_t indent = lines[i].size() - t.size();
    std::string block;
    for (std::size_t k = i + 1; k < lines.size(); ++k) {
      const std::string tk = trimmed(lines[k]);
      if (!tk.empty() && lines[k].size() - tk.size() <= indent) break;
      block += lines[k] + "\n";
    }
    blocks.push_back(block);
  }
  return blocks;
}

TEST(GitHubYaml, NoInputOrEventTextIsPastedIntoAnActionScript) {
  const auto blocks = run_blocks(read_file(kSource + "/action.yml"));
  EXPECT_GE(blocks.size(), 3u);
  for (const auto& block : blocks) EXPECT_EQ(block.find("${{"), std::string::npos) << block;
}

// The text of the step named `name` (from its `- name:` line to the next step's).
std::string step_text(const std::string& yaml, const std::string& name) {
  const std::size_t start = yaml.find("- name: " + name);
  if (start == std::string::npos) return "";
  const std::size_t end = yaml.find("\n    - name: ", start + 1);
  return yaml.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The token never sits in the environment of benchpr's parent shell (alive while the pull
// request's code runs): a step of its own writes it to a 0600 file, the step running benchpr
// blanks GITHUB_TOKEN and GH_TOKEN and names only the file.
TEST(GitHubYaml, TheTokenReachesBenchprInAPrivateFileNotThroughItsStepsEnvironment) {
  const std::string action = read_file(kSource + "/action.yml");
  const std::string run_step = step_text(action, "Run benchpr");
  const std::string token_step = step_text(action, "Hand the token to benchpr");
  ASSERT_FALSE(run_step.empty());
  ASSERT_FALSE(token_step.empty());
  EXPECT_EQ(run_step.find("inputs.token"), std::string::npos) << run_step;
  EXPECT_NE(run_step.find("GITHUB_TOKEN: \"\""), std::string::npos) << run_step;
  EXPECT_NE(run_step.find("GH_TOKEN: \"\""), std::string::npos) << run_step;
  EXPECT_NE(run_step.find("BENCHPR_TOKEN_FILE: ${{ steps.token.outputs.file }}"),
            std::string::npos);
  EXPECT_LT(action.find("id: token"), action.find("id: benchpr"));
  // inputs.token is read in the token step and nowhere else but the input's own default.
  std::size_t uses = 0;
  for (std::size_t at = action.find("inputs.token"); at != std::string::npos;
       at = action.find("inputs.token", at + 1))
    ++uses;
  EXPECT_EQ(uses, 1u);
  EXPECT_NE(token_step.find("inputs.token"), std::string::npos);

  // The token step's script, run as the runner would: a 0600 file holding exactly the token.
  std::string script;
  for (const auto& block : run_blocks(token_step)) script += block;
  ASSERT_NE(script.find("umask 077"), std::string::npos) << script;
  TempDir runner_temp;
  write_file(runner_temp / "output", "");
  write_file(runner_temp / "step.sh", script);
  const CommandResult r = run_command(
      "BENCHPR_TOKEN_VALUE=ghs_TokenForTheFileTest RUNNER_TEMP=" + shell_quote(runner_temp.path()) +
      " GITHUB_OUTPUT=" + shell_quote(runner_temp / "output") + " bash " +
      shell_quote(runner_temp / "step.sh"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string output = read_file(runner_temp / "output");
  ASSERT_TRUE(output.starts_with("file=" + runner_temp.path() + "/benchpr-token.")) << output;
  const std::string file = output.substr(5, output.find('\n') - 5);
  EXPECT_EQ(read_file(file), "ghs_TokenForTheFileTest");
  EXPECT_EQ(std::filesystem::status(file).permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  // A cleanup step removes the file whatever happened to benchpr.
  EXPECT_NE(step_text(action, "Remove the token file").find("if: always()"), std::string::npos);
}

TEST(GitHubYaml, TheActionInstallsTheBuildListOnlyAndCachesTheBuild) {
  const std::string action = read_file(kSource + "/action.yml");
  EXPECT_NE(action.find("$GITHUB_ACTION_PATH/.ci/build-packages"), std::string::npos);
  EXPECT_EQ(action.find("test-packages"), std::string::npos);
  // Instruction counts are on by default wherever Valgrind is installed: the action installs it
  // with the build and on a runner that restores the build.
  EXPECT_NE(action.find("install \"${packages[@]}\" ccache valgrind"), std::string::npos);
  EXPECT_NE(read_file(kSource + "/release/runtime-packages.sh").find("echo valgrind"),
            std::string::npos);
  EXPECT_NE(action.find("release/runtime-packages.sh"), std::string::npos);
  EXPECT_NE(action.find("! command -v valgrind"), std::string::npos);
  // Nothing only the tests need, and nothing Ubuntu lacks as a .deb (chromium is a snap there).
  const auto build = lines_of(read_file(kSource + "/.ci/build-packages"));
  for (const char* test_only :
       {"chromium", "clang", "libclang-rt-14-dev", "libgtest-dev", "libgmock-dev", "yamllint",
        "hyperfine", "libcpp-httplib-dev", "libbenchmark-dev"}) {
    EXPECT_EQ(std::count(build.begin(), build.end(), test_only), 0) << test_only;
  }
  // Valgrind's headers build the library that instruments a slow start-up late
  // (runner/instrument_on_open.hpp), so a released binary carries it too.
  EXPECT_EQ(std::count(build.begin(), build.end(), "valgrind"), 1);
  // The two lists together are what .ci/run and the README install.
  const auto test = lines_of(read_file(kSource + "/.ci/test-packages"));
  for (const char* needed : {"libgtest-dev", "libgmock-dev", "libcpp-httplib-dev", "yamllint",
                             "hyperfine", "chromium", "clang", "libbenchmark-dev"}) {
    EXPECT_EQ(std::count(test.begin(), test.end(), needed), 1) << needed;
  }
  const std::string both = "cat .ci/build-packages .ci/test-packages | xargs apt-get install";
  EXPECT_NE(read_file(kSource + "/.ci/run").find(both), std::string::npos);
  EXPECT_NE(read_file(kSource + "/README.md").find(both), std::string::npos);
  // Restored before building, saved right after it (before the PR's code runs), keyed on the
  // action's own sources.
  const std::size_t restore = action.find("uses: " + std::string(app::kCacheRestoreAction));
  const std::size_t build_step = action.find("cmake --build");
  const std::size_t save = action.find("uses: " + std::string(app::kCacheSaveAction));
  const std::size_t run = action.find("id: benchpr");
  ASSERT_NE(restore, std::string::npos);
  ASSERT_NE(save, std::string::npos);
  EXPECT_LT(restore, build_step);
  EXPECT_LT(build_step, save);
  EXPECT_LT(save, run);
  EXPECT_NE(action.find("release/sources-hash.sh\" \"$GITHUB_ACTION_PATH\""), std::string::npos);
  // At a release the released binary comes first, and then nothing is restored or built.
  const std::size_t released = action.find("release/install-released.sh");
  ASSERT_NE(released, std::string::npos);
  EXPECT_LT(released, restore);
  EXPECT_NE(action.find("if: inputs.cache != 'false' && steps.release.outputs.installed != 'true'"),
            std::string::npos);
  EXPECT_NE(action.find("if: steps.release.outputs.installed != 'true'"), std::string::npos);
  EXPECT_NE(action.find("if: steps.build.outputs.built == 'true'"), std::string::npos);
}

// The scripts the action and the release workflow run are checked like the YAML around them.
TEST(GitHubYaml, TheReleaseScriptsPassShellcheck) {
  if (run_command("shellcheck --version").exit_code != 0)
    GTEST_SKIP() << "shellcheck not installed";
  std::string command = "shellcheck -s bash";
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/release"))
    if (entry.path().extension() == ".sh") command += " " + shell_quote(entry.path().string());
  const CommandResult r = run_command(command);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

// The docs and the shipped workflows name benchpr's action one way, each time with the comment
// telling users what to put there; a workflow that asks for a status may set it; no upload
// step stays quiet about a missing file.
TEST(GitHubYaml, WorkflowsNameTheActionOneWayAndAskForWhatTheyUse) {
  std::vector<std::string> texts = {read_file(kSource + "/docs/github.md")};
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/.github/workflows"))
    texts.push_back(read_file(entry.path().string()));
  const std::string reference(app::kActionReference);
  int references = 0;
  for (const auto& text : texts) {
    const auto lines = lines_of(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string t = trimmed(lines[i]);
      if (!t.starts_with("uses: ") && !t.starts_with("- uses: ")) continue;
      const std::string target = t.substr(t.find("uses: ") + 6);
      if (target.starts_with("actions/") || target.starts_with("./")) continue;
      EXPECT_TRUE(target.starts_with(reference)) << lines[i];
      ASSERT_GT(i, 0u);
      EXPECT_NE(lines[i - 1].find("replace with the OWNER/NAME@REF"), std::string::npos)
          << lines[i];
      ++references;
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].find("uses: actions/upload-artifact@") == std::string::npos) continue;
      bool fails_loudly = false;
      for (std::size_t k = i + 1; k < lines.size() && !trimmed(lines[k]).starts_with("- ") &&
                                  !trimmed(lines[k]).starts_with("```");
           ++k)
        fails_loudly = fails_loudly || trimmed(lines[k]).starts_with("if-no-files-found: error");
      EXPECT_TRUE(fails_loudly) << lines[i];
    }
  }
  EXPECT_GE(references, 5);
  for (const auto& entry : std::filesystem::directory_iterator(kSource + "/.github/workflows")) {
    const std::string text = read_file(entry.path().string());
    if (text.find("status: \"true\"") != std::string::npos) {
      EXPECT_NE(text.find("statuses: write"), std::string::npos) << entry.path();
    }
  }
}

// Every `uses:` of another repository in action.yml, the repository's workflows, the docs, the
// README and every workflow `init` writes is pinned by a full 40-hex commit SHA with its version
// as a comment, and is one of the pins of workflow_template.hpp (a tag can be moved to other
// code). Local actions (`./`) and benchpr's own action, which users replace with the
// OWNER/NAME@REF they take benchpr from, are the only others.
TEST(GitHubYaml, EveryActionIsPinnedByAFullCommitShaWithItsVersion) {
  std::vector<std::pair<std::string, std::string>> texts = {
      {"action.yml", read_file(kSource + "/action.yml")},
      {"README.md", read_file(kSource + "/README.md")}};
  for (const auto& dir : {"/.github/workflows", "/docs"})
    for (const auto& entry : std::filesystem::directory_iterator(kSource + dir))
      texts.emplace_back(entry.path().string(), read_file(entry.path().string()));
  for (const int shards : {0, 3})
    for (const bool fork_safe : {false, true})
      for (const app::WorkflowFile& f : app::workflow_files({shards, fork_safe, true}))
        texts.emplace_back("init: " + f.path, f.yaml);
  const std::regex pinned(
      R"(([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+)@([0-9a-f]{40})  # (v[0-9]+(\.[0-9]+)*))");
  int uses = 0;
  std::set<std::string> seen;
  for (const auto& [name, text] : texts) {
    for (const std::string& line : lines_of(text)) {
      const std::string t = trimmed(line);
      const std::size_t at = t.find("uses: ");
      if (at == std::string::npos || (at != 0 && !t.starts_with("- uses: "))) continue;
      const std::string target = t.substr(at + 6);
      if (target.starts_with("./") || target.starts_with(std::string(app::kActionRepository) + "@"))
        continue;
      ++uses;
      std::smatch m;
      ASSERT_TRUE(std::regex_match(target, m, pinned))
          << name << ": `" << line << "` is not pinned by a full commit SHA with `  # vX.Y.Z`";
      const std::string uses_value = m[1].str() + "@" + m[2].str();
      const auto pin = std::find_if(std::begin(app::kPinnedActions), std::end(app::kPinnedActions),
                                    [&](const app::ActionPin& p) { return p.uses == uses_value; });
      ASSERT_NE(pin, std::end(app::kPinnedActions)) << name << ": " << line << " is no pin";
      EXPECT_EQ(m[3].str(), pin->version) << name << ": " << line;
      seen.insert(uses_value);
    }
    // Prose names actions without a ref; a ref there would be a tag.
    const std::regex tagged(R"(actions/[a-z-]+(/[a-z-]+)?@v[0-9])");
    EXPECT_FALSE(std::regex_search(text, tagged)) << name << " names an action by a tag";
  }
  EXPECT_GE(uses, 20);
  EXPECT_EQ(seen.size(), std::size(app::kPinnedActions)) << "every pin is used";
}

// The check above catches a tag (it would have passed the old `@v7` lines only by failing).
TEST(GitHubYaml, ThePinCheckRefusesATag) {
  const std::regex pinned(
      R"(([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+)@([0-9a-f]{40})  # (v[0-9]+(\.[0-9]+)*))");
  EXPECT_FALSE(std::regex_match(std::string("actions/checkout@v7"), pinned));
  EXPECT_FALSE(std::regex_match(std::string("actions/checkout@3d3c42e5"), pinned));
  const std::string sha = "3d3c42e5aac5ba805825da76410c181273ba90b1";
  EXPECT_FALSE(std::regex_match("actions/checkout@" + sha, pinned)) << "no version comment";
  EXPECT_FALSE(std::regex_match(
      "actions/checkout@3D3C42E5AAC5BA805825DA76410C181273BA90B1  # v7.0.1", pinned));
  EXPECT_FALSE(std::regex_match("actions/checkout@" + sha + "  # main", pinned));
  EXPECT_TRUE(std::regex_match("actions/checkout@" + sha + "  # v7.0.1", pinned));
  EXPECT_TRUE(std::regex_match(app::pinned_uses(app::kCheckoutPin), pinned));
}

// docs/github.md lists every pin (release, commit, runtime) in its table, as the header has it.
TEST(GitHubYaml, TheDocsListEveryPin) {
  const std::string docs = read_file(kSource + "/docs/github.md");
  for (const app::ActionPin& pin : app::kPinnedActions) {
    const std::string_view sha = pin.uses.substr(pin.uses.find('@') + 1);
    const std::string row =
        "| " + std::string(pin.version) + " | `" + std::string(sha) + "` | node24 |";
    EXPECT_NE(docs.find(row), std::string::npos) << "docs/github.md has no row " << row;
  }
}

// `init` writes Dependabot's github-actions entry beside the workflows, and keeps a
// dependabot.yml of the project's own.
TEST(GitHubYaml, TheDependabotEntryKeepsThePinsCurrent) {
  const std::string yaml = app::dependabot_yaml();
  EXPECT_NE(yaml.find("version: 2\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("  - package-ecosystem: github-actions\n    directory: /\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("interval: weekly"), std::string::npos) << yaml;
  TempDir dir;
  write_file(dir / "dependabot.yml", yaml);
  if (run_command("yamllint --version").exit_code == 0) {
    const CommandResult r = run_command("yamllint -s -d " + shell_quote(kYamllintConfig) + " " +
                                        shell_quote(dir / "dependabot.yml"));
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
}

// The sharded workflow docs/github.md shows is the one `benchpr init --shards 3` writes.
TEST(GitHubYaml, TheShardedWorkflowInTheDocsIsTheOneInitWrites) {
  std::string workflow = app::sharded_workflow_yaml(3);
  while (workflow.starts_with("#")) workflow.erase(0, workflow.find('\n') + 1);
  const std::string doc = read_file(kSource + "/docs/github.md");
  EXPECT_NE(doc.find("```yaml\n" + workflow + "```"), std::string::npos) << workflow;
}

}  // namespace
}  // namespace benchpr::testing
