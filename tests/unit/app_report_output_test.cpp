// The end every comparing command shares (end_comparison): the exit code's order of causes, a
// write error named once, the posting, and a report that the results file reproduces.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "benchpr/app/commands.hpp"
#include "benchpr/app/options.hpp"
#include "benchpr/app/report_failures.hpp"
#include "benchpr/app/report_output.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/runner/results_store.hpp"
#include "support/golden.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::app {
namespace {

using benchpr::testing::known_effects_session;
using benchpr::testing::TempDir;

struct Ended {
  int exit_code = 0;
  std::string out;
  std::string err;
};

// end_comparison (outside GitHub Actions unless `actions`), with what it prints captured.
Ended end_locally(const Results& results, const ComparisonEnd& end,
                  const ReportTargets& targets = {}, bool actions = false) {
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  Ended e;
  e.exit_code = end_comparison(results, targets, end, Progress(actions));
  e.out = ::testing::internal::GetCapturedStdout();
  e.err = ::testing::internal::GetCapturedStderr();
  return e;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(AppReportOutput, KnownEffectsSessionAsksNotToMerge) {
  // The premise of the exit-code tests below.
  ComparisonEnd end;
  Analysis seen;
  end.post = [&seen](const Report& report) {
    seen = report.analysis;
    return PostOutcome{};
  };
  EXPECT_EQ(end_locally(known_effects_session(), end).exit_code, kExitOk);
  EXPECT_EQ(seen.recommendation.kind, RecommendationKind::DoNotMerge);
}

// One verdict: a regression beside an improvement fails --fail-on regression, and the words
// say "don't merge" (with the improvement), in the comment and the terminal alike, never a
// neutral "mixed".
TEST(AppReportOutput, TheWordsAndTheExitCodeGiveOneVerdict) {
  ComparisonEnd end;
  end.fail_on = FailOn::Regression;
  Analysis seen;
  end.post = [&seen](const Report& report) {
    seen = report.analysis;
    return PostOutcome{};
  };
  ReportTargets targets;
  targets.format = StdoutFormat::Markdown;
  const Ended e = end_locally(known_effects_session(), end, targets);
  EXPECT_EQ(e.exit_code, kExitRegression);
  ASSERT_TRUE(seen.recommendation.mixed);
  EXPECT_NE(e.out.find("**Don't merge as is: it has a regression (and also an improvement).**"),
            std::string::npos)
      << e.out;
  EXPECT_EQ(e.out.find("Mixed"), std::string::npos) << e.out;
  EXPECT_NE(e.err.find("recommendation: do-not-merge"), std::string::npos) << e.err;
  targets.format = StdoutFormat::Text;
  const Ended text = end_locally(known_effects_session(), end, targets);
  EXPECT_NE(text.out.find("do-not-merge (a regression, and also an improvement)"),
            std::string::npos)
      << text.out;
}

TEST(AppReportOutput, FailOnRegressionGivesItsOwnCode) {
  ComparisonEnd end;
  end.fail_on = FailOn::Regression;
  EXPECT_EQ(end_locally(known_effects_session(), end).exit_code, kExitRegression);
}

// A comparison that did not finish fails the job, whatever --fail-on would say of its part.
TEST(AppReportOutput, UnfinishedComparisonFailsBeforeFailOn) {
  Results results = known_effects_session();
  results.complete = false;
  ComparisonEnd end;
  end.fail_on = FailOn::Regression;
  EXPECT_EQ(end_locally(results, end).exit_code, kExitFailure);
}

// The order of the causes, for run, compare and publish alike: unfinished, then --fail-on, then a
// failure of the end.
TEST(AppReportOutput, ComparisonExitCodeOrdersItsCauses) {
  EXPECT_EQ(comparison_exit_code(false, false, kExitOk, kExitOk), kExitOk);
  EXPECT_EQ(comparison_exit_code(false, false, kExitOk, kExitFailure), kExitFailure);
  EXPECT_EQ(comparison_exit_code(false, false, kExitRegression, kExitFailure), kExitRegression);
  EXPECT_EQ(comparison_exit_code(false, false, kExitSuiteFailed, kExitFailure), kExitSuiteFailed);
  EXPECT_EQ(comparison_exit_code(true, false, kExitRegression, kExitOk), kExitFailure);
  EXPECT_EQ(comparison_exit_code(true, false, kExitOk, kExitFailure), kExitFailure);
  // Nothing measured fails whatever --fail-on says, after an unfinished session only.
  EXPECT_EQ(comparison_exit_code(false, true, kExitOk, kExitOk), kExitSuiteFailed);
  EXPECT_EQ(comparison_exit_code(false, true, kExitRegression, kExitFailure), kExitSuiteFailed);
  EXPECT_EQ(comparison_exit_code(true, true, kExitOk, kExitOk), kExitFailure);
}

// Both sides built nothing (a configure step that downloads, without a network): the comment
// says so, the results are written, and the job fails with one line naming the build and the
// fix, whatever --fail-on says.
Results both_builds_failed() {
  Results r = known_effects_session();
  r.series.clear();
  r.runs.clear();
  r.config.build = "cmake -S . -B build-benchpr && cmake --build build-benchpr";
  for (Side side : {Side::Base, Side::Head}) {
    BuildResult b;
    b.side = side;
    b.ok = false;
    b.failure = "exit code 1";
    b.failure_kind = FailureKind::ExitCode;
    b.log_tail = "CMake Error: could not download CPM.cmake";
    r.builds.push_back(b);
  }
  r.stop = {StopKind::BuildFailed, 0, {}};
  return r;
}

TEST(AppReportOutput, BothBuildsFailedIsAFailingExitNamingTheBuildAndTheFix) {
  TempDir dir;
  ReportTargets targets;
  targets.results_file = dir / "results.json";
  for (const FailOn fail_on : {FailOn::Never, FailOn::Regression, FailOn::Failed}) {
    ComparisonEnd end;
    end.fail_on = fail_on;
    const Ended e = end_locally(both_builds_failed(), end, targets);
    EXPECT_EQ(e.exit_code, kExitSuiteFailed) << kFailOns.name(fail_on);
    EXPECT_EQ(count_of(e.err, "nothing was measured"), 1u) << e.err;
    EXPECT_NE(e.err.find("both revisions failed to build (base: exit code 1, PR: exit code 1) "
                         "with `cmake -S . -B build-benchpr && cmake --build build-benchpr`"),
              std::string::npos)
        << e.err;
    EXPECT_NE(e.err.find("set `build:` in .benchpr.yml"), std::string::npos) << e.err;
    // The comment still says what happened; the results file is written.
    EXPECT_NE(e.out.find("The base revision failed to build"), std::string::npos) << e.out;
    EXPECT_NE(runner::read_text_file(targets.results_file).find("\"build failed\""),
              std::string::npos);
  }
}

// One side's build failing alone is a finding about that revision: the comment reports it and
// --fail-on decides, as before.
TEST(AppReportOutput, OneSideFailingToBuildIsLeftToFailOn) {
  Results r = both_builds_failed();
  r.builds[0].ok = true;
  r.builds[0].failure.clear();
  r.builds[0].failure_kind = FailureKind::None;
  EXPECT_FALSE(nothing_measured(r));
  EXPECT_EQ(end_locally(r, ComparisonEnd{}).exit_code, kExitOk);
  ComparisonEnd strict;
  strict.fail_on = FailOn::Failed;
  EXPECT_EQ(end_locally(r, strict).exit_code, kExitSuiteFailed);
}

// Both sides built, and no run gave a value: the suites do not run here.
TEST(AppReportOutput, NoBenchmarkMeasuredOnEitherSideIsAFailingExit) {
  Results r = known_effects_session();
  for (BenchmarkSeries& s : r.series) {
    s.base.assign(s.base.size(), kMissing);
    s.head.assign(s.head.size(), kMissing);
    s.base_failure = s.head_failure = "exit code 127";
  }
  for (Side side : {Side::Base, Side::Head}) {
    RunRecord run;
    run.suite = "core";
    run.side = side;
    run.ok = false;
    run.failure = "exit code 127";
    r.runs.push_back(run);
  }
  const std::optional<std::string> why = nothing_measured(r);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("no benchmark gave a value on either side (all 2 suite runs failed)"),
            std::string::npos)
      << *why;
  const Ended e = end_locally(r, ComparisonEnd{});
  EXPECT_EQ(e.exit_code, kExitSuiteFailed);
  EXPECT_NE(e.err.find("`run:` command"), std::string::npos) << e.err;
  // A value on one side is a measurement: the comment reads it, --fail-on decides.
  r.series.front().base[1] = 100;
  EXPECT_FALSE(nothing_measured(r));
}

// A shard the partition gave nothing measures nothing by design.
TEST(AppReportOutput, AShardWithoutWorkIsNotAFailure) {
  Results r = known_effects_session();
  r.series.clear();
  r.shard = ShardInfo{};
  r.shard->index = 2;
  r.shard->count = 2;
  r.shard->partition.push_back({"core", "BM_A", 1});
  EXPECT_FALSE(nothing_measured(r));
  r.shard->partition.push_back({"core", "BM_B", 2});
  EXPECT_TRUE(nothing_measured(r));
}

// A posting the API refused.
PostOutcome failed_posting(const Report&) {
  PostOutcome posted;
  posted.state = PostOutcome::State::Failed;
  posted.error = "HTTP 502 from the API";
  return posted;
}

// A failed posting beside --fail-on's regression: the job fails with 3 (what CI gates on),
// naming the posting on stderr all the same.
TEST(AppReportOutput, FailOnComesBeforeAFailedPosting) {
  ComparisonEnd end;
  end.fail_on = FailOn::Regression;
  end.post = failed_posting;
  const Ended e = end_locally(known_effects_session(), end);
  EXPECT_EQ(e.exit_code, kExitRegression);
  EXPECT_NE(e.err.find("posting failed: HTTP 502 from the API"), std::string::npos) << e.err;
}

// `publish` of the same comparison decides as `run` does: a comment file it cannot write (a
// file where its directory must be) beside --fail-on's regression exits 3, naming the file.
// Before, publish put the write failure (1) first.
TEST(AppReportOutput, PublishOrdersTheCausesAsRunDoes) {
  TempDir dir;
  benchpr::testing::write_file(dir / "results.json", results_to_string(known_effects_session()));
  benchpr::testing::write_file(dir / "file", "");
  PublishOptions options;
  options.results_file = dir / "results.json";
  options.dry_run = true;
  options.fail_on = FailOn::Regression;
  options.markdown = dir / "file/comment.md";
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int code = publish_command(options);
  ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, kExitRegression) << err;
  EXPECT_NE(err.find("comment.md"), std::string::npos) << err;
}

