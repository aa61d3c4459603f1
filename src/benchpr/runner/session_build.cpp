// A side's build: run the configured build command in its worktree, its log kept, its failure
// recorded as data (a BuildResult), never thrown.
#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/runner/session.hpp"
#include "benchpr/runner/session_words.hpp"

namespace benchpr::runner {

using namespace session_detail;

bool Session::build(Results& results, Side side) {
  const Config& c = results.config;
  BuildResult b;
  b.side = side;
  if (c.build.empty() || setup_.skip_build) {
    results.builds.push_back(b);
    return true;
  }
  progress_(fmt::format("building the {} ({})", side == Side::Base ? "base revision" : "PR",
                        short_sha(side == Side::Base ? results.base.sha : results.head.sha)));
  exec::ProcessSpec spec;
  spec.command = c.build;
  spec.cwd = side == Side::Base ? setup_.base_dir : setup_.head_dir;
  spec.timeout_seconds = c.build_timeout_seconds;
  spec.scrub_env = c.scrub_env;
  spec.log_path = fmt::format("{}/build-{}.log", setup_.log_dir, to_string(side));
  file_system_.remove(spec.log_path);
  spec.tail_bytes = exec::kBuildTailBytes;
  const exec::ProcessResult p = processes_.run(spec);
  child_seconds_ += p.wall_seconds;
  b.seconds = p.wall_seconds;
  b.ok = p.ok();
  if (!b.ok) {
    b.failure = *p.describe_failure(spec.timeout_seconds);
    b.failure_kind = p.failure_kind();
    b.log_tail = last_lines(p.output_tail, 40);
    progress_(fmt::format("the {} failed to build: {} (log: {})", side_name(side), b.failure,
                          spec.log_path));
  } else {
    progress_(fmt::format("built the {} in {}", side_name(side), format_duration(b.seconds)));
  }
  results.builds.push_back(b);
  return b.ok;
}

}  // namespace benchpr::runner
