// A cancelled CI job: SIGTERM (or SIGINT, or SIGHUP) reaches benchpr in the middle of a round. It
// must kill its children, keep every finished round in the results file, end promptly with exit
// code 1, and `benchpr publish` must report the partial results.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <regex>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

// Rounds whose runs take a while (each iteration sleeps), so a signal lands inside a run.
void commit_slow_project(TempRepo& repo, int rounds) {
  GbenchConfig cfg = small_config();
  cfg.rounds = rounds;
  const std::vector<GbenchCase> slow = {
      {"BM_Sleep", "std::this_thread::sleep_for(std::chrono::milliseconds(30));", ""},
      {"BM_Spin", spin(2000), ""}};
  commit_base_and_pr(repo, slow, slow, cfg);
}

// Waits until the results file shows at least one finished round.
bool wait_for_rounds(BenchprChild& child, const std::string& results, double seconds) {
  const double deadline = now_seconds() + seconds;
  while (now_seconds() < deadline && !child.wait_for(0)) {
    try {
      const json doc = json::parse(slurp(results));
      if (doc.value("rounds_done", 0) >= 1) return true;
    } catch (const json::exception&) {
      // Not written yet (the rename makes a half-written file impossible).
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

void interrupt_mid_run(int sig, const std::string& reason) {
  TempRepo repo;
  commit_slow_project(repo, 20);
  TempDir out;
  BenchprChild child(run_args(repo, out));
  // Hang guards only (120 s here and below): each wait also ends as soon as benchpr exits, and
  // how promptly it stopped is judged against its own rounds further down.
  ASSERT_TRUE(wait_for_rounds(child, out / "results.json", 120)) << "no round finished:\n"
                                                                 << child.err_so_far();
  // Wait for the next round's run to start, so the signal arrives while a benchmark is running
  // (polled, not a fixed delay: on a loaded machine the next run may start late).
  const double deadline = now_seconds() + 120;
  while (processes_under(repo.path()).empty() && now_seconds() < deadline && !child.wait_for(0))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_FALSE(processes_under(repo.path()).empty()) << "no benchmark running at the signal";
  const double sent = now_seconds();
  child.signal(sig);
  ASSERT_TRUE(child.wait_for(120)) << "benchpr did not stop after the signal";
  const double stop_seconds = now_seconds() - sent;
  const Ending& e = child.ending();

  ASSERT_TRUE(e.exited) << "benchpr itself died of the signal: " << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 1) << e.err;
  const auto left = survivors_under(repo.path());
  EXPECT_TRUE(left.empty()) << "processes left behind:\n" << join(left);

  // The results file is valid, partial, and keeps every finished round (the interrupted one is
  // dropped: its values would be unpaired).
  const json doc = read_json(out / "results.json");
  EXPECT_FALSE(doc["complete"].get<bool>());
  // The reason names the signal, the round and the run it cut short.
  const std::string stop_reason = doc["stop_reason"];
  EXPECT_TRUE(std::regex_match(stop_reason,
                               std::regex(reason + " in (warm-up )?round [0-9]+, [0-9a-z.]+ into "
                                                   "the (base|PR)'s run of [A-Za-z0-9_-]+")))
      << stop_reason;
  const int done = doc["rounds_done"].get<int>();
  EXPECT_GE(done, 1);
  EXPECT_LT(done, 20);
  for (const json& s : doc["series"]) {
    EXPECT_EQ(s["base"].size(), static_cast<std::size_t>(done)) << s.dump();
    EXPECT_EQ(s["head"].size(), static_cast<std::size_t>(done)) << s.dump();
    for (const char* side : {"base", "head"})
      for (const json& v : s[side]) EXPECT_TRUE(v.is_number()) << s.dump();
  }
  EXPECT_EQ(doc["runs"].size(), static_cast<std::size_t>(2 * done));
  for (const json& run : doc["runs"]) EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
  // Promptly: in less time than the rounds that were left would have taken at the pace of the
  // shortest finished one (a time of this run on this machine, so load slows both alike).
  std::map<int, double> round_seconds;
  for (const json& run : doc["runs"])
    round_seconds[run["round"].get<int>()] += run["seconds"].get<double>();
  ASSERT_FALSE(round_seconds.empty());
  double shortest = round_seconds.begin()->second;
  for (const auto& [round, seconds] : round_seconds) shortest = std::min(shortest, seconds);
  const double rounds_left_seconds = (20 - done) * shortest;
  std::cerr << "stopped " << stop_seconds << " s after the signal; the " << 20 - done
            << " rounds left would have taken about " << rounds_left_seconds << " s\n";
  EXPECT_LT(stop_seconds, rounds_left_seconds);

  // publish reports what was measured, marked partial with the number of rounds done.
  const Ending p = run_benchpr_to_end({"publish", out / "results.json", "--dry-run"});
  ASSERT_TRUE(p.exited) << p.describe();
  EXPECT_EQ(p.exit_code, 0) << p.err;
  const std::string expected =
      fmt::format("⚠️ Partial results: {} of 20 rounds ran ({}).", done, stop_reason);
  EXPECT_NE(p.out.find(expected), std::string::npos) << contains_msg(p.out, expected);
  EXPECT_NE(p.out.find("`BM_Sleep`"), std::string::npos) << p.out;
  EXPECT_TRUE(markdown_problems(p.out).empty()) << join(markdown_problems(p.out));
  // The run's own comment said the same.
  EXPECT_NE(e.out.find(expected), std::string::npos) << contains_msg(e.out, expected);
}

TEST(FaultsInterrupt, SigtermMidRunKeepsFinishedRoundsAndPublishReportsThemAsPartial) {
  interrupt_mid_run(SIGTERM, "interrupted by SIGTERM");
}

TEST(FaultsInterrupt, SigintMidRunBehavesTheSame) {
  interrupt_mid_run(SIGINT, "interrupted by SIGINT");
}

// A closed terminal or SSH session sends SIGHUP: before, it killed benchpr outright, leaving the
// benchmark running and no results file.
TEST(FaultsInterrupt, SighupMidRunBehavesTheSame) {
  interrupt_mid_run(SIGHUP, "interrupted by SIGHUP");
}

}  // namespace
}  // namespace benchpr::testing::faults