TEST(AppReportOutput, FailedPostingFailsTheJobNamingWhy) {
  ComparisonEnd end;
  end.posting_after = " (the report was printed)";
  end.post = failed_posting;
  const Ended e = end_locally(known_effects_session(), end);
  EXPECT_EQ(e.exit_code, kExitFailure);
  EXPECT_NE(e.err.find("posting failed: HTTP 502 from the API (the report was printed)"),
            std::string::npos)
      << e.err;
}

// The same file failing during the rounds and at the end is one failure, named once.
TEST(AppReportOutput, AWriteErrorSeenTwiceIsNamedOnce) {
  TempDir dir;
  benchpr::testing::write_file(dir / "file", "");
  const std::string path = dir / "file/results.json";  // a file where a directory must be
  std::string message;
  try {
    runner::write_file_atomically(path, "{}");
  } catch (const runner::StoreError& e) {
    message = e.what();
  }
  ASSERT_FALSE(message.empty());
  ReportTargets targets;
  targets.results_file = path;
  ComparisonEnd end;
  end.earlier_write_error = message;
  end.write_after = " (the report was printed)";
  const Ended e = end_locally(known_effects_session(), end, targets);
  EXPECT_EQ(e.exit_code, kExitFailure);
  EXPECT_EQ(count_of(e.err, message), 1u) << e.err;
  EXPECT_NE(e.err.find(" (the report was printed)"), std::string::npos) << e.err;
}

