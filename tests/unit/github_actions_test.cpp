// GitHub Actions environment: the event payload, $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY and
// workflow commands.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "benchpr/github/actions_files.hpp"
#include "benchpr/github/event_payload.hpp"
#include "benchpr/github/workflow_commands.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::github {
namespace {

using benchpr::testing::read_file;
using benchpr::testing::TempDir;
using benchpr::testing::write_file;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(PullRequestEventTest, ParsesARealisticPayload) {
  auto event = parse_pull_request_event(
      read_event_file(std::string(BENCHPR_TEST_DATA_DIR) + "/github/pull_request_event.json"));
  EXPECT_EQ(event.action, "synchronize");
  EXPECT_EQ(event.number, 1842);
  EXPECT_EQ(event.title, "perf: avoid copying keys in object lookup");
  EXPECT_EQ(event.html_url, "https://github.com/acme/fastjson/pull/1842");
  EXPECT_EQ(event.base_sha, "4b2e9c1a7f3d5e8b0c6a2f9d1e7b3c5a8f0d2e64");
  EXPECT_EQ(event.base_ref, "main");
  EXPECT_EQ(event.head_sha, "9f3c2a7d5e1b4c8a0f6e2d9b7c5a3e1f0d8b6a42");
  EXPECT_EQ(event.head_ref, "lookup-no-copy");
  EXPECT_EQ(event.repo_full_name, "acme/fastjson");
  EXPECT_EQ(event.head_repo_full_name, "contributor/fastjson");
  EXPECT_TRUE(event.from_fork());
  EXPECT_THAT(event.labels, ElementsAre("performance", "area: parser"));
}

TEST(PullRequestEventTest, DeletedForkHasNoHeadRepository) {
  auto event = parse_pull_request_event(R"({
    "action": "opened",
    "pull_request": {"number": 5, "title": "t", "labels": [],
      "base": {"ref": "main", "sha": "aaaa", "repo": {"full_name": "o/r"}},
      "head": {"ref": "x", "sha": "bbbb", "repo": null}}})");
  EXPECT_EQ(event.number, 5);
  EXPECT_EQ(event.repo_full_name, "o/r");  // from base.repo when "repository" is absent
  EXPECT_EQ(event.head_repo_full_name, "");
  EXPECT_TRUE(event.labels.empty());
}

TEST(PullRequestEventTest, OtherEventsAndBrokenPayloadsAreExplained) {
  try {
    parse_pull_request_event(R"({"ref": "refs/heads/main", "before": "a", "after": "b"})");
    FAIL() << "expected an EventError";
  } catch (const EventError& e) {
    EXPECT_THAT(e.what(), HasSubstr("no \"pull_request\" object"));
  }
  EXPECT_THROW(parse_pull_request_event("{not json"), EventError);
  EXPECT_THROW(parse_pull_request_event("[]"), EventError);
  EXPECT_THROW(parse_pull_request_event(R"({"pull_request": {"title": "no number"}})"), EventError);
  EXPECT_THROW(parse_pull_request_event(R"({"pull_request": {"number": 1}})"), EventError);
  EXPECT_THROW(read_event_file("/nonexistent/event.json"), EventError);
}

TEST(WorkflowRunEventTest, ParsesWhatThePublishingJobChecks) {
  auto event = parse_workflow_run_event(R"({
    "action": "completed",
    "workflow_run": {
      "id": 9123456789, "name": "benchmarks", "event": "pull_request",
      "status": "completed", "conclusion": "success",
      "html_url": "https://github.com/acme/fastjson/actions/runs/9123456789",
      "head_sha": "9f3c2a7d5e1b4c8a0f6e2d9b7c5a3e1f0d8b6a42", "head_branch": "lookup-no-copy",
      "pull_requests": [{"number": 1842, "head": {"sha": "9f3c"}}],
      "head_repository": {"full_name": "contributor/fastjson"}},
    "repository": {"full_name": "acme/fastjson"}})");
  EXPECT_EQ(event.run_id, 9123456789);
  EXPECT_EQ(event.event, "pull_request");
  EXPECT_EQ(event.conclusion, "success");
  EXPECT_EQ(event.head_sha, "9f3c2a7d5e1b4c8a0f6e2d9b7c5a3e1f0d8b6a42");
  EXPECT_EQ(event.head_repo_full_name, "contributor/fastjson");
  EXPECT_EQ(event.repo_full_name, "acme/fastjson");
  EXPECT_THAT(event.pull_request_numbers, ElementsAre(1842));
  EXPECT_THROW(parse_workflow_run_event(R"({"action": "opened"})"), EventError);
}

