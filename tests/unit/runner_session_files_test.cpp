// The session's files through the FileSystem seam (tests/support/fake_file_system.hpp): what a
// session does when its results cannot be written, when a suite leaves no results file or one
// it cannot read, and that a stale file of an earlier run is never read as this run's.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchpr/core/plan/schedule.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/runner/session.hpp"
#include "support/fake_clock.hpp"
#include "support/fake_file_system.hpp"
#include "support/session_results.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

using testing::FakeClock;
using testing::FakeFileSystem;
using testing::TempDir;

// A Google Benchmark program that writes its results file (BENCHMARK_OUT) into the fake file
// system: BM_A at 100 ns on both sides, unless told to write nothing or something unreadable.
class FakeBenchmark : public exec::ProcessRunner {
 public:
  explicit FakeBenchmark(FakeFileSystem& files) : files_(files) {}
  bool write_results = true;
  std::string content;  // written instead of the results when not empty
  int runs = 0;         // benchmark runs (not builds)

  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    exec::ProcessResult r;
    r.exit_code = 0;
    r.wall_seconds = 0.01;
    if (spec.command == "make") return r;
    ++runs;
    std::string out;
    for (const auto& [name, value] : spec.set_env)
      if (name == "BENCHMARK_OUT") out = value;
    if (out.empty() || !write_results) return r;
    if (!content.empty()) {
      files_.files[out] = content;
      return r;
    }
    nlohmann::json doc = {{"context", {{"date", "x"}}}, {"benchmarks", nlohmann::json::array()}};
    doc["benchmarks"].push_back({{"name", "BM_A"},
                                 {"run_name", "BM_A"},
                                 {"run_type", "iteration"},
                                 {"iterations", 1000},
                                 {"real_time", 100},
                                 {"cpu_time", 100},
                                 {"time_unit", "ns"}});
    files_.files[out] = doc.dump();
    return r;
  }

 private:
  FakeFileSystem& files_;
};

struct Fixture {
  TempDir dir;  // the worktrees (real: the executables' copies are not behind the seam)
  FakeFileSystem files;
  FakeBenchmark bench{files};
  FakeClock clock;
  Results results = testing::one_suite_session(2);
  SessionSetup setup;
  std::vector<std::string> progress;

  Fixture() {
    setup.base_dir = dir / "wt/base";
    setup.head_dir = dir / "wt/head";
    setup.out_dir = "/fake/out";
    setup.log_dir = "/fake/logs";
    setup.copy_dir = dir / "exe";
    setup.persist_paths = {"/fake/results/results.json"};
  }
  std::optional<std::string> run() {
    Session session(
        bench, setup, [this](const std::string& l) { progress.push_back(l); }, clock, files);
    session.run(results);
    return session.write_error();
  }
  bool said(const std::string& part) const {
    return std::any_of(progress.begin(), progress.end(),
                       [&](const std::string& l) { return l.find(part) != std::string::npos; });
  }
};

TEST(SessionFiles, MeasuresAndWritesTheResultsFileThroughTheFileSystem) {
  Fixture f;
  EXPECT_EQ(f.run(), std::nullopt);
  EXPECT_TRUE(f.results.complete);
  ASSERT_EQ(f.results.series.size(), 1u);
  EXPECT_EQ(f.results.series[0].base.size(), 3u);
  ASSERT_TRUE(f.files.files.count("/fake/results/results.json"));
  const Results written = results_from_string(f.files.files["/fake/results/results.json"]);
  EXPECT_EQ(written.rounds_done, 3);
  EXPECT_TRUE(written.complete);
  // The logs of the builds and of every run were cleared before it ran.
  EXPECT_TRUE(
      std::count(f.files.removed.begin(), f.files.removed.end(), "/fake/logs/build-base.log"));
  EXPECT_TRUE(
      std::count(f.files.removed.begin(), f.files.removed.end(), "/fake/logs/r0-micro-base.log"));
}

// A results directory that cannot be written does not end the session: every round is measured,
// the failed write is reported as it happens and kept for the caller, which reports it at the end.
TEST(SessionFiles, AResultsDirectoryThatCannotBeWrittenEndsNothing) {
  Fixture f;
  f.files.unwritable_dirs = {"/fake/results"};
  f.files.write_refusal = "Read-only file system";
  const std::optional<std::string> error = f.run();
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(*error, "cannot write /fake/results/results.json: Read-only file system");
  EXPECT_TRUE(f.said("warning: cannot write /fake/results/results.json: Read-only file system"));
  EXPECT_TRUE(f.results.complete);
  EXPECT_EQ(f.results.rounds_done, 3);
  EXPECT_EQ(f.bench.runs, 6);  // 3 rounds x 2 sides
  EXPECT_EQ(f.files.files.count("/fake/results/results.json"), 0u);
}