// The report is made from the results as the file stores them, so the file the command wrote
// gives the same comment again (what `benchpr publish` does with it).
TEST(AppReportOutput, TheWrittenResultsFileGivesTheSameComment) {
  TempDir dir;
  ReportTargets targets;
  targets.results_file = dir / "results.json";
  Results results = known_effects_session();
  // Values with more digits than the file keeps.
  for (BenchmarkSeries& s : results.series)
    for (double& v : s.head)
      if (!is_missing(v)) v *= 1.0000000000123;
  ComparisonEnd end;
  Report posted;
  end.post = [&posted](const Report& report) {
    posted = report;
    return PostOutcome{};
  };
  end_locally(results, end, targets);
  ASSERT_FALSE(posted.markdown.empty());
  ReportTargets again;
  again.print_markdown = false;
  const Report reread =
      make_report(results_from_string(runner::read_text_file(targets.results_file)), again);
  EXPECT_EQ(reread.markdown, posted.markdown);
  // To the last bit: a value at a rounding boundary of the comment would read alike too.
  ASSERT_EQ(reread.analysis.benchmarks.size(), posted.analysis.benchmarks.size());
  for (std::size_t i = 0; i < posted.analysis.benchmarks.size(); ++i) {
    const BenchmarkAnalysis& a = reread.analysis.benchmarks[i];
    const BenchmarkAnalysis& b = posted.analysis.benchmarks[i];
    EXPECT_TRUE(a.change == b.change || (std::isnan(a.change) && std::isnan(b.change)))
        << b.name << ": " << a.change << " vs " << b.change;
  }
}

