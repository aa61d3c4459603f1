// The placement control on a real CMake project (zero-config, Makefile build trees, Google
// Benchmark from the system): each side's benchmark program is relinked with a 16-, 32- and
// 48-byte pad linked first, every function after it moves by exactly that much, and the rounds
// rotate over the placements in whole cycles. And the trust boundary around the relinks: the
// PR's link command runs like its build, after the base's relinks, and may not touch the base.
// Time on a shared machine may or may not move: the test judges the programs, the plan and the
// words, never a time.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/runner/elf_symbols.hpp"
#include "faults_helpers.hpp"
#include "support/benchpr_process.hpp"
#include "support/results_doc.hpp"
#include "support/temp_dir.hpp"
#include "support/temp_repo.hpp"

namespace benchpr::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// A project benchpr finds with no configuration: one benchmark program over a library.
void write_project(TempRepo& repo, int steps, const std::string& extra_cmake = "") {
  repo.write("CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\n"
             "project(placed CXX)\n" +
                 extra_cmake +
                 "find_package(benchmark CONFIG REQUIRED)\n"
                 "add_library(work STATIC work.cpp)\n"
                 "add_executable(micro bench.cpp)\n"
                 "target_link_libraries(micro PRIVATE work benchmark::benchmark)\n");
  repo.write("work.cpp", fmt::format("__attribute__((noinline)) unsigned long long hot_work("
                                     "unsigned long long x) {{\n"
                                     "  for (int i = 0; i < {}; ++i) {{ x ^= x << 13; x ^= x >> 7; "
                                     "x ^= x << 17; }}\n  return x;\n}}\n",
                                     steps));
  repo.write("bench.cpp",
             "#include <benchmark/benchmark.h>\n"
             "unsigned long long hot_work(unsigned long long x);\n"
             "static void BM_Work(benchmark::State& state) {\n"
             "  unsigned long long x = 88172645463325252ull;\n"
             "  for (auto _ : state) { x = hot_work(x); benchmark::DoNotOptimize(x); }\n}\n"
             "BENCHMARK(BM_Work);\n"
             "BENCHMARK_MAIN();\n");
}

// The base (BM_Work at 2,000 steps, `config` as .benchpr.yml when given) and a commit with 5%
// more work.
void commit_more_work(TempRepo& repo, const std::string& config = "") {
  write_project(repo, 2000);
  if (!config.empty()) repo.write(".benchpr.yml", config);
  repo.commit("base");
  write_project(repo, 2100);
  repo.commit("more work");
}

std::uint64_t address_of(const runner::ElfFunctions& file, const std::string& prefix) {
  for (const runner::ElfFunction& f : file.functions)
    if (runner::demangle(f.name).rfind(prefix, 0) == 0) return f.address;
  return 0;
}

// Every relinked program of `side` (below the work directory `work`) is the program moved:
// hot_work and BM_Work sit exactly the pad further on, and the variants are recorded with their
// digests like the programs.
void expect_relinked(const std::string& work, const std::string& side, const json& doc) {
  const std::string root = work + "/wt/" + side;
  std::string program;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.path().filename() == "micro" && e.is_regular_file() &&
        e.path().string().find(".benchpr-placement") == std::string::npos)
      program = e.path().string();
  ASSERT_FALSE(program.empty()) << side;
  const runner::ElfFunctions built = runner::read_elf_functions(program);
  ASSERT_EQ(built.error, "") << program;
  const std::string relative = fs::path(program).lexically_relative(root).string();
  for (int shift : {16, 32, 48}) {
    const std::string variant =
        fmt::format("{}/.benchpr-placement/shift{}/{}", root, shift, relative);
    const runner::ElfFunctions moved = runner::read_elf_functions(variant);
    ASSERT_EQ(moved.error, "") << variant;
    for (const char* name : {"hot_work", "BM_Work"}) {
      ASSERT_NE(address_of(built, name), 0u) << name;
      EXPECT_EQ(address_of(moved, name), address_of(built, name) + shift)
          << side << " " << name << " at +" << shift;
    }
    bool recorded = false;
    for (const json& x : doc["executables"])
      recorded =
          recorded || (x["side"] == side &&
                       x["path"] == fmt::format(".benchpr-placement/shift{}/{}", shift, relative));
    EXPECT_TRUE(recorded) << side << " +" << shift;
  }
}

