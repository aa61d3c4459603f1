// A benchmark that never returns: the suite's timeout kills the whole process group (including a
// child the benchmark forked), the comment says which suite timed out after how long, and the
// session's time stays bounded by the configured timeouts.
#include <gtest/gtest.h>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

TEST(FaultsHang, SleepingBenchmarkIsKilledWithItsChildrenAfterTheSuiteTimeout) {
  // Each process that starts BM_Hang says so in `starts`: every start must be a timeout the
  // results file records, so no probe or retry let it hang again unseen.
  TempDir starts;
  const std::string forks_and_sleeps =
      "static bool started = false;"
      "if (!started) { started = true; std::ofstream(\"" +
      starts.path() +
      "/\" + std::to_string(getpid())) << 1; }"
      "static bool forked = false;"
      "if (!forked) { forked = true; if (fork() == 0) {"
      " std::this_thread::sleep_for(std::chrono::hours(1)); _exit(0); } }"
      "std::this_thread::sleep_for(std::chrono::hours(1));";
  constexpr double kTimeout = 3;
  GbenchConfig cfg = small_config();
  cfg.timeout = "3s";
  TempRepo repo;
  commit_base_and_pr(repo, {{"BM_A", spin(1000), ""}, {"BM_Hang", spin(500), ""}},
                     {{"BM_A", spin(1000), ""}, {"BM_Hang", forks_and_sleeps, ""}}, cfg,
                     "#include <unistd.h>\n", "#include <unistd.h>\n#include <fstream>\n");
  TempDir out;
  // A hang guard, not a measure: the whole run takes two builds and one timeout (about 7 s).
  const Ending e = run_benchpr_to_end(run_args(repo, out), 120);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;
  const auto left = survivors_under(repo.path());
  EXPECT_TRUE(left.empty()) << "processes left behind:\n" << join(left);

  const json doc = read_json(out / "results.json");
  // The first PR run is killed at the timeout; later ones either time out the same way or are
  // not started again (a suite that hung once would only spend the timeout again).
  int timed_out = 0, failed = 0;
  for (const json& run : doc["runs"]) {
    if (run["ok"].get<bool>()) continue;
    EXPECT_EQ(run["side"], "head") << run.dump();
    EXPECT_EQ(run["suite"], "micro") << run.dump();
    const std::string kind = run["failure_kind"].get<std::string>();
    if (kind == "timeout") {
      ++timed_out;
      // Killed at the timeout, not left to sleep its hour: a correct benchpr ends the run
      // milliseconds after 3 s, so ten times the timeout cannot fail on a loaded machine.
      EXPECT_GE(run["seconds"].get<double>(), kTimeout * 0.99) << run.dump();
      EXPECT_LT(run["seconds"].get<double>(), 10 * kTimeout) << run.dump();
    } else {
      EXPECT_EQ(kind, "given-up") << run.dump();
      EXPECT_GE(timed_out, 1) << "skipped before any timeout: " << run.dump();
    }
    ++failed;
  }
  EXPECT_GE(timed_out, 1) << doc["runs"].dump(2);
  EXPECT_EQ(failed, 2) << doc["runs"].dump(2);  // the PR side of both rounds

  // Bounded by the timeouts: the timeouts counted above are all the session waited for BM_Hang.
  // A probe or retry that let it hang again would start it once more than they count (counted,
  // not timed: what benchpr spends outside the recorded runs grows with the machine's load).
  int hang_starts = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(starts.path()))
    ++hang_starts;
  EXPECT_EQ(hang_starts, timed_out) << doc["runs"].dump(2);

  const json* hang = find_benchmark(doc, "BM_Hang");
  ASSERT_NE(hang, nullptr) << doc["benchmarks"].dump(2);
  EXPECT_EQ((*hang)["verdict"], "failed");
  EXPECT_NE((*hang)["reason"].get<std::string>().find("timed out after 3s"), std::string::npos)
      << hang->dump();
  // The suite timed out as a whole on the PR side: nothing compared, so nothing to read.
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed") << doc["recommendation"].dump();
  EXPECT_NE(e.out.find("**Could not compare.**"), std::string::npos) << e.out;

  // The comment names the suite and the timeout.
  EXPECT_NE(e.out.find("timed out after 3s"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("micro"), std::string::npos) << "the suite is not named:\n" << e.out;
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
}

// The PR's benchmark replaces its own results file, once written, by something that is not a
// file: a named pipe (open() would block for ever, deaf to SIGTERM) or a link to /dev/zero (read
// would never end before the size limit). benchpr must refuse either at once and carry on.
std::string replace_results_file_with(const std::string& what) {
  return "#include <sys/stat.h>\n#include <unistd.h>\n#include <cstdlib>\n#include <fstream>\n"
         "#include <string>\n"
         "static std::string g_out;\n"
         "static void plant() {\n"
         "  if (g_out.empty()) return;\n"
         "  unlink(g_out.c_str());\n  " +
         what +
         ";\n}\n"
         "static const int kPlanted = [] {\n"
         "  if (const char* out = std::getenv(\"BENCHMARK_OUT\")) g_out = out;\n"
         "  std::atexit(plant);\n"
         "  return 0;\n}();\n";
}