// Numbers of another type or out of range (found by fuzz_event_payload): a string run id threw
// the JSON library's type_error past EventError, a run id of 1e300 was converted to an integer
// (undefined behaviour), and pull request 4294967303 was read as 7.
TEST(EventNumbersTest, ANumberOutOfRangeOrOfAnotherTypeIsNeverCutToFit) {
  const auto pull_request = [](const std::string& number) {
    return R"({"pull_request": {"number": )" + number +
           R"(, "base": {"sha": "a"}, "head": {"sha": "b"}}})";
  };
  EXPECT_EQ(parse_pull_request_event(pull_request("7")).number, 7);
  for (const char* bad : {"4294967303", "-3", "0", "1.5", "1e300", "\"7\"", "18446744073709551621"})
    EXPECT_THROW(parse_pull_request_event(pull_request(bad)), EventError) << bad;

  for (const char* id : {"\"x\"", "1e300", "-5", "18446744073709551615"}) {
    const WorkflowRunEvent run = parse_workflow_run_event(
        std::string(R"({"workflow_run": {"id": )") + id +
        R"(, "pull_requests": [{"number": 4294967303}, {"number": -1}, {"number": 12}]}})");
    EXPECT_EQ(run.run_id, 0) << id;
    EXPECT_THAT(run.pull_request_numbers, ElementsAre(12)) << id;
  }

  const auto comment = [](const std::string& number, const std::string& id) {
    return R"({"issue": {"number": )" + number + R"(}, "comment": {"id": )" + id + "}}";
  };
  EXPECT_EQ(parse_issue_comment_event(comment("3", "9123456789")).comment_id, 9123456789);
  EXPECT_THROW(parse_issue_comment_event(comment("4294967299", "1")), EventError);
  EXPECT_THROW(parse_issue_comment_event(comment("3", "-1")), EventError);
  EXPECT_THROW(parse_issue_comment_event(comment("3", "2.5")), EventError);
}

TEST(GitHubOutputTest, FormatsOneMultiLineOutput) {
  EXPECT_EQ(format_output("markdown", "line 1\nline 2", "EOF_1"),
            "markdown<<EOF_1\nline 1\nline 2\nEOF_1\n");
  EXPECT_EQ(format_output("empty", "", "D"), "empty<<D\n\nD\n");
  EXPECT_THROW(format_output("x", "a\nD\nb", "D"), ActionsFileError);
  EXPECT_THROW(format_output("", "v", "D"), ActionsFileError);
  EXPECT_THROW(format_output("a\nb", "v", "D"), ActionsFileError);
  EXPECT_THROW(format_output("a<<b", "v", "D"), ActionsFileError);
}

TEST(GitHubOutputTest, AppendsOutputsWithFreshRandomDelimiters) {
  TempDir dir;
  std::string path = dir / "github_output";
  write_file(path, "earlier=kept\n");
  write_outputs(path, {{"verdict", "do-not-merge"}, {"summary", "1 regression\n2 unchanged"}});

  auto lines = lines_of(read_file(path));
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines[0], "earlier=kept");
  std::smatch m;
  const std::regex opener("([a-z]+)<<(ghadelimiter_[0-9a-f]{32})");
  ASSERT_TRUE(std::regex_match(lines[1], m, opener)) << lines[1];
  EXPECT_EQ(m[1], "verdict");
  std::string first = m[2];
  EXPECT_EQ(lines[2], "do-not-merge");
  EXPECT_EQ(lines[3], first);
  ASSERT_TRUE(std::regex_match(lines[4], m, opener)) << lines[4];
  EXPECT_EQ(m[1], "summary");
  std::string second = m[2];
  EXPECT_NE(first, second);
  EXPECT_EQ(lines[5], "1 regression");
  EXPECT_EQ(lines[6], "2 unchanged");
  EXPECT_EQ(lines[7], second);
}