TEST(PlacementControl, EachSideRunsRelinkedAtFourPlacementsInWholeCycles) {
  TempRepo repo;
  commit_more_work(repo);

  TempDir work;
  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY,
      {"run", "-C", repo.path(), "--base", "HEAD~1", "--head", "HEAD", "--dry-run", "--rounds", "6",
       "--no-instructions", "--workdir", work.path(), "--output", out / "results.json"});
  ASSERT_EQ(r.exit_code == 0 || r.exit_code == 1, true) << r.err;
  const json doc = json::parse(read_file(out / "results.json"));
  ASSERT_TRUE(doc.contains("placement_shifts")) << r.err;
  EXPECT_EQ(doc["placement_shifts"], json::array({0, 16, 32, 48}));
  // Six rounds asked for, eight run: one whole cycle of four placements in both orders.
  EXPECT_NE(r.err.find("8 analysed rounds rather than 6"), std::string::npos) << r.err;
  EXPECT_EQ(doc["analysed_rounds"], 8) << r.err;
  EXPECT_NE(r.out.find("each side's code at 4 placements in turn (relinked +0/16/32/48 bytes)"),
            std::string::npos)
      << r.out;

  for (const char* side : {"base", "head"}) expect_relinked(work.path(), side, doc);

  // Off by flag: the rounds run the programs as built, as many as asked.
  TempDir out2;
  const BenchprRun off = run_benchpr_as_given(
      BENCHPR_BINARY,
      {"run", "-C", repo.path(), "--base", "HEAD~1", "--head", "HEAD", "--dry-run", "--rounds", "4",
       "--no-instructions", "--no-placement-control", "--output", out2 / "results.json"});
  const json plain = json::parse(read_file(out2 / "results.json"));
  EXPECT_FALSE(plain.contains("placement_shifts")) << off.err;
  EXPECT_EQ(plain["analysed_rounds"], 4) << off.err;
  EXPECT_EQ(off.out.find("placements in turn"), std::string::npos) << off.out;
}

// A configured build with CMake's Ninja generator: `ninja -t commands` gives the link command.
TEST(PlacementControl, ANinjaBuildTreeIsRelinkedToo) {
  TempRepo repo;
  const std::string config =
      "build: cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null && "
      "cmake --build build\n"
      "suites:\n  - name: micro\n    run: build/micro --benchmark_min_time=0.01\n"
      "    format: google-benchmark\n";
  commit_more_work(repo, config);
  TempDir work;
  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY,
      {"run", "-C", repo.path(), "--base", "HEAD~1", "--head", "HEAD", "--dry-run", "--rounds", "8",
       "--no-instructions", "--workdir", work.path(), "--output", out / "results.json"});
  const json doc = json::parse(read_file(out / "results.json"));
  ASSERT_TRUE(doc.contains("placement_shifts")) << r.err;
  for (const char* side : {"base", "head"}) expect_relinked(work.path(), side, doc);
}

