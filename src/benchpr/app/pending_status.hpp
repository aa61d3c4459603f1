// The commit status while benchpr measures: `pending` on the pull request's head as soon as the
// comparison starts, so a required check shows the run in progress instead of nothing or the
// verdict of an older push. The final state replaces it when the comment is posted.
#pragma once

#include <string>

#include "benchpr/app/progress.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr::app {

// Sets `pending` ("Measuring…") on pr.head_sha under the context of `key`. A failure is a warning
// on the progress lines, never an error: the measuring goes on and the final status tells.
void set_pending_status(const std::string& api_url, const std::string& token,
                        const PullRequestInfo& pr, const std::string& key,
                        const std::string& target_url, const Progress& progress);

}  // namespace benchpr::app
