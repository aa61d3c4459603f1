// `benchpr run --resume results.json`: an interrupted comparison (Ctrl-C, a CI job's timeout)
// continues with the same builds, seed and schedule, adding rounds to the same results file; a
// file of other revisions or another configuration is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

void commit_sleepy_project(TempRepo& repo) {
  GbenchConfig cfg = small_config();
  cfg.rounds = 8;
  const std::vector<GbenchCase> cases = {
      {"BM_Sleep", "std::this_thread::sleep_for(std::chrono::milliseconds(20));", ""},
      {"BM_Spin", spin(2000), ""}};
  commit_base_and_pr(repo, cases, cases, cfg);
}

// Waits until the results file shows at least `rounds` finished rounds.
bool wait_for_rounds(BenchprChild& child, const std::string& results, int rounds) {
  const double deadline = now_seconds() + 300;  // a hang guard only
  while (now_seconds() < deadline && !child.wait_for(0)) {
    try {
      if (json::parse(slurp(results)).value("rounds_done", 0) >= rounds) return true;
    } catch (const json::exception&) {
      // Not written yet.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

const json& series_named(const json& doc, const std::string& name) {
  for (const json& s : doc["series"])
    if (s["name"] == name) return s;
  throw std::runtime_error("no series " + name);
}

std::vector<std::string> plain_run(const TempRepo& repo, const std::string& results,
                                   const std::vector<std::string>& extra = {}) {
  std::vector<std::string> a = {"run",      "-C",      repo.path(), "--base", "main",
                                "--head",   "feature", "--dry-run", "--seed", "7",
                                "--rounds", "8",       "--output",  results};
  // Both sides build the same program here: the rounds are what a resume continues.
  a.push_back("--time-identical");
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

TEST(Resume, InterruptedAfterRoundThreeContinuesInTheSameFile) {
  TempRepo repo;
  commit_sleepy_project(repo);
  TempDir out;
  const std::string results = out / "results.json";
  json interrupted;
  {
    BenchprChild child(plain_run(repo, results));
    ASSERT_TRUE(wait_for_rounds(child, results, 3)) << child.err_so_far();
    child.signal(SIGINT);
    ASSERT_TRUE(child.wait_for(120)) << "benchpr did not stop after SIGINT";
    EXPECT_EQ(child.ending().exit_code, 1) << child.ending().err;
    interrupted = json::parse(slurp(results));
  }
  const int before = interrupted["rounds_done"];
  ASSERT_GE(before, 3);
  ASSERT_LT(before, 8) << "the comparison finished before the interrupt could land";
  ASSERT_FALSE(interrupted["complete"].get<bool>());

  // Only the file: the revisions, seed and plan are its own.
  BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(resumed.wait_for(300));
  const Ending& e = resumed.ending();
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(e.err.find("resuming"), std::string::npos) << e.err;
  EXPECT_EQ(e.err.find("building the"), std::string::npos) << "rebuilt on resume:\n" << e.err;

  const json doc = json::parse(slurp(results));
  EXPECT_TRUE(doc["complete"].get<bool>()) << doc["stop_reason"];
  EXPECT_EQ(doc["rounds_done"], 8);
  EXPECT_EQ(doc["seed"], interrupted["seed"]);
  EXPECT_EQ(doc["plan"], interrupted["plan"]);
  EXPECT_EQ(doc["builds"], interrupted["builds"]);
  // The rounds measured before the interrupt are kept as they were; the rest were added.
  for (const char* name : {"BM_Sleep", "BM_Spin"}) {
    const json& was = series_named(interrupted, name);
    const json& now = series_named(doc, name);
    ASSERT_EQ(now["base"].size(), 8u) << name;
    for (int i = 0; i < before; ++i) {
      EXPECT_EQ(now["base"][i], was["base"][i]) << name << " round " << i;
      EXPECT_EQ(now["head"][i], was["head"][i]) << name << " round " << i;
    }
  }
  std::set<int> rounds;
  for (const json& run : doc["runs"]) rounds.insert(run["round"].get<int>());
  EXPECT_EQ(rounds, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7}));

  // Complete now: a second resume has nothing to do and says so.
  BenchprChild again({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(again.wait_for(120));
  EXPECT_EQ(again.ending().exit_code, 2) << again.ending().err;
  EXPECT_NE(again.ending().err.find("is complete"), std::string::npos) << again.ending().err;
}

// The default (adaptive) plan: interrupted between looks, the resumed session reads the look it
// passed again (which names the benchmarks still open) and goes on to the next.
TEST(Resume, AnAdaptiveComparisonGoesOnFromTheLookItPassed) {
  TempRepo repo;
  GbenchConfig cfg = small_config();  // 2 rounds, no warm-up: a look every 2 rounds
  const std::vector<GbenchCase> cases = {
      {"BM_Sleep", "std::this_thread::sleep_for(std::chrono::milliseconds(20));", ""},
      {"BM_Spin", spin(2000), ""}};
  commit_base_and_pr(repo, cases, cases, cfg);
  TempDir out;
  const std::string results = out / "results.json";
  json interrupted;
  {
    BenchprChild child({"run", "-C", repo.path(), "--base", "main", "--head", "feature",
                        "--dry-run", "--seed", "7", "--output", results, "--time-identical"});
    ASSERT_TRUE(wait_for_rounds(child, results, 3)) << child.err_so_far();
    child.signal(SIGINT);
    ASSERT_TRUE(child.wait_for(120)) << "benchpr did not stop after SIGINT";
    interrupted = json::parse(slurp(results));
  }
  const int before = interrupted["rounds_done"];
  ASSERT_FALSE(interrupted["complete"].get<bool>()) << "finished before the interrupt";
  ASSERT_EQ(interrupted["config"]["budget_seconds"], 900);

  BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(resumed.wait_for(300));
  const Ending& e = resumed.ending();
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(e.err.find("look 1 after 2 rounds"), std::string::npos) << e.err;
  const json doc = json::parse(slurp(results));
  EXPECT_TRUE(doc["complete"].get<bool>()) << doc["stop_reason"];
  EXPECT_GT(doc["rounds_done"].get<int>(), before);
  // The same schedule, extended past the interruption; the looks recorded before it keep their
  // rounds and levels.
  for (std::size_t i = 0; i < interrupted["plan"].size() && i < doc["plan"].size(); ++i)
    EXPECT_EQ(doc["plan"][i], interrupted["plan"][i]) << "plan round " << i;
  ASSERT_TRUE(interrupted.contains("looks"));
  for (std::size_t i = 0; i < interrupted["looks"].size(); ++i)
    EXPECT_EQ(doc["looks"][i], interrupted["looks"][i]) << "look " << i;
  for (const char* name : {"BM_Sleep", "BM_Spin"}) {
    const json& was = series_named(interrupted, name);
    const json& now = series_named(doc, name);
    for (int i = 0; i < before; ++i) {
      EXPECT_EQ(now["base"][i], was["base"][i]) << name << " round " << i;
      EXPECT_EQ(now["head"][i], was["head"][i]) << name << " round " << i;
    }
  }
}

TEST(Resume, RefusesAFileOfOtherRevisionsOrConfiguration) {
  TempRepo repo;
  commit_sleepy_project(repo);
  TempDir out;
  const std::string results = out / "results.json";
  {
    BenchprChild child(plain_run(repo, results));
    ASSERT_TRUE(wait_for_rounds(child, results, 1)) << child.err_so_far();
    child.signal(SIGINT);
    ASSERT_TRUE(child.wait_for(120));
  }
  const std::string kept = slurp(results);
  ASSERT_FALSE(json::parse(kept)["complete"].get<bool>());

  BenchprChild other_head(
      {"run", "-C", repo.path(), "--dry-run", "--head", "main", "--resume", results});
  ASSERT_TRUE(other_head.wait_for(120));
  EXPECT_EQ(other_head.ending().exit_code, 2) << other_head.ending().err;
  EXPECT_NE(other_head.ending().err.find("--resume " + results + ": it compares"),
            std::string::npos)
      << other_head.ending().err;

  BenchprChild other_threshold(
      {"run", "-C", repo.path(), "--dry-run", "--threshold", "5%", "--resume", results});
  ASSERT_TRUE(other_threshold.wait_for(120));
  EXPECT_EQ(other_threshold.ending().exit_code, 2) << other_threshold.ending().err;
  EXPECT_NE(other_threshold.ending().err.find("configuration differs from this run's (threshold)"),
            std::string::npos)
      << other_threshold.ending().err;
  // Refused before anything ran: the file is untouched.
  EXPECT_EQ(slurp(results), kept);
}

// --resume starts the code of both sides again after an interruption that the PR's code may
// have caused (a SIGTERM to benchpr, found through /proc), and reads a file that code, running as
// the same user, may have rewritten in between. What it runs, and the plan it follows, are
// derived again, not read from the file.

// The base sleeps 20 ms, the PR 40 ms: the two executables differ.
void commit_slower_pr(TempRepo& repo) {
  GbenchConfig cfg = small_config();
  cfg.rounds = 8;
  commit_base_and_pr(
      repo, {{"BM_Sleep", "std::this_thread::sleep_for(std::chrono::milliseconds(20));", ""}},
      {{"BM_Sleep", "std::this_thread::sleep_for(std::chrono::milliseconds(40));", ""}}, cfg);
}

// A comparison interrupted after its first round; returns the file's text.
std::string interrupted_after_a_round(const TempRepo& repo, const std::string& results) {
  BenchprChild child(plain_run(repo, results));
  EXPECT_TRUE(wait_for_rounds(child, results, 1)) << child.err_so_far();
  child.signal(SIGINT);
  EXPECT_TRUE(child.wait_for(120));
  const std::string text = slurp(results);
  EXPECT_FALSE(json::parse(text)["complete"].get<bool>());
  return text;
}

std::string work_tree(const TempRepo& repo, const std::string& side) {
  return repo.path() + "/.git/benchpr/wt/" + side;
}

// (a) Before: the PR's executable copied over the base's, then a SIGTERM; the resumed run compared
// the PR with itself and said "inconclusive", exit 0.
TEST(ResumeTrust, RefusesWhenTheBasesExecutableWasReplacedSinceTheBuild) {
  TempRepo repo;
  commit_slower_pr(repo);
  TempDir out;
  const std::string results = out / "results.json";
  const std::string kept = interrupted_after_a_round(repo, results);
  ASSERT_FALSE(json::parse(kept)["executables"].empty());
  std::filesystem::copy_file(work_tree(repo, "head") + "/bench_bin",
                             work_tree(repo, "base") + "/bench_bin",
                             std::filesystem::copy_options::overwrite_existing);

  BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(resumed.wait_for(120));
  const Ending& e = resumed.ending();
  EXPECT_EQ(e.exit_code, 1) << e.err;  // a TamperError: the comparison is void, not a usage error
  EXPECT_NE(e.err.find("cannot resume: the base's bench_bin (suite micro) is not the file that "
                       "was built"),
            std::string::npos)
      << e.err;
  EXPECT_EQ(slurp(results), kept) << "a refused resume must leave the file as it was";
}

// The same, with the file's digest rewritten to match the planted executable: the work
// directory's own record of the build (inode and change time, which the owner cannot set back)
// still tells.
TEST(ResumeTrust, RefusesAReplacedExecutableEvenWithTheFilesDigestRewritten) {
  TempRepo repo;
  commit_slower_pr(repo);
  TempDir out;
  const std::string results = out / "results.json";
  json doc = json::parse(interrupted_after_a_round(repo, results));
  std::string head_digest;
  for (const json& x : doc["executables"])
    if (x["side"] == "head") head_digest = x["sha256"];
  ASSERT_FALSE(head_digest.empty());
  for (json& x : doc["executables"])
    if (x["side"] == "base") x["sha256"] = head_digest;
  { std::ofstream(results) << doc.dump(); }
  std::filesystem::copy_file(work_tree(repo, "head") + "/bench_bin",
                             work_tree(repo, "base") + "/bench_bin",
                             std::filesystem::copy_options::overwrite_existing);
  BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(resumed.wait_for(120));
  EXPECT_EQ(resumed.ending().exit_code, 1) << resumed.ending().err;
  EXPECT_NE(resumed.ending().err.find(
                "cannot resume: the base's bench_bin (suite micro) was rewritten since its build"),
            std::string::npos)
      << resumed.ending().err;
}

// A suite of counts only (`metric: instructions`) runs its program on the base again after the
// PR's counts, so its programs are recorded like the timed suites'. A file that records none for
// it (as files written before that did, or one edited) is refused: the program cannot be shown
// to be the one built, and the message says what to do.
TEST(ResumeTrust, RefusesAFileWithNoDigestForACountedSuitesProgram) {
  const std::string config =
      "build: g++ -O2 -std=c++17 bench.cpp -o bench_bin -lbenchmark -lpthread\n"
      "build_timeout: 5m\n"
      "suites:\n"
      "  - name: micro\n"
      "    run: ./bench_bin --benchmark_filter=BM_Sleep --benchmark_min_time=0.01\n"
      "    format: google-benchmark\n"
      "  - name: counted\n"
      "    run: ./bench_bin --benchmark_filter=BM_Spin\n"
      "    format: google-benchmark\n"
      "    metric: instructions\n"
      "rounds: 8\n"
      "warmup_rounds: 1\n";
  const auto project = [&](TempRepo& repo, int sleep_ms) {
    repo.write("bench.cpp",
               gbench_source({{"BM_Sleep",
                               "std::this_thread::sleep_for(std::chrono::milliseconds(" +
                                   std::to_string(sleep_ms) + "));",
                               ""},
                              {"BM_Spin", spin(2000), ""}}));
    repo.write(".benchpr.yml", config);
  };
  TempRepo repo;
  project(repo, 20);
  repo.commit_base_and_branch();
  project(repo, 40);
  repo.commit("sleep longer");
  TempDir out;
  const std::string results = out / "results.json";
  json doc = json::parse(interrupted_after_a_round(repo, results));
  std::set<std::string> counted_sides;
  json kept = json::array();
  for (const json& x : doc["executables"]) {
    if (x["suite"] == "counted")
      counted_sides.insert(x["side"].get<std::string>());
    else
      kept.push_back(x);
  }
  ASSERT_EQ(counted_sides, (std::set<std::string>{"base", "head"})) << doc["executables"].dump();
  doc["executables"] = kept;
  const std::string written = doc.dump();
  { std::ofstream(results) << written; }

  BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(resumed.wait_for(120));
  const Ending& e = resumed.ending();
  EXPECT_EQ(e.exit_code, 1) << e.err;
  EXPECT_NE(e.err.find("cannot resume: the base's bench_bin (suite counted) has no digest in the "
                       "results file"),
            std::string::npos)
      << e.err;
  // It says why without claiming code changed the program: the file may be an older one.
  EXPECT_NE(e.err.find("(a file written by an older benchpr, or an edited one); run the "
                       "comparison again without --resume"),
            std::string::npos)
      << e.err;
  EXPECT_EQ(e.err.find("code run since the builds"), std::string::npos) << e.err;
  EXPECT_EQ(slurp(results), written) << "a refused resume must leave the file as it was";
}

// (b) Before: a comparison that ended void was resumed and finished as if nothing happened.
TEST(ResumeTrust, RefusesAComparisonThatEndedVoid) {
  TempRepo repo;
  commit_slower_pr(repo);
  TempDir out;
  const std::string results = out / "results.json";
  const json interrupted = json::parse(interrupted_after_a_round(repo, results));
  const std::string why =
      "the base's benchmark executable ./bench_bin changed after its build (SHA-256 1 then, 2 "
      "now): code run by the PR rewrote it between rounds; the comparison is void";
  // As benchpr writes a void comparison (the reason's kind), and as a file from before the kind
  // was recorded said it (the sentence only).
  json with_kind = interrupted;
  with_kind["stop_reason"] = why;
  with_kind["stop"] = {{"kind", "void"}, {"count", 0}, {"detail", why}};
  json sentence_only = interrupted;
  sentence_only["stop_reason"] = why;
  sentence_only.erase("stop");
  for (const json& doc : {with_kind, sentence_only}) {
    { std::ofstream(results) << doc.dump(); }
    BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
    ASSERT_TRUE(resumed.wait_for(120));
    EXPECT_EQ(resumed.ending().exit_code, 2) << resumed.ending().err;
    EXPECT_NE(resumed.ending().err.find("that comparison ended void"), std::string::npos)
        << resumed.ending().err;
    EXPECT_EQ(resumed.ending().err.find("resuming"), std::string::npos) << resumed.ending().err;
  }
}

// (c) Before: the file's rounds cut to those done ended the comparison there, on whatever values
// the file held. The fixed plan is the configuration's: all 8 rounds are run, and the comment
// says which rounds the earlier process measured.
TEST(ResumeTrust, TheRoundsComeFromTheConfigurationNotTheFile) {
  TempRepo repo;
  commit_slower_pr(repo);
  TempDir out;
  const std::string results = out / "results.json";
  const json original = json::parse(interrupted_after_a_round(repo, results));
  const int done = original["rounds_done"];
  ASSERT_LT(done, 8);
  json doc = original;
  doc["config"]["rounds"] = done;
  doc["plan"] = json(std::vector<json>(original["plan"].begin(), original["plan"].begin() + done));
  { std::ofstream(results) << doc.dump(); }
  BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results, "--markdown",
                        out / "comment.md"});
  ASSERT_TRUE(resumed.wait_for(300));
  const Ending& e = resumed.ending();
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(e.err.find(fmt::format("the file plans {} rounds", done)), std::string::npos) << e.err;
  const json now = json::parse(slurp(results));
  EXPECT_TRUE(now["complete"].get<bool>()) << now["stop_reason"];
  EXPECT_EQ(now["rounds_done"], 8);
  EXPECT_EQ(now["plan"], original["plan"]);
  EXPECT_EQ(now["resumed_rounds"], done);
  EXPECT_NE(slurp(out / "comment.md").find("Resumed after an interruption"), std::string::npos)
      << slurp(out / "comment.md");
}

// (d) Before: A-vs-B interrupted, A-vs-C run in the same work directory, then the first resumed:
// its later rounds measured C's build under B's name.
TEST(ResumeTrust, RefusesWhenAWorktreeHoldsAnotherCommit) {
  TempRepo repo;
  commit_slower_pr(repo);
  repo.git("checkout -q -b other");
  repo.write("README.md", "another revision\n");
  repo.commit("another revision");
  repo.checkout("feature");
  TempDir out;
  const std::string results = out / "results.json";
  const std::string kept = interrupted_after_a_round(repo, results);
  TempDir other_out;
  const Ending other =
      run_benchpr_to_end({"run", "-C", repo.path(), "--base", "main", "--head", "other",
                          "--dry-run", "--rounds", "2", "--output", other_out / "results.json"},
                         300);
  ASSERT_EQ(other.exit_code, 0) << other.err;

  BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(resumed.wait_for(120));
  EXPECT_EQ(resumed.ending().exit_code, 2) << resumed.ending().err;
  EXPECT_NE(resumed.ending().err.find("the PR worktree holds"), std::string::npos)
      << resumed.ending().err;
  EXPECT_EQ(slurp(results), kept);
}

}  // namespace
}  // namespace benchpr::testing::faults
