// Faults of the code under test while it is measured: a benchmark that crashes (a signal) or
// exits with a code, output that is truncated, a benchmark reporting an error, benchmarks added
// and removed.
// What can still be compared must be compared; what cannot is `failed` with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "faults_helpers.hpp"

namespace benchpr::testing::faults {
namespace {

// The suite's benchmarks that behave, on both sides.
std::vector<GbenchCase> healthy() { return {{"BM_A", spin(1000), ""}, {"BM_B", spin(3000), ""}}; }

std::vector<GbenchCase> with(std::vector<GbenchCase> cases, const GbenchCase& extra) {
  cases.push_back(extra);
  return cases;
}

void expect_failed_with(const json& doc, const std::string& name, const std::string& reason) {
  const json* b = find_benchmark(doc, name);
  ASSERT_NE(b, nullptr) << name << " missing from the analysis:\n" << doc["benchmarks"].dump(2);
  EXPECT_EQ((*b)["verdict"], "failed") << b->dump();
  EXPECT_NE((*b)["reason"].get<std::string>().find(reason), std::string::npos)
      << contains_msg((*b)["reason"].get<std::string>(), reason);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The first line of `text` that contains `part` ("" if none).
std::string line_with(const std::string& text, const std::string& part) {
  const std::size_t at = text.find(part);
  if (at == std::string::npos) return "";
  const std::size_t begin =
      text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

void expect_clean_ending(const Ending& e, const TempRepo& repo, int exit_code = 0) {
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  EXPECT_EQ(e.exit_code, exit_code) << e.err;
  const auto left = survivors_under(repo.path());
  EXPECT_TRUE(left.empty()) << "processes left behind:\n" << join(left);
}

TEST(FaultsCrash, SegfaultingBenchmarkIsFailedWithTheSignalAndTheOthersAreStillCompared) {
  TempRepo repo;
  commit_base_and_pr(repo, with(healthy(), {"BM_Crash", spin(500), ""}),
                     with(healthy(), {"BM_Crash", "std::raise(SIGSEGV);", ""}));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  expect_clean_ending(e, repo);

  const json doc = read_json(out / "results.json");
  bool crash_recorded = false;
  for (const json& run : doc["runs"]) {
    if (run["side"] == "base") {
      EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
    } else if (!run["ok"].get<bool>()) {
      EXPECT_EQ(run["failure"], "killed by signal 11 (SIGSEGV)") << run.dump();
      crash_recorded = true;
    }
  }
  EXPECT_TRUE(crash_recorded) << doc["runs"].dump(2);
  expect_failed_with(doc, "BM_Crash", "killed by signal 11 (SIGSEGV)");
  expect_compared_in_every_round(doc, "BM_A", 2);
  expect_compared_in_every_round(doc, "BM_B", 2);
  // The others' reading, the crash named beside it: not "Could not compare.".
  expect_reading_beside_failures(doc, {"BM_Crash"});
  EXPECT_FALSE(contains(e.out, "**Could not compare.**")) << e.out;
  EXPECT_TRUE(doc["complete"].get<bool>());

  EXPECT_NE(e.out.find("SIGSEGV"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("`BM_Crash`"), std::string::npos) << e.out;
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
}

TEST(FaultsCrash, SeveralCrashingBenchmarksAreEachExcluded) {
  // Two crashers in one suite (an abort and a trap): excluding one must not hide the other.
  TempRepo repo;
  commit_base_and_pr(repo,
                     with(with(healthy(), {"BM_Abort", spin(800), ""}), {"BM_Trap", spin(700), ""}),
                     with(with(healthy(), {"BM_Abort", "std::abort();", ""}),
                          {"BM_Trap", "__builtin_trap();", ""}));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  expect_clean_ending(e, repo);

  const json doc = read_json(out / "results.json");
  expect_failed_with(doc, "BM_Abort", "killed by signal 6 (SIGABRT)");
  expect_failed_with(doc, "BM_Trap", "killed by signal 4 (SIGILL)");
  expect_compared_in_every_round(doc, "BM_A", 2);
  expect_compared_in_every_round(doc, "BM_B", 2);
  expect_reading_beside_failures(doc, {"BM_Abort", "BM_Trap"});
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
}

// An exit code is the program's own decision (an exit() in a benchmark, a sanitizer's report, a
// flag it refuses): running each benchmark alone would end the same way for every one of them,
// so benchpr does not look for a crasher. The suite failed on that side, with the exit code, the
// output's tail and the log's path.
TEST(FaultsCrash, ASuiteThatExitsWithACodeIsFailedWithoutAProbe) {
  TempRepo repo;
  commit_base_and_pr(repo, with(healthy(), {"BM_Exit", spin(700), ""}),
                     with(healthy(), {"BM_Exit", "std::exit(3);", ""}));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  expect_clean_ending(e, repo);

  EXPECT_FALSE(contains(e.err, "finding which benchmark")) << e.err;
  const json doc = read_json(out / "results.json");
  for (const char* name : {"BM_A", "BM_B", "BM_Exit"}) expect_failed_with(doc, name, "exit code 3");
  for (const json& run : doc["runs"]) {
    if (run["side"] == "base") {
      EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
    } else {
      // Measured nothing in its first round: reported once, not run again.
      EXPECT_EQ(run["failure_kind"], run["round"] == 0 ? "exit-code" : "given-up") << run.dump();
    }
  }
  EXPECT_TRUE(contains(e.err, ".log")) << e.err;
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed") << doc["recommendation"].dump();
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
}

TEST(FaultsCrash, CrashingBenchmarkWithRegexCharactersInItsNameIsExcludedLiterally) {
  // The filter that leaves the crasher out must match its name literally: every character
  // Google Benchmark's regex treats specially is in it.
  const std::string name = "BM_Abort/[x]+.*{2}|(a)^$\\?";
  auto registering = [&](const std::string& body) {
    std::string literal;
    for (char c : name) {
      if (c == '"' || c == '\\') literal += '\\';
      literal += c;
    }
    return "static void Odd(benchmark::State& s) { for (auto _ : s) { " + body + " } }\n" +
           "static const int kRegistered = [] {\n  benchmark::RegisterBenchmark(\"" + literal +
           "\", Odd);\n  return 0;\n}();\n";
  };
  TempRepo repo;
  commit_base_and_pr(repo, healthy(), healthy(), small_config(), registering(spin(800)),
                     registering("std::abort();"));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  expect_clean_ending(e, repo);

  const json doc = read_json(out / "results.json");
  expect_failed_with(doc, name, "killed by signal 6 (SIGABRT)");
  expect_compared_in_every_round(doc, "BM_A", 2);
  expect_compared_in_every_round(doc, "BM_B", 2);
  expect_reading_beside_failures(doc, {name});
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
}

// The suite runs through a wrapper that is a pass-through on the base and, on the PR, cuts the
// results file to 100 bytes after the benchmarks wrote it: a real truncated file, exit code 0.
std::string wrapped_config() {
  std::string c = gbench_config(small_config());
  const std::string from = "run: ./bench_bin";
  c.replace(c.find(from), from.size(), "run: sh ./wrap.sh ./bench_bin");
  return c;
}

TEST(FaultsCrash, TruncatedResultsFileIsAFailureWithItsReasonNotACrashOrANumber) {
  TempRepo repo;
  write_gbench_project(repo, healthy(), small_config());
  repo.write(".benchpr.yml", wrapped_config());
  repo.write("wrap.sh", "exec \"$@\"\n");
  repo.commit_base_and_branch();
  repo.write("wrap.sh",
             "out=\"$BENCHMARK_OUT\"\n"
             "\"$@\"\nstatus=$?\ntruncate -s 100 \"$out\"\nexit $status\n");
  repo.commit("truncate the results");
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  expect_clean_ending(e, repo);

  const json doc = read_json(out / "results.json");
  int failed_runs = 0;
  for (const json& run : doc["runs"]) {
    if (run["side"] != "head") {
      EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
      continue;
    }
    EXPECT_FALSE(run["ok"].get<bool>()) << run.dump();
    const std::string failure = run["failure"].get<std::string>();
    // The first round's failure, then "not run again: <it> earlier".
    EXPECT_EQ(failure.rfind(run["round"] == 0 ? "" : "not run again: ", 0), 0u) << failure;
    EXPECT_NE(failure.find("could not read its output: not Google Benchmark JSON: "),
              std::string::npos)
        << failure;
    EXPECT_NE(failure.find("(is the file truncated?)"), std::string::npos) << failure;
    ++failed_runs;
  }
  EXPECT_EQ(failed_runs, 2);
  expect_failed_with(doc, "BM_A", "could not read its output");
  expect_failed_with(doc, "BM_B", "could not read its output");
  for (const json& s : doc["series"])
    for (const json& v : s["head"]) EXPECT_TRUE(v.is_null()) << "a value from a broken file";
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed");
  EXPECT_NE(e.out.find("is the file truncated?"), std::string::npos) << e.out;
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
}

TEST(FaultsCrash, BenchmarkReportingAnErrorIsFailedWithItsEscapedMessage) {
  TempRepo repo;
  commit_base_and_pr(
      repo, with(healthy(), {"BM_Err", spin(600), ""}),
      with(healthy(),
           {"BM_Err",
            "state.SkipWithError(\"disk on fire <img src=x onerror=alert(1)> @octocat\"); break;",
            ""}));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  expect_clean_ending(e, repo);

  const json doc = read_json(out / "results.json");
  for (const json& run : doc["runs"]) EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
  expect_failed_with(doc, "BM_Err", "error: disk on fire <img src=x onerror=alert(1)> @octocat");
  expect_compared_in_every_round(doc, "BM_A", 2);
  expect_compared_in_every_round(doc, "BM_B", 2);
  expect_reading_beside_failures(doc, {"BM_Err"});
  EXPECT_NE(e.out.find("disk on fire"), std::string::npos) << e.out;
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out)) << e.out;
}

TEST(FaultsCrash, AddedAndRemovedBenchmarksAreListedNotCompared) {
  TempRepo repo;
  commit_base_and_pr(repo, with(healthy(), {"BM_Old", spin(900), ""}),
                     with(healthy(), {"BM_New", spin(900), ""}));
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out));
  expect_clean_ending(e, repo);