// Something else wrote last and left its line open ("recommendation=merge" then "X" with no
// newline): benchpr's outputs start on a line of their own, so the runner reads them as written.
TEST(GitHubOutputTest, OutputsStartOnAFreshLineAfterAnUnterminatedOne) {
  TempDir dir;
  std::string path = dir / "github_output";
  write_file(path, "recommendation=merge\nX");
  write_outputs(path, {{"recommendation", "do-not-merge"}});
  auto lines = lines_of(read_file(path));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "recommendation=merge");
  EXPECT_EQ(lines[1], "X");
  EXPECT_TRUE(lines[2].starts_with("recommendation<<ghadelimiter_")) << lines[2];
  EXPECT_EQ(lines[3], "do-not-merge");

  std::string summary = dir / "summary.md";
  write_file(summary, "| unterminated");
  append_step_summary(summary, "### benchpr\n");
  EXPECT_EQ(read_file(summary), "| unterminated\n### benchpr\n");
}

TEST(ActionsFilesWatchTest, AChangedFileIsToldFromAnUnchangedOne) {
  TempDir dir;
  const std::string output = dir / "output", env = dir / "env";
  write_file(output, "a=1\n");
  write_file(env, "");
  ::setenv("GITHUB_OUTPUT", output.c_str(), 1);
  ::setenv("GITHUB_ENV", env.c_str(), 1);
  ::unsetenv("GITHUB_PATH");
  ::unsetenv("GITHUB_STATE");
  ::unsetenv("GITHUB_STEP_SUMMARY");
  const auto before = fingerprint_actions_files();
  ASSERT_EQ(before.size(), 2u);
  EXPECT_TRUE(changed_actions_files(before).empty());
  write_file(output, "a=2\n");  // same size, other content
  EXPECT_EQ(changed_actions_files(before), std::vector<std::string>{"GITHUB_OUTPUT"});
  ::unsetenv("GITHUB_OUTPUT");
  ::unsetenv("GITHUB_ENV");
}

TEST(GitHubOutputTest, UnwritablePathIsAnError) {
  EXPECT_THROW(write_outputs("/nonexistent/dir/out", {{"a", "b"}}), ActionsFileError);
}

TEST(StepSummaryTest, AppendsMarkdownEndingInANewline) {
  TempDir dir;
  std::string path = dir / "summary.md";
  append_step_summary(path, "### benchpr");
  append_step_summary(path, "| a | b |\n");
  EXPECT_EQ(read_file(path), "### benchpr\n| a | b |\n");
}

TEST(StepSummaryTest, RefusesToGrowPastGitHubsLimit) {
  TempDir dir;
  std::string path = dir / "summary.md";
  append_step_summary(path, std::string(kMaxStepSummaryBytes - 10, 'x'));
  EXPECT_THROW(append_step_summary(path, std::string(10, 'y')), ActionsFileError);
  EXPECT_EQ(read_file(path).size(), kMaxStepSummaryBytes - 9);  // unchanged by the refusal
  append_step_summary(path, std::string(8, 'z'));               // 8 + newline fits exactly
  EXPECT_EQ(read_file(path).size(), kMaxStepSummaryBytes);
}

TEST(WorkflowCommandsTest, EscapesDataAndProperties) {
  EXPECT_EQ(escape_command_data("100% done\r\nnext: a, b"), "100%25 done%0D%0Anext: a, b");
  EXPECT_EQ(escape_command_property("BM_X/64: 5%, slow\n"), "BM_X/64%3A 5%25%2C slow%0A");
}

TEST(WorkflowCommandsTest, GroupsAndAnnotations) {
  EXPECT_EQ(group_command("Build base (abc1234)"), "::group::Build base (abc1234)");
  EXPECT_EQ(group_command("a\nb"), "::group::a%0Ab");
  EXPECT_EQ(endgroup_command(), "::endgroup::");
  EXPECT_EQ(warning_command("plain"), "::warning::plain");
  AnnotationProperties titled;
  titled.title = "benchpr: regression, maybe";
  EXPECT_EQ(warning_command("BM_Tls/4096 is 7.5% slower\nsee the comment", titled),
            "::warning title=benchpr%3A regression%2C maybe::BM_Tls/4096 is 7.5%25 slower%0Asee "
            "the comment");
  EXPECT_EQ(notice_command("n", {.title = "t", .file = "src/a.cpp", .line = 3, .end_line = 5}),
            "::notice title=t,file=src/a.cpp,line=3,endLine=5::n");
  EXPECT_EQ(notice_command("n"), "::notice::n");
}

}  // namespace
}  // namespace benchpr::github