// The hot code is read from the programs as built, not from their relinked copies too: a hot
// function changed only where its benchmark never runs reads "the same where it runs" with the
// control on, as without it (the copies once made every function one of four of its name).
TEST(PlacementControl, TheHotCodeIsReadFromTheProgramsAsBuilt) {
  TempRepo repo;
  const auto project = [&](const std::string& untaken) {
    write_project(repo, 2000);
    repo.write("work.cpp",
               "volatile int g_mode = 0;\n"
               "__attribute__((noinline)) unsigned long long hot_work(unsigned long long x) {\n"
               "  if (g_mode) { " +
                   untaken +
                   " }\n"
                   "  for (int i = 0; i < 2000; ++i) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }\n"
                   "  return x;\n}\n");
  };
  project("x = x * 3 + 1;");
  repo.commit("base");
  std::string long_untaken;
  for (int i = 1; i <= 30; ++i)
    long_untaken += "x = x * " + std::to_string(2 * i + 1) + " + (x >> " +
                    std::to_string(i % 7 + 1) + ") + g_mode; ";
  project(long_untaken);
  repo.commit("a longer branch nobody takes");

  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "HEAD~1", "--head", "HEAD", "--dry-run",
                       "--rounds", "8", "--instructions", "--output", out / "results.json"});
  const json doc = json::parse(read_file(out / "results.json"));
  ASSERT_TRUE(doc.contains("placement_shifts")) << r.err;
  ASSERT_TRUE(doc.contains("hot_code")) << r.err;
  const json* evidence = nullptr;
  for (const json& e : doc["hot_code"])
    if (e["name"] == "BM_Work") evidence = &e;
  ASSERT_NE(evidence, nullptr) << r.err;
  bool found = false;
  for (const json& f : (*evidence)["functions"]) {
    if (f["name"].get<std::string>().rfind("hot_work", 0) != 0) continue;
    found = true;
    EXPECT_FALSE(f["identical"].get<bool>()) << evidence->dump();
    EXPECT_TRUE(f.value("executed_same", false)) << evidence->dump();
  }
  EXPECT_TRUE(found) << evidence->dump();
}