  const json doc = read_json(out / "results.json");
  const json* added = find_benchmark(doc, "BM_New");
  const json* removed = find_benchmark(doc, "BM_Old");
  ASSERT_NE(added, nullptr);
  ASSERT_NE(removed, nullptr);
  EXPECT_EQ((*added)["verdict"], "added");
  EXPECT_EQ((*removed)["verdict"], "removed");
  EXPECT_TRUE((*added)["change"].is_null());
  EXPECT_TRUE((*removed)["change"].is_null());
  expect_compared_in_every_round(doc, "BM_A", 2);
  expect_compared_in_every_round(doc, "BM_B", 2);
  for (const json& run : doc["runs"]) EXPECT_TRUE(run["ok"].get<bool>()) << run.dump();
  // Not a failure of the PR: nothing crashed, nothing regressed (the unchanged benchmarks have
  // too few rounds to call, hence possibly `inconclusive`).
  const std::string verdict = doc["recommendation"]["verdict"];
  EXPECT_TRUE(verdict == "merge" || verdict == "inconclusive") << doc["recommendation"].dump();
  EXPECT_EQ(verdict, recommendation_for(doc)) << doc["benchmarks"].dump(1);
  // Each is listed on its own row with its label, not merely counted in the headline.
  EXPECT_TRUE(contains(line_with(e.out, "`BM_New`"), "added")) << e.out;
  EXPECT_TRUE(contains(line_with(e.out, "`BM_Old`"), "removed")) << e.out;
  EXPECT_TRUE(markdown_problems(e.out).empty()) << join(markdown_problems(e.out));
}

// The crash probe runs each benchmark alone. Before, it was unbounded (up to 200 benchmarks, each
// up to the suite's timeout) and repeated in every round. A fake suite (a script answering as a
// Google Benchmark binary would) crashes when run whole, lists five benchmarks, and takes two
// seconds for each run alone; the suite's timeout is 3s. Every probe run is counted in a file.
TEST(FaultsCrash, TheCrashProbeIsBoundedByTheSuiteTimeoutAndNeverRepeated) {
  TempRepo repo;
  repo.write(".benchpr.yml",
             "build: 'true'\n"
             "suites:\n"
             "  - name: fake\n"
             "    run: sh fake.sh\n"
             "    format: google-benchmark\n"
             "    timeout: 3s\n"
             "rounds: 3\n"
             "warmup_rounds: 0\n");
  TempDir counts;
  repo.write("fake.sh",
             "case \"$*\" in\n"
             "*--benchmark_list_tests*) printf 'BM_1\\nBM_2\\nBM_3\\nBM_4\\nBM_5\\n' ;;\n"
             "*--benchmark_filter*) echo probe >> " +
                 counts.path() +
                 "/probes; sleep 2 ;;\n"
                 "*) echo whole >> " +
                 counts.path() +
                 "/runs; kill -SEGV $$ ;;\n"
                 "esac\n");
  repo.commit("base");
  TempDir out;
  const Ending e = run_benchpr_to_end({"run", "-C", repo.path(), "--base", "main", "--head", "main",
                                       "--dry-run", "--output", out / "results.json"});
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err;
  // The suite crashes on both sides: nothing was measured, which fails the job (README).
  EXPECT_EQ(e.exit_code, 4) << e.err;
  EXPECT_NE(e.err.find("nothing was measured: no benchmark gave a value on either side"),
            std::string::npos)
      << e.err;
  // One probe per side, not one per round and side.
  std::size_t probes_started = 0;
  for (std::size_t p = e.err.find("finding which benchmark"); p != std::string::npos;
       p = e.err.find("finding which benchmark", p + 1))
    ++probes_started;
  EXPECT_EQ(probes_started, 2u) << e.err;
  // Each probe stops once the suite's timeout is spent: at most two 2s runs alone fit in 3s.
  const std::string probes = slurp(counts / "probes");
  const auto runs_alone = static_cast<std::size_t>(std::count(probes.begin(), probes.end(), '\n'));
  EXPECT_GE(runs_alone, 2u) << e.err;
  EXPECT_LE(runs_alone, 4u) << e.err;
  EXPECT_NE(e.err.find("unprobed"), std::string::npos) << e.err;
  const json doc = read_json(out / "results.json");
  EXPECT_EQ(doc["recommendation"]["verdict"], "failed");
  EXPECT_TRUE(survivors_under(repo.path()).empty()) << join(survivors_under(repo.path()));
}

// A run that prints tens of megabytes: its log once grew as large every round, and 70 MB of
// parsed standard output was reported as "the file is empty". The log keeps its head and its
// tail and says how much was cut; a parsed output beyond what benchpr reads fails the run with
// the true reason; a suite that writes its results to a file is still measured.
TEST(FaultsCrash, HugeOutputIsCappedInTheLogAndReportedWithItsTrueReason) {
  TempRepo repo;
  const std::string gen =
      "r=$(od -An -N1 -tu1 /dev/urandom | tr -d ' ')\n"
      "case \"$1\" in\n"
      // 70 MiB of standard output, which is what the custom format parses.
      "flood) head -c 73400320 /dev/zero | tr '\\0' 'x'; echo ;;\n"
      // 40 MiB of chatter, then the results in the file.
      "chatty) head -c 41943040 /dev/zero | tr '\\0' 'y'; echo; echo last-line-of-chatter\n"
      "  printf '[{\"name\":\"c\",\"unit\":\"ns\",\"value\":%s}]\\n' \"$((1000 + r % 7))\" > "
      "\"$2\" ;;\n"
      "esac\n";
  commit_script_project(repo,
                        "  - name: flood\n"
                        "    run: sh gen.sh flood\n"
                        "    format: custom\n"
                        "  - name: chatty\n"
                        "    run: sh gen.sh chatty {out}\n"
                        "    format: custom\n",
                        2, gen, gen + "\n");
  TempDir out;
  const Ending e = run_benchpr_to_end(run_args(repo, out), 300);
  ASSERT_TRUE(e.exited) << e.describe() << "\n" << e.err.substr(0, 2000);
  EXPECT_EQ(e.exit_code, 0) << e.err.substr(0, 2000);

  const json doc = read_json(out / "results.json");
  bool flood_reason = false;
  for (const json& run : doc.at("runs")) {
    if (run.at("suite") != "flood") continue;
    EXPECT_FALSE(run.at("ok").get<bool>());
    const std::string failure = run.at("failure");
    EXPECT_EQ(failure.find("empty"), std::string::npos) << failure;
    flood_reason |=
        failure.find("printed 73400321 bytes of output, more than the 64 MiB") != std::string::npos;
  }
  EXPECT_TRUE(flood_reason) << doc.at("runs").dump(1).substr(0, 3000);
  expect_compared_in_every_round(doc, "c", 2);

  // Every log is capped (16 MiB and the line about the cut), keeping the end of the output.
  int logs = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(repo.path() + "/.git/benchpr/logs")) {
    const std::string name = entry.path().filename().string();
    if (name.find("flood") == std::string::npos && name.find("chatty") == std::string::npos)
      continue;
    ++logs;
    EXPECT_LE(entry.file_size(), (16u << 20) + 200) << name;
    const std::string log = slurp(entry.path().string());
    EXPECT_NE(log.find("bytes of output cut here; this log keeps the first 8388608 and the last "
                       "8388608 of"),
              std::string::npos)
        << name;
    if (name.find("chatty") != std::string::npos) {
      EXPECT_NE(log.find("last-line-of-chatter"), std::string::npos) << name;
    }
  }
  // chatty: two sides, two rounds; flood measured nothing in its first round and is not run again.
  EXPECT_EQ(logs, 6);
}

}  // namespace
}  // namespace benchpr::testing::faults
