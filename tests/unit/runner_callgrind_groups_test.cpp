// Several benchmarks counted in one Callgrind process: which benchmarks share a process, how a
// process's dumps are told apart benchmark by benchmark (hand-made sequences and a captured
// report dump of Callgrind 3.19 on Google Benchmark 1.7.1), and handing a process's files to
// its benchmarks only when everything agrees.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/runner/callgrind.hpp"
#include "benchpr/runner/callgrind_groups.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

namespace fs = std::filesystem;
using Trigger = CallgrindDump::Trigger;
using Indices = std::vector<std::size_t>;

CallgrindDump pause() { return {Trigger::Pause, 20, {}}; }
CallgrindDump finish() { return {Trigger::Finish, 600, {}}; }
CallgrindDump report() { return {Trigger::Report, 16000, {}}; }

TEST(CallgrindReportDump, AReporterDumpMarksABenchmarksEnd) {
  const auto d = parse_callgrind_dump(
      testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/callgrind/report_dump.txt"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->trigger, Trigger::Report);
  EXPECT_EQ(d->instructions, 16929);
}

TEST(DumpsByBenchmark, EachBenchmarksTimerDumpsEndAtItsReports) {
  // Benchmark 1: three repetitions (Finish, then PauseTiming's prologue), then the console's and
  // the JSON's reports of the runs and of the aggregates; benchmark 2: one repetition; then a
  // dump of a third benchmark the process did not live to report.
  const std::vector<CallgrindDump> dumps = {finish(), pause(),  finish(), pause(),  finish(),
                                            pause(),  report(), report(), report(), report(),
                                            finish(), pause(),  report(), report(), finish()};
  const auto by = dumps_by_benchmark(dumps);
  ASSERT_EQ(by.size(), 2u);
  EXPECT_EQ(by[0], (Indices{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(by[1], (Indices{10, 11}));
}

TEST(DumpsByBenchmark, ABenchmarkWithoutALoopHasNoDumpsAndNothingReportedHasNoEntry) {
  EXPECT_EQ(dumps_by_benchmark({report(), finish(), report()}), (std::vector<Indices>{{}, {1}}));
  EXPECT_TRUE(dumps_by_benchmark({finish(), pause()}).empty());
  EXPECT_TRUE(dumps_by_benchmark({}).empty());
}

TEST(CallgrindGroups, AtMostOneGroupPerProcessEveryBenchmarkOnceInTheSuitesOrder) {
  const std::vector<std::string> names = {"BM_A", "BM_B/1", "BM_B/2", "BM_C", "BM_D", "BM_E"};
  const auto groups = callgrind_groups(names, 2);
  ASSERT_GE(groups.size(), 1u);
  ASSERT_LE(groups.size(), 2u);
  std::set<std::size_t> seen;
  for (const Indices& g : groups) {
    EXPECT_FALSE(g.empty());
    EXPECT_TRUE(std::is_sorted(g.begin(), g.end()));
    for (std::size_t i : g) EXPECT_TRUE(seen.insert(i).second) << i;
  }
  EXPECT_EQ(seen.size(), names.size());
  EXPECT_EQ(callgrind_groups(names, 1), (std::vector<Indices>{{0, 1, 2, 3, 4, 5}}));
  EXPECT_EQ(callgrind_groups({"BM_A"}, 8), (std::vector<Indices>{{0}}));
  EXPECT_TRUE(callgrind_groups({}, 2).empty());
}

TEST(CallgrindGroups, ABenchmarkAddedByThePrLeavesTheOthersCompanyAlone) {
  const std::vector<std::string> base = {"BM_A", "BM_B", "BM_C", "BM_D", "BM_E", "BM_F"};
  std::vector<std::string> head = base;
  head.insert(head.begin() + 2, "BM_New");
  const auto group_of = [](const std::vector<std::string>& names, const std::string& name) {
    const auto groups = callgrind_groups(names, 3);
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (std::size_t i : groups[g])
        if (names[i] == name) return g;
    return groups.size();
  };
  for (const std::string& name : base)
    EXPECT_EQ(group_of(base, name), group_of(head, name)) << name;
}

TEST(ReportedBenchmarks, OneNamePerBenchmarkAggregatesAndErrorsIncluded) {
  const std::string json = R"({"benchmarks": [
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration"},
    {"name": "BM_A", "run_name": "BM_A", "run_type": "iteration"},
    {"name": "BM_A_mean", "run_name": "BM_A", "run_type": "aggregate"},
    {"name": "BM_B/8", "run_name": "BM_B/8", "run_type": "iteration"},
    {"name": "BM_E", "run_name": "BM_E", "error_occurred": true},
    {"name": "BM_Old"}]})";
  EXPECT_EQ(reported_benchmarks(json),
            (std::vector<std::string>{"BM_A", "BM_B/8", "BM_E", "BM_Old"}));
  EXPECT_TRUE(reported_benchmarks("not json").empty());
  EXPECT_TRUE(reported_benchmarks(R"({"context": {}})").empty());
}

// A group folder as a finished job leaves it: rc, log, and per process the JSON and dumps.
struct GroupFolder {
  testing::TempDir root;
  std::string dir = root / "group";

  void dump(const std::string& process, long part, const std::string& trigger, int total,
            long pid = 4242) {
    testing::write_file(
        fs::path(dir) / process / ("cg." + std::to_string(pid) + "." + std::to_string(part)),
        "desc: Trigger: --dump-before=" + trigger + "\nsummary: " + std::to_string(total) + "\n");
  }
  void process(const std::string& process, const std::string& json) {
    fs::create_directories(fs::path(dir) / process);
    testing::write_file(fs::path(dir) / process / "out.json", json);
    // Two benchmarks, one repetition each: its Finish dump and PauseTiming's prologue, reports.
    long part = 1;
    for (int total : {111, 222}) {
      dump(process, part++, "benchmark::State::FinishKeepRunning()", total);
      dump(process, part++, "benchmark::State::PauseTiming()", 20);
      dump(process, part++, "benchmark::ConsoleReporter::ReportRuns(std::vector<x> const&)", 9);
      dump(process, part++, "benchmark::JSONReporter::ReportRuns(std::vector<x> const&)", 9);
    }
    testing::write_file(fs::path(dir) / process / "cg.4242", "summary: 1\n");  // at exit
  }
  GroupFolder(const std::string& rc = "0 100.0 110.0\n") {
    fs::create_directories(dir);
    testing::write_file(fs::path(dir) / "rc", rc);
    testing::write_file(fs::path(dir) / "log", "==4242== Callgrind\n");
    const std::string json =
        R"({"benchmarks": [{"name": "BM_A", "run_name": "BM_A"}, {"name": "BM_B", "run_name": "BM_B"}]})";
    process("1", json);
    process("2", json);
  }
};

TEST(SplitGroupRun, EachBenchmarkGetsItsOwnDumpsTheJsonTheLogAndItsShareOfTheTime) {
  GroupFolder g;
  const std::string a = g.root / "a", b = g.root / "b";
  ASSERT_EQ(split_group_run(g.dir, {"BM_A", "BM_B"}, {a, b}), std::nullopt);
  for (const char* process : {"1", "2"}) {
    EXPECT_TRUE(fs::exists(fs::path(a) / process / "cg.4242.1"));
    EXPECT_TRUE(fs::exists(fs::path(a) / process / "cg.4242.2"));
    EXPECT_FALSE(fs::exists(fs::path(a) / process / "cg.4242.3"));  // a report: nobody's
    EXPECT_TRUE(fs::exists(fs::path(b) / process / "cg.4242.5"));
    EXPECT_TRUE(fs::exists(fs::path(b) / process / "cg.4242.6"));
    EXPECT_FALSE(fs::exists(fs::path(b) / process / "cg.4242.1"));
    EXPECT_TRUE(fs::exists(fs::path(a) / process / "out.json"));
    EXPECT_TRUE(fs::exists(fs::path(b) / process / "out.json"));
  }
  EXPECT_EQ(testing::read_file(fs::path(a) / "log"), "==4242== Callgrind\n");
  EXPECT_EQ(testing::read_file(fs::path(a) / "rc"), "0 100.000000 105.000000\n");
  EXPECT_EQ(testing::read_file(fs::path(b) / "rc"), "0 105.000000 110.000000\n");
}

TEST(SplitGroupRun, NothingMovesUnlessTheProcessFinishedAndEveryBenchmarkIsAccountedFor) {
  {
    GroupFolder g("132 100.0 101.0\n");
    const auto why = split_group_run(g.dir, {"BM_A", "BM_B"}, {g.root / "a", g.root / "b"});
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("killed by signal 4"), std::string::npos) << *why;
    EXPECT_FALSE(fs::exists(g.root / "a"));
  }
  {
    GroupFolder g;  // asked for three, the JSON reports two
    const auto why = split_group_run(g.dir, {"BM_A", "BM_B", "BM_C"},
                                     {g.root / "a", g.root / "b", g.root / "c"});
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("reports 2 benchmarks where 3 were asked for"), std::string::npos) << *why;
    EXPECT_TRUE(fs::exists(fs::path(g.dir) / "1" / "cg.4242.1"));
  }
  {
    GroupFolder g;  // a second report too many: the dumps cannot be told apart
    g.dump("2", 9, "benchmark::State::FinishKeepRunning()", 5);
    g.dump("2", 10, "benchmark::ConsoleReporter::ReportRuns(std::vector<x> const&)", 9);
    const auto why = split_group_run(g.dir, {"BM_A", "BM_B"}, {g.root / "a", g.root / "b"});
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("process 2: Callgrind saw 3 benchmark reports where 2"), std::string::npos)
        << *why;
    EXPECT_FALSE(fs::exists(g.root / "a"));
  }
  {
    GroupFolder g;  // another process's timer dumps in the same folder
    g.dump("1", 1, "benchmark::State::FinishKeepRunning()", 5, 4343);
    const auto why = split_group_run(g.dir, {"BM_A", "BM_B"}, {g.root / "a", g.root / "b"});
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("more than one process"), std::string::npos) << *why;
  }
}

}  // namespace
}  // namespace benchpr::runner