// Every results file must be written: one that fails is reported even when another succeeds.
TEST(SessionFiles, OneResultsFileThatCannotBeWrittenIsReported) {
  Fixture f;
  f.files.unwritable_dirs = {"/fake/results"};
  f.setup.persist_paths = {"/fake/results/results.json", "/fake/ok/results.json"};
  EXPECT_EQ(f.run(), "cannot write /fake/results/results.json: Permission denied");
  EXPECT_TRUE(f.files.files.count("/fake/ok/results.json"));
}

// Only the latest state of the files matters: a disk that refused the first write and took the
// later ones leaves no error behind, though the refusal was reported when it happened.
TEST(SessionFiles, AWriteThatRecoversLeavesNoError) {
  Fixture f;
  f.files.unwritable_dirs = {"/fake/results"};
  f.files.refusals_left = 1;
  EXPECT_EQ(f.run(), std::nullopt);
  EXPECT_TRUE(f.said("warning: cannot write /fake/results/results.json"));
  EXPECT_TRUE(f.files.files.count("/fake/results/results.json"));
}

// A suite that exits 0 without writing its results file failed: the reason names the file it was
// expected in, the benchmark-less suite gets a row of its own, and it is not run again.
TEST(SessionFiles, ASuiteWhoseResultsFileIsMissingFailsNamingTheFile) {
  Fixture f;
  f.bench.write_results = false;
  f.run();
  ASSERT_FALSE(f.results.runs.empty());
  const RunRecord& first = f.results.runs[0];
  EXPECT_FALSE(first.ok);
  EXPECT_EQ(first.failure_kind, FailureKind::BadOutput);
  EXPECT_EQ(first.failure, "wrote no results file (expected /fake/out/r0-micro-" +
                               std::string(to_string(first.side)) + ".json)");
  EXPECT_EQ(f.bench.runs, 2);  // the warm-up round on each side, then given up
  ASSERT_EQ(f.results.series.size(), 1u);
  EXPECT_EQ(f.results.series[0].name, "(suite micro)");
  EXPECT_EQ(f.results.series[0].base_failure_kind, FailureKind::BadOutput);
  EXPECT_TRUE(f.said("micro is not run again on the base"));
}

// A file of an earlier run at the same path is removed before the run: a suite that then writes
// nothing fails, instead of reporting the earlier run's values as this one's.
TEST(SessionFiles, AStaleResultsFileIsRemovedBeforeTheRun) {
  Fixture f;
  f.bench.write_results = false;
  f.files.files["/fake/out/r0-micro-base.json"] =
      R"({"benchmarks":[{"name":"BM_Old","run_type":"iteration","iterations":1,)"
      R"("real_time":5,"cpu_time":5,"time_unit":"ns"}]})";
  f.run();
  for (const BenchmarkSeries& s : f.results.series) EXPECT_NE(s.name, "BM_Old");
  EXPECT_FALSE(f.results.runs[0].ok);
  EXPECT_EQ(f.results.runs[0].failure_kind, FailureKind::BadOutput) << f.results.runs[0].failure;
}

// A results file that cannot be read (a pipe or a link the run left there, a file too large: the
// file system says why) fails the run with that reason; the other side is still compared.
TEST(SessionFiles, AnUnreadableResultsFileFailsTheRunWithTheReason) {
  Fixture f;
  f.files.read_refusals["/fake/out/r1-micro-head.json"] = "a named pipe, not a regular file";
  f.run();
  const auto run =
      std::find_if(f.results.runs.begin(), f.results.runs.end(),
                   [](const RunRecord& r) { return r.round == 1 && r.side == Side::Head; });
  ASSERT_NE(run, f.results.runs.end());
  EXPECT_FALSE(run->ok);
  EXPECT_EQ(run->failure_kind, FailureKind::BadOutput);
  EXPECT_EQ(run->failure,
            "cannot read /fake/out/r1-micro-head.json: a named pipe, not a regular file");
  ASSERT_EQ(f.results.series.size(), 1u);
  EXPECT_TRUE(is_missing(f.results.series[0].head[1]));
  EXPECT_FALSE(is_missing(f.results.series[0].base[1]));
  EXPECT_FALSE(is_missing(f.results.series[0].head[2]));
}

}  // namespace
}  // namespace benchpr::runner