void expect_refused(const std::string& planted, const std::string& reason) {
  TempRepo repo;
  const std::vector<GbenchCase> cases = {{"BM_A", spin(1000), ""}};
  commit_base_and_pr(repo, cases, cases, small_config(), "", replace_results_file_with(planted));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 90);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;
  const json doc = read_json(out / "results.json");
  bool refused = false;
  for (const json& run : doc["runs"]) {
    if (run["side"] != "head") continue;
    EXPECT_FALSE(run["ok"].get<bool>()) << run.dump();
    refused = refused || run.value("failure", "").find(reason) != std::string::npos;
  }
  EXPECT_TRUE(refused) << doc["runs"].dump(2);
  const json* a = find_benchmark(doc, "BM_A");
  ASSERT_NE(a, nullptr) << doc.dump(2);
  EXPECT_EQ((*a)["verdict"], "failed");
  EXPECT_NE(e.out.find("`BM_A`"), std::string::npos) << e.out;  // the comment is there
  EXPECT_TRUE(survivors_under(repo.path()).empty()) << join(survivors_under(repo.path()));
}

TEST(FaultsHang, ANamedPipeAtTheResultsPathIsRefusedWithoutWaiting) {
  expect_refused("mkfifo(g_out.c_str(), 0644)", "a named pipe, not a regular file");
}

TEST(FaultsHang, ALinkToADeviceAtTheResultsPathIsNotFollowed) {
  expect_refused("symlink(\"/dev/zero\", g_out.c_str())", "a symbolic link, not a file");
}

// A benchmark that daemonises (setsid and a double fork, chdir to /) keeps running after its run
// and, before, after benchpr itself ended. benchpr is a child subreaper: the daemon becomes its
// child when its parent exits, and the sweep after each run kills it and says so.
TEST(FaultsHang, ADaemonisedProcessIsKilledAfterTheRunAndReported) {
  TempDir pids;
  // The benchmark goes on only once the daemon has written its pid (a pipe it closes): on a
  // loaded machine the run could otherwise end, and the sweep kill the daemon, before that.
  const std::string daemonise =
      "#include <unistd.h>\n#include <fstream>\n#include <string>\n"
      "static const int kDaemon = [] {\n"
      "  int ready[2];\n"
      "  if (pipe(ready) != 0) _exit(1);\n"
      "  if (fork() == 0) {\n"
      "    setsid();\n"
      "    if (fork() == 0) {\n"
      "      if (chdir(\"/\") != 0) _exit(1);\n"
      "      std::ofstream(\"" +
      pids.path() +
      "/\" + std::to_string(getpid())) << getpid();\n"
      "      close(ready[1]);\n"
      "      sleep(20);\n"
      "      std::ofstream(\"" +
      pids.path() +
      "/late\") << \"still here\";\n"
      "      _exit(0);\n"
      "    }\n"
      "    _exit(0);\n"
      "  }\n"
      "  close(ready[1]);\n"
      "  char byte;\n"
      "  while (read(ready[0], &byte, 1) > 0) {}\n"
      "  close(ready[0]);\n"
      "  return 0;\n}();\n";
  TempRepo repo;
  const std::vector<GbenchCase> cases = {{"BM_A", spin(1000), ""}};
  commit_base_and_pr(repo, cases, cases, small_config(), "", daemonise);
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 120);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 0) << e.err;
  EXPECT_NE(e.err.find("left 1 process(es) running; benchpr killed them"), std::string::npos)
      << e.err;
  int daemons = 0;
  for (const auto& entry : std::filesystem::directory_iterator(pids.path())) {
    const std::string name = entry.path().filename().string();
    if (name == "late") continue;
    ++daemons;
    const pid_t pid = std::stoi(name);
    // Gone, not merely a zombie: nothing of it is left in /proc.
    EXPECT_FALSE(std::filesystem::exists("/proc/" + name + "/stat") &&
                 slurp("/proc/" + name + "/stat").find(") Z") == std::string::npos)
        << "daemon " << pid << " still runs";
  }
  EXPECT_GE(daemons, 2);  // one per PR run
  EXPECT_FALSE(std::filesystem::exists(pids / "late"));

  // The comment says so, for the side whose runs did it, and every run's count is in the
  // results file.
  const std::string comment = slurp(out / "comment.md");
  EXPECT_NE(comment.find("The PR runs of suite `micro` left "), std::string::npos) << comment;
  EXPECT_EQ(comment.find("The base runs of suite `micro` left "), std::string::npos) << comment;
  EXPECT_NE(comment.find("benchpr killed them after each run"), std::string::npos) << comment;
  const json doc = read_json(out / "results.json");
  int runs = 0, left = 0;
  for (const json& run : doc.at("runs")) {
    ++runs;
    left += run.at("leftover_processes").get<int>();
    EXPECT_EQ(run.at("leftover_processes").get<int>(), run.at("side") == "head" ? 1 : 0)
        << run.dump();
  }
  EXPECT_GT(runs, 0);
  EXPECT_EQ(left, daemons);
}

}  // namespace
}  // namespace benchpr::testing::faults
