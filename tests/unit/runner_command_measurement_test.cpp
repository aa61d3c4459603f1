// measure_command: K runs of the suite's command, the median of the selected metric, and the
// first failing run as the suite's failure.
#include <deque>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/exec/process.hpp"
#include "benchpr/runner/command_measurement.hpp"

namespace benchpr::runner {
namespace {

// Returns canned results in order and records what it was asked to run.
class CannedProcesses : public exec::ProcessRunner {
 public:
  explicit CannedProcesses(std::deque<exec::ProcessResult> results)
      : results_(std::move(results)) {}
  exec::ProcessResult run(const exec::ProcessSpec& spec) override {
    specs.push_back(spec);
    exec::ProcessResult r = results_.front();
    results_.pop_front();
    return r;
  }
  std::vector<exec::ProcessSpec> specs;

 private:
  std::deque<exec::ProcessResult> results_;
};

exec::ProcessResult ok(double wall, double user, double sys, long rss) {
  exec::ProcessResult r;
  r.exit_code = 0;
  r.wall_seconds = wall;
  r.user_seconds = user;
  r.system_seconds = sys;
  r.max_rss_kib = rss;
  r.output_tail = "done\n";
  return r;
}

SuiteConfig suite(std::string metric = "") {
  SuiteConfig s;
  s.name = "iperf";
  s.run = "./client --seconds 1";
  s.format = FormatKind::Command;
  s.metric = std::move(metric);
  return s;
}

exec::ProcessSpec spec() {
  exec::ProcessSpec s;
  s.command = "./client --seconds 1";
  s.cwd = "/srv/project";
  s.timeout_seconds = 300;
  s.tail_bytes = 64u << 20;
  return s;
}

std::deque<exec::ProcessResult> three_runs() {
  return {ok(0.30, 0.20, 0.05, 5000), ok(0.10, 0.04, 0.02, 7000), ok(0.20, 0.10, 0.01, 6000)};
}

TEST(MeasureCommand, WallTimeIsTheDefaultAndTheMedianOfTheRuns) {
  CannedProcesses processes(three_runs());
  CommandRunInfo info;
  const ParsedRun run = measure_command(processes, spec(), 3, suite(), &info);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_TRUE(run.failures.empty());
  const Measurement& m = run.measurements[0];
  EXPECT_EQ(m.name, "iperf");
  EXPECT_EQ(m.unit, "ns");
  EXPECT_EQ(m.better, Better::Lower);
  EXPECT_DOUBLE_EQ(m.value, 0.20e9);  // median of 0.30, 0.10, 0.20 s
  EXPECT_EQ(info.runs, 3);
  EXPECT_DOUBLE_EQ(info.seconds, 0.60);
  EXPECT_EQ(info.failure, "");
  // Every run is the same command in the same place; the output is not kept in full.
  ASSERT_EQ(processes.specs.size(), 3u);
  for (const auto& s : processes.specs) {
    EXPECT_EQ(s.command, "./client --seconds 1");
    EXPECT_EQ(s.cwd, "/srv/project");
    EXPECT_DOUBLE_EQ(s.timeout_seconds, 300);
    EXPECT_LE(s.tail_bytes, 8u * 1024);
  }
}

TEST(MeasureCommand, CpuTimeIsUserPlusSystem) {
  CannedProcesses processes(three_runs());
  const ParsedRun run = measure_command(processes, spec(), 3, suite("cpu_time"));
  ASSERT_EQ(run.measurements.size(), 1u);
  // user + sys per run: 0.25, 0.06, 0.11 s -> median 0.11 s
  EXPECT_NEAR(run.measurements[0].value, 0.11e9, 1);
  EXPECT_EQ(run.measurements[0].unit, "ns");
}

TEST(MeasureCommand, MaxRssInKibibytes) {
  CannedProcesses processes(three_runs());
  const ParsedRun run = measure_command(processes, spec(), 3, suite("max_rss"));
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_DOUBLE_EQ(run.measurements[0].value, 6000);
  EXPECT_EQ(run.measurements[0].unit, "KiB");
  EXPECT_EQ(run.measurements[0].better, Better::Lower);
}

TEST(MeasureCommand, EvenRepetitionsAverageTheMiddleTwo) {
  CannedProcesses processes(
      {ok(0.4, 0, 0, 1), ok(0.1, 0, 0, 1), ok(0.3, 0, 0, 1), ok(0.2, 0, 0, 1)});
  const ParsedRun run = measure_command(processes, spec(), 4, suite());
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_DOUBLE_EQ(run.measurements[0].value, 0.25e9);
}

TEST(MeasureCommand, SuiteBetterOverridesTheDirection) {
  CannedProcesses processes(three_runs());
  SuiteConfig s = suite();
  s.better = Better::Higher;
  EXPECT_EQ(measure_command(processes, spec(), 3, s).measurements.at(0).better, Better::Higher);
}

TEST(MeasureCommand, ZeroRepetitionsStillRunOnce) {
  CannedProcesses processes(three_runs());
  const ParsedRun run = measure_command(processes, spec(), 0, suite());
  EXPECT_EQ(processes.specs.size(), 1u);
  EXPECT_DOUBLE_EQ(run.measurements.at(0).value, 0.30e9);
}

TEST(MeasureCommand, FirstFailingRunStopsAndNamesTheReason) {
  exec::ProcessResult crashed = ok(0.05, 0.01, 0, 100);
  crashed.exit_code = -1;
  crashed.signal = 11;
  crashed.output_tail = "Segmentation fault\n";
  CannedProcesses processes({ok(0.1, 0, 0, 1), crashed, ok(0.1, 0, 0, 1)});
  CommandRunInfo info;
  const ParsedRun run = measure_command(processes, spec(), 3, suite(), &info);
  EXPECT_TRUE(run.measurements.empty());
  ASSERT_EQ(run.failures.size(), 1u);
  EXPECT_EQ(run.failures[0].name, "iperf");
  EXPECT_EQ(run.failures[0].reason, "run 2 of 3: killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(processes.specs.size(), 2u);  // the third run never started
  EXPECT_EQ(info.runs, 2);
  EXPECT_EQ(info.failure, run.failures[0].reason);
  EXPECT_EQ(info.failure_kind, FailureKind::Signal);
  EXPECT_EQ(run.failures[0].kind, FailureKind::Signal);
  EXPECT_EQ(info.output_tail, "Segmentation fault\n");
}

TEST(MeasureCommand, ExitCodeAndTimeoutAreFailures) {
  exec::ProcessResult exit3 = ok(0.1, 0, 0, 1);
  exit3.exit_code = 3;
  CannedProcesses a({exit3});
  EXPECT_EQ(measure_command(a, spec(), 1, suite()).failures.at(0).reason, "exit code 3");

  exec::ProcessResult slow = ok(300, 0, 0, 1);
  slow.timed_out = true;
  slow.signal = 9;
  CannedProcesses b({slow});
  CommandRunInfo info;
  const ParsedRun timed_out = measure_command(b, spec(), 1, suite(), &info);
  EXPECT_EQ(timed_out.failures.at(0).reason, "timed out after 5m");
  // The session gives up on the suite on this kind, whatever the message says.
  EXPECT_EQ(info.failure_kind, FailureKind::Timeout);
  EXPECT_EQ(timed_out.failures.at(0).kind, FailureKind::Timeout);
}

TEST(MeasureCommand, UnknownMetricRunsNothing) {
  CannedProcesses processes(three_runs());
  const ParsedRun run = measure_command(processes, spec(), 3, suite("real_time"));
  EXPECT_TRUE(processes.specs.empty());
  ASSERT_EQ(run.failures.size(), 1u);
  EXPECT_EQ(run.failures[0].reason,
            "unknown metric 'real_time' (a command suite measures wall_time, cpu_time, max_rss)");
  EXPECT_EQ(run.failures[0].kind, FailureKind::Setup);
}

TEST(MeasureCommand, ZeroValueIsAFailureNotADivisionByZeroLater) {
  CannedProcesses processes({ok(0.1, 0, 0, 1), ok(0.1, 0, 0, 1), ok(0.1, 0, 0, 1)});
  const ParsedRun run = measure_command(processes, spec(), 3, suite("cpu_time"));
  EXPECT_TRUE(run.measurements.empty());
  ASSERT_EQ(run.failures.size(), 1u);
  EXPECT_EQ(run.failures[0].reason, "cpu_time is 0");
  EXPECT_EQ(run.failures[0].kind, FailureKind::ValueOutOfRange);
}

// The real process runner: the numbers come from wait4/rusage of a real child.
TEST(MeasureCommand, RealProcessHasPositiveTimesAndMemory) {
  exec::PosixProcessRunner processes;
  exec::ProcessSpec s;
  s.command = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done";
  s.cwd = "/";
  s.timeout_seconds = 60;
  for (const char* metric : {"wall_time", "cpu_time", "max_rss"}) {
    const ParsedRun run = measure_command(processes, s, 2, suite(metric));
    ASSERT_EQ(run.measurements.size(), 1u) << metric << ": " << run.failures.at(0).reason;
    EXPECT_GT(run.measurements[0].value, 0) << metric;
  }
  s.command = "exit 7";
  EXPECT_EQ(measure_command(processes, s, 3, suite()).failures.at(0).reason,
            "run 1 of 3: exit code 7");
}

}  // namespace
}  // namespace benchpr::runner
