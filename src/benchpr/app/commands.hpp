#pragma once

#include "benchpr/app/options.hpp"

namespace benchpr::app {

// `benchpr run`: compare two revisions (local, pull request or Actions event).
int run_command(const RunOptions& options);
// `benchpr publish results.json`: render (and post) from a results file; runs no code.
int publish_command(const PublishOptions& options);
// `benchpr merge SHARD.json... --output results.json`: joins the shards of one comparison.
int merge_command(const MergeOptions& options);
// `benchpr compare BASE.json HEAD.json`: the comparison of existing result files; runs nothing.
int compare_command(const CompareOptions& options);
// `benchpr init`: writes a commented .benchpr.yml for the project and a GitHub workflow.
int init_command(const InitOptions& options);
// `benchpr slash-command`: the `/benchmark` comment of an issue_comment event: accepts it (👀,
// step outputs for the measuring job) or refuses it; with --done, reacts 🚀 or 😕.
int slash_command(const SlashCommandOptions& options);

}  // namespace benchpr::app
