// libFuzzer target: the GitHub Actions event payload ($GITHUB_EVENT_PATH) read as each event
// benchpr takes. A payload is GitHub's, but its strings carry what users wrote (titles, branch
// names, comments) and `publish` reads the `workflow_run` of a run that executed untrusted code.
// Any bytes must end in an event or an EventError, never another exception or a crash, and the
// numbers an event names (pull request, comment, run) are the ones in the payload, not a value
// cut to fit.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "benchpr/core/base/valid_utf8.hpp"
#include "benchpr/github/event_payload.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace benchpr::github;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const PullRequestEvent e = parse_pull_request_event(text);
    FUZZ_CHECK(e.number > 0);
    FUZZ_CHECK(!e.base_sha.empty() && !e.head_sha.empty());
    FUZZ_CHECK(benchpr::is_valid_utf8(e.title) && benchpr::is_valid_utf8(e.head_ref));
  } catch (const EventError& e) {
    FUZZ_CHECK(*e.what() != '\0');
  }
  try {
    const WorkflowRunEvent e = parse_workflow_run_event(text);
    FUZZ_CHECK(e.run_id >= 0);
    for (int n : e.pull_request_numbers) FUZZ_CHECK(n > 0);
  } catch (const EventError& e) {
    FUZZ_CHECK(*e.what() != '\0');
  }
  try {
    const IssueCommentEvent e = parse_issue_comment_event(text);
    FUZZ_CHECK(e.number > 0);
    FUZZ_CHECK(e.comment_id > 0);
    FUZZ_CHECK(benchpr::is_valid_utf8(e.body));
  } catch (const EventError& e) {
    FUZZ_CHECK(*e.what() != '\0');
  }
  return 0;
}