// Results the file's reader would refuse (a limit meant for untrusted files) are reported from
// memory, and the refusal is kept with its reason for the warning line, not swallowed.
TEST(AppReportOutput, ResultsTheReaderRefusesKeepTheReason) {
  Results results = known_effects_session();
  const StoredResults fine = as_stored(results);
  EXPECT_FALSE(fine.refused.has_value()) << *fine.refused;
  results.executables.assign(
      20001, ExecutableDigest{"micro", Side::Base, "bench_bin", std::string(64, 'a')});
  const StoredResults refused = as_stored(results);
  ASSERT_TRUE(refused.refused.has_value());
  EXPECT_NE(refused.refused->find("executables"), std::string::npos) << *refused.refused;
  EXPECT_EQ(refused.results.executables.size(), 20001u);
}

TEST(AppReportOutput, RecommendationLineAndNoAnnotationsOutsideActions) {
  ComparisonEnd end;
  end.annotate_regressions = true;
  const Ended e = end_locally(known_effects_session(), end);
  EXPECT_NE(e.err.find("recommendation: do-not-merge"), std::string::npos) << e.err;
  EXPECT_EQ(e.out.find("::warning"), std::string::npos);
}

TEST(AppReportOutput, RegressionsAnnotatedInActionsOnlyWhenAsked) {
  ComparisonEnd end;
  end.annotate_regressions = true;
  const Ended asked = end_locally(known_effects_session(), end, {}, true);
  EXPECT_NE(asked.out.find("::warning title=benchpr regression::BM_Tls/4096"), std::string::npos)
      << asked.out;
  end.annotate_regressions = false;
  const Ended not_asked = end_locally(known_effects_session(), end, {}, true);
  EXPECT_EQ(not_asked.out.find("::warning title=benchpr regression"), std::string::npos);
}

}  // namespace
}  // namespace benchpr::app
