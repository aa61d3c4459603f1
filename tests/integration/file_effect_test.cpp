// The same bytes ran 20% slower from one file than from a fresh copy of it, for a whole
// comparison: whatever is fixed per file for one side only (the file and where its pages sit, the
// length of its path and environment) is an effect the statistics cannot see. Every round must
// run fresh copies of both sides' executables, from paths and with environments of equal length,
// and an A/A comparison (one binary against itself) must find nothing.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <map>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

// Logs, at the start of every benchmark process: its working directory, the file it runs from,
// that file's inode, and the lengths of its argv[0] and environment.
std::string self_report(const std::string& log) {
  return "#include <climits>\n#include <cstring>\n#include <fstream>\n#include <unistd.h>\n"
         "#include <sys/stat.h>\nextern char** environ;\n"
         "static const int kReport = [] {\n"
         "  char exe[PATH_MAX] = {0};\n"
         "  if (readlink(\"/proc/self/exe\", exe, sizeof exe - 1) < 0) return 1;\n"
         "  char cwd[PATH_MAX] = {0};\n"
         "  if (!getcwd(cwd, sizeof cwd)) return 1;\n"
         "  struct stat st {};\n"
         "  stat(\"/proc/self/exe\", &st);\n"
         "  std::size_t env = 0;\n"
         "  for (char** e = environ; *e; ++e) env += std::strlen(*e) + 1;\n"
         "  std::ofstream(\"" +
         log +
         "\", std::ios::app) << cwd << ' ' << exe << ' ' << st.st_ino << ' ' << env << '\\n';\n"
         "  return 0;\n"
         "}();\n";
}

struct ProcessReport {
  std::string cwd, exe;
  unsigned long long inode = 0;
  std::size_t env = 0;
};

std::vector<ProcessReport> read_reports(const std::string& path) {
  std::vector<ProcessReport> reports;
  std::istringstream in(slurp(path));
  for (ProcessReport r; in >> r.cwd >> r.exe >> r.inode >> r.env;) reports.push_back(r);
  return reports;
}

TEST(FileEffect, EveryRoundRunsFreshCopiesFromPathsAndEnvironmentsOfEqualLength) {
  TempRepo repo;
  TempDir out;
  const std::string log = out / "processes.log";
  GbenchConfig config = small_config();
  config.rounds = 4;
  config.warmup = 1;
  const std::vector<GbenchCase> work = {{"BM_Work", chain(500), ""}};
  commit_base_and_pr(repo, work, work, config, self_report(log), self_report(log));
  const Ending e = run_benchpr_to_end(run_args(repo, out), 300);
  ASSERT_TRUE(e.exited && e.exit_code == 0) << e.describe() << "\n" << e.err;

  const auto reports = read_reports(log);
  std::map<std::string, int> per_side;
  for (const ProcessReport& r : reports) {
    ++per_side[r.cwd];
    // Not the worktree's file (before: every round ran build output from the worktree itself)...
    const std::string built = r.cwd + "/bench_bin";
    struct stat st {};
    ASSERT_EQ(::stat(built.c_str(), &st), 0) << built;
    EXPECT_NE(r.inode, st.st_ino) << r.exe << " is the worktree's file";
    EXPECT_NE(r.exe.rfind(r.cwd + "/", 0), 0u) << r.exe << " runs from the worktree";
    // ... but a copy made for that round, removed after it.
    EXPECT_FALSE(std::filesystem::exists(r.exe)) << r.exe << " outlived its round";
  }
  // Nothing of the process differs in length between the sides of a round (its two processes run
  // one after the other). Between rounds it may: the time plan sizes the min time after the
  // warm-up from what a round cost ("0.05s" or "0.1s" in the environment), and that depends on
  // how busy the machine is.
  ASSERT_EQ(reports.size() % 2, 0u) << slurp(log);
  for (std::size_t i = 0; i + 1 < reports.size(); i += 2) {
    const ProcessReport &a = reports[i], &b = reports[i + 1];
    EXPECT_NE(a.cwd, b.cwd) << "round " << i / 2 << " ran one side twice";
    EXPECT_EQ(a.exe.size(), b.exe.size()) << a.exe << " / " << b.exe;
    EXPECT_EQ(a.cwd.size(), b.cwd.size()) << a.cwd << " / " << b.cwd;
    EXPECT_EQ(a.env, b.env) << "round " << i / 2;
  }
  ASSERT_EQ(per_side.size(), 2u) << slurp(log);
  for (const auto& [cwd, n] : per_side) EXPECT_EQ(n, 5) << cwd;  // 4 rounds and the warm-up
}

// An A/A comparison: the pull request changes a README, so both sides build the same bytes.
// Nothing may be called a regression or an improvement, and at most half of the benchmarks may
// have a 95% interval that excludes 0 (each has a 5% chance when the method is calibrated: four
// or more of six, about 1 in 10,000).
TEST(FileEffect, AnAaComparisonFindsNothing) {
  TempRepo repo;
  GbenchConfig config = small_config();
  config.rounds = 6;
  config.warmup = 1;
  config.threshold = "5%";
  std::vector<GbenchCase> cases;
  for (int i = 1; i <= 6; ++i)
    cases.push_back({"BM_Chain" + std::to_string(i), chain(300 * i), ""});
  write_gbench_project(repo, cases, config);
  repo.commit_base_and_branch();
  repo.write("README.md", "words\n");
  repo.commit("a README");
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 300);
  ASSERT_TRUE(e.exited && e.exit_code == 0) << e.describe() << "\n" << e.err;
  const json doc = read_json(out / "results.json");
  int excluding_zero = 0;
  for (const json& b : doc["benchmarks"]) {
    const std::string verdict = b["verdict"];
    EXPECT_NE(verdict, "regression") << b.dump();
    EXPECT_NE(verdict, "improvement") << b.dump();
    const json& ci = b["ci"];
    if (ci[0].is_number() && ci[1].is_number() &&
        (ci[0].get<double>() > 0 || ci[1].get<double>() < 0))
      ++excluding_zero;
  }
  EXPECT_EQ(doc["benchmarks"].size(), 6u);
  EXPECT_LE(excluding_zero, 3) << doc["benchmarks"].dump(2);
}

}  // namespace
}  // namespace benchpr::testing::faults