// A comparison of the project's two commits, interrupted (SIGINT) once `rounds` rounds are
// done: its results file as the interruption left it.
std::string interrupted_after(const TempRepo& repo, const std::string& rounds_asked, int rounds,
                              const std::string& results) {
  faults::BenchprChild child({"run", "-C", repo.path(), "--base", "HEAD~1", "--head", "HEAD",
                              "--dry-run", "--rounds", rounds_asked, "--no-instructions",
                              "--output", results});
  bool done = false;
  const double deadline = faults::now_seconds() + 300;  // a hang guard only
  while (!done && faults::now_seconds() < deadline && !child.wait_for(0)) {
    try {
      done = json::parse(faults::slurp(results)).value("rounds_done", 0) >= rounds;
    } catch (const json::exception&) {
      // Not written yet.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  child.signal(SIGINT);
  EXPECT_TRUE(child.wait_for(120));
  return faults::slurp(results);
}

// `--resume` checks the relinked programs as it checks the programs: the PR's code replaced the
// base's +32 program between the interruption and the resume.
TEST(PlacementControl, AResumedComparisonRefusesARelinkedProgramReplacedSinceItsRelink) {
  TempRepo repo;
  commit_more_work(repo);
  TempDir out;
  const std::string results = out / "results.json";
  const std::string kept = interrupted_after(repo, "16", 1, results);
  const json doc = json::parse(kept);
  ASSERT_TRUE(doc.contains("placement_shifts")) << kept;
  ASSERT_FALSE(doc["complete"].get<bool>()) << "finished before the interrupt could land";

  const std::string wt = repo.path() + "/.git/benchpr/wt/";
  std::string relative;
  for (const json& x : doc["executables"])
    if (x["side"] == "base" &&
        x["path"].get<std::string>().rfind(".benchpr-placement/shift32/", 0) == 0)
      relative = x["path"];
  ASSERT_FALSE(relative.empty()) << doc["executables"].dump();
  fs::copy_file(wt + "head/" + relative, wt + "base/" + relative,
                fs::copy_options::overwrite_existing);

  faults::BenchprChild resumed({"run", "-C", repo.path(), "--dry-run", "--resume", results});
  ASSERT_TRUE(resumed.wait_for(120));
  const faults::Ending& e = resumed.ending();
  EXPECT_EQ(e.exit_code, 1) << e.err;
  EXPECT_NE(e.err.find("cannot resume: the base's " + relative +
                       " (suite micro) is not the file that was built"),
            std::string::npos)
      << e.err;
  EXPECT_EQ(faults::slurp(results), kept) << "a refused resume must leave the file as it was";
}

// Resumed, a comparison under the placement control keeps its placements and its whole cycles:
// `--rounds 6` ran 8, and resumed with `--rounds 6` it runs 8 again, reading all of them.
TEST(PlacementControl, AResumedComparisonKeepsItsPlacementsAndWholeCycles) {
  TempRepo repo;
  commit_more_work(repo);
  TempDir out;
  const std::string results = out / "results.json";
  interrupted_after(repo, "6", 2, results);
  ASSERT_FALSE(json::parse(faults::slurp(results))["complete"].get<bool>())
      << "finished before the interrupt could land";

  std::vector<std::string> again = {"run",      "-C", repo.path(), "--dry-run",
                                    "--rounds", "6",  "--resume",  results};
  faults::BenchprChild resumed(again);
  ASSERT_TRUE(resumed.wait_for(300));
  EXPECT_EQ(resumed.ending().exit_code, 0) << resumed.ending().err;
  const json doc = json::parse(faults::slurp(results));
  EXPECT_EQ(doc["placement_shifts"], json::array({0, 16, 32, 48}));
  EXPECT_TRUE(doc["complete"].get<bool>());
  EXPECT_EQ(doc["analysed_rounds"], 8) << resumed.ending().err;
}

// The PR's link command makes its relinked programs: one that links other code when benchpr
// relinks (here a faster library in place of the one built) would have three rounds in four time
// a program that was neither built nor counted. Its relinked program is compared with the program
// function by function; not the program moved, the control is off and the rounds run the
// programs as built.
TEST(PlacementControl, APRWhoseRelinkLinksOtherCodeRunsWithoutTheControl) {
  TempRepo repo;
  write_project(repo, 2000);
  repo.commit("base");
  repo.write("launch.sh",
             "#!/bin/sh\n"
             "case \"$*\" in *benchpr-placement*) exec $(echo \"$@\" | sed "
             "'s/libwork.a/libwork_fast.a/');; esac\n"
             "exec \"$@\"\n");
  repo.write("work_fast.cpp",
             "__attribute__((noinline)) unsigned long long hot_work(unsigned long long x) "
             "{ return x + 1; }\n");
  write_project(repo, 2000,
                "set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK ${CMAKE_SOURCE_DIR}/launch.sh)\n"
                "add_library(work_fast STATIC work_fast.cpp)\n");
  fs::permissions(repo.path() + "/launch.sh", fs::perms::owner_all);
  repo.commit("relinks link a faster library");

  TempDir out;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "HEAD~1", "--head", "HEAD", "--dry-run",
                       "--rounds", "4", "--no-instructions", "--output", out / "results.json"});
  const json doc = json::parse(read_file(out / "results.json"));
  EXPECT_FALSE(doc.contains("placement_shifts")) << r.err;
  EXPECT_NE(r.err.find("relinked at +16 bytes is not the program moved (`hot_work"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("no placement control"), std::string::npos) << r.err;
}

TEST(PlacementControl, ThePRsLinkCommandMayNotWriteIntoTheBase) {
  TempRepo repo;
  write_project(repo, 2000);
  repo.commit("base");
  // The PR links through a launcher that, when benchpr relinks it for the placement control,
  // plants a line in the base's source, which the base was already built and relinked from.
  repo.write("launch.sh",
             "#!/bin/sh\n"
             "case \"$*\" in *benchpr-placement*) "
             "echo '// planted' >> \"$(dirname \"$0\")/../base/work.cpp\";; esac\n"
             "exec \"$@\"\n");
  write_project(repo, 2000,
                "set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK ${CMAKE_SOURCE_DIR}/launch.sh)\n");
  fs::permissions(repo.path() + "/launch.sh", fs::perms::owner_all);
  repo.commit("link through a launcher");

  TempDir work;
  const BenchprRun r = run_benchpr_as_given(
      BENCHPR_BINARY, {"run", "-C", repo.path(), "--base", "HEAD~1", "--head", "HEAD", "--dry-run",
                       "--rounds", "2", "--no-instructions", "--workdir", work.path()});
  EXPECT_NE(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("the base's worktree changed during the PR's build and relinks (work.cpp "
                       "was rewritten)"),
            std::string::npos)
      << r.err;
  // The base's relinks ran before the PR's build: from files the PR's code had not touched.
  EXPECT_LT(r.err.find("relinking the base's timed programs"), r.err.find("building the PR"))
      << r.err;
}

}  // namespace
}  // namespace benchpr::testing
