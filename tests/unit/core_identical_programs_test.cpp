// Identical programs need no timing: which suites run the same code and data on both sides, from
// hand-made digests, and what the analysis, the recommendation and the results file make of them.
#include "benchpr/core/evidence/identical_programs.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/verdicts/analysis.hpp"

namespace benchpr {
namespace {

const std::string kA(64, 'a');
const std::string kB(64, 'b');
const std::string kC(64, 'c');

ProgramImage elf(const std::string& suite, Side side, const std::string& path,
                 const std::string& digest) {
  return {suite, side, path, digest, true};
}

TEST(IdenticalPrograms, ASuiteWhoseProgramsHaveTheSameDigestsOnBothSidesIsIdentical) {
  const std::vector<ProgramImage> images = {elf("micro", Side::Base, "build/bench", kA),
                                            elf("micro", Side::Head, "build/bench", kA),
                                            elf("micro", Side::Base, "build/libcore.so", kB),
                                            elf("micro", Side::Head, "build/libcore.so", kB)};
  EXPECT_EQ(identical_suites(images), std::vector<std::string>{"micro"});
}

TEST(IdenticalPrograms, OneDifferentDigestMakesTheSuiteTimed) {
  // The executable is the same, the library it loads from the worktree is not.
  const std::vector<ProgramImage> images = {elf("micro", Side::Base, "build/bench", kA),
                                            elf("micro", Side::Head, "build/bench", kA),
                                            elf("micro", Side::Base, "build/libcore.so", kB),
                                            elf("micro", Side::Head, "build/libcore.so", kC)};
  EXPECT_TRUE(identical_suites(images).empty());
}

TEST(IdenticalPrograms, ALibraryOnOneSideOnlyMakesTheSuiteTimed) {
  // The PR's build put a library where the loader looks first: the base loads another one.
  const std::vector<ProgramImage> images = {elf("micro", Side::Base, "build/bench", kA),
                                            elf("micro", Side::Head, "build/bench", kA),
                                            elf("micro", Side::Head, "build/lib/libm.so.6", kB)};
  EXPECT_TRUE(identical_suites(images).empty());
}

TEST(IdenticalPrograms, TheSameDigestAtAnotherPathIsNotTheSameSuite) {
  const std::vector<ProgramImage> images = {elf("micro", Side::Base, "build/bench", kA),
                                            elf("micro", Side::Head, "build/other", kA)};
  EXPECT_TRUE(identical_suites(images).empty());
}

TEST(IdenticalPrograms, AScriptNeverMakesASuiteIdentical) {
  // Its whole file is the same, but what it starts is covered by no digest.
  std::vector<ProgramImage> images = {elf("sh", Side::Base, "run.sh", kA),
                                      elf("sh", Side::Head, "run.sh", kA)};
  images[0].loaded_image = images[1].loaded_image = false;
  EXPECT_TRUE(identical_suites(images).empty());
  // Nor does an empty digest (a program that could not be read), even when both are empty.
  const std::vector<ProgramImage> unread = {elf("x", Side::Base, "b", ""),
                                            elf("x", Side::Head, "b", "")};
  EXPECT_TRUE(identical_suites(unread).empty());
}

TEST(IdenticalPrograms, ASuiteWithAProgramOnOneSideOnlyOrNoneIsTimed) {
  // The PR's side runs a command (no program of the worktree): nothing says what it runs.
  const std::vector<ProgramImage> one_side = {elf("micro", Side::Base, "build/bench", kA)};
  EXPECT_TRUE(identical_suites(one_side).empty());
  EXPECT_TRUE(identical_suites({}).empty());
}

TEST(IdenticalPrograms, EachSuiteIsDecidedAloneInTheOrderItCame) {
  const std::vector<ProgramImage> images = {
      elf("z_same", Side::Base, "b1", kA),  elf("changed", Side::Base, "b2", kA),
      elf("a_same", Side::Base, "b3", kC),  elf("z_same", Side::Head, "b1", kA),
      elf("changed", Side::Head, "b2", kB), elf("a_same", Side::Head, "b3", kC),
      elf("a_same", Side::Head, "b3", kC)};  // listed twice alike: still one program
  EXPECT_EQ(identical_suites(images), (std::vector<std::string>{"z_same", "a_same"}));
}

TEST(IdenticalPrograms, OnePathWithTwoDigestsOnOneSideIsNotIdentical) {
  const std::vector<ProgramImage> images = {elf("micro", Side::Base, "build/bench", kA),
                                            elf("micro", Side::Base, "build/bench", kB),
                                            elf("micro", Side::Head, "build/bench", kA)};
  EXPECT_TRUE(identical_suites(images).empty());
}

// What a changed file may be to a program that stays identical: the rule by which a pull request's
// changed files let its identical suites stand unchanged, or have them timed.
TEST(IdenticalProgramsChangedFiles, CompiledSourcesAndHeadersAreTheBuildsOwn) {
  for (const char* path :
       {"src/a.c", "src/a.cc", "src/a.cpp", "lib/x.cxx", "include/x.h", "include/x.hpp",
        "include/x.hh", "include/x.inl", "src/A.CPP", "src/asm/crc.S"})
    EXPECT_EQ(changed_file_kind(path), ChangedFileKind::CompiledSource) << path;
}

TEST(IdenticalProgramsChangedFiles, DocumentsAreTheUsualNamesAndTheDocumentationDirectory) {
  for (const char* path : {"README.md", "README", "src/README.md", "LICENSE", "LICENSE.txt",
                           "CHANGELOG.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "notes.rst",
                           "docs/guide.md", "docs/sub/page.rst", "doc/manual.txt", "docs/a.adoc"})
    EXPECT_EQ(changed_file_kind(path), ChangedFileKind::Documentation) << path;
}

TEST(IdenticalProgramsChangedFiles, EverythingElseABenchmarkMayReadAtRunTime) {
  for (const char* path :
       {// Data, fixtures and configuration read when a benchmark runs.
        "data/input.txt", "bench/corpus/sample.md", "fixtures/a.json", "bench/cases.csv",
        "config.yaml", ".benchpr.yml", "input.txt",
        // Programs and libraries that a benchmark starts or opens, tracked as they are.
        "tools/run.sh", "scripts/gen.py", "lib/libplugin.so", "bin/helper",
        // Build scripts decide what the build copies or generates beside the programs.
        "CMakeLists.txt", "cmake/flags.cmake", "Makefile", "meson.build",
        // Near misses of the documents' names and of the sources' extensions.
        "readme_input.json", "LICENSE.json", "docs/figure.png", "src/x.cpp.in", ".h",
        // A submodule's path.
        "third_party/googletest"})
    EXPECT_EQ(changed_file_kind(path), ChangedFileKind::Other) << path;
}

TEST(IdenticalProgramsChangedFiles, TheFirstOtherFileIsNamedAndSourcesAskForEveryBuiltProgram) {
  EXPECT_FALSE(check_changed_files({}).other);
  EXPECT_FALSE(check_changed_files({}).compiled_sources);
  const ChangedFilesCheck docs = check_changed_files({"README.md", "docs/a.md"});
  EXPECT_FALSE(docs.other);
  EXPECT_FALSE(docs.compiled_sources);
  const ChangedFilesCheck source = check_changed_files({"README.md", "src/a.cpp"});
  EXPECT_FALSE(source.other);
  EXPECT_TRUE(source.compiled_sources);
  const ChangedFilesCheck data =
      check_changed_files({"README.md", "data/b.txt", "data/c.json", "src/a.cpp"});
  EXPECT_EQ(data.other, "data/b.txt");
  EXPECT_TRUE(data.compiled_sources);
}

TEST(IdenticalProgramsChangedFiles, EveryBuiltProgramMustBeTheSameOnBothSides) {
  const auto built = [](Side side, const std::string& path, const std::string& digest) {
    return ProgramImage{"", side, path, digest, true};
  };
  EXPECT_FALSE(first_different_program({}));
  EXPECT_FALSE(first_different_program(
      {built(Side::Base, "build/bench", kA), built(Side::Head, "build/bench", kA),
       built(Side::Base, "build/tool", kB), built(Side::Head, "build/tool", kB)}));
  // A helper that a benchmark starts or a plugin it opens, rebuilt from a changed source.
  EXPECT_EQ(
      first_different_program(
          {built(Side::Base, "build/bench", kA), built(Side::Head, "build/bench", kA),
           built(Side::Base, "build/plugin.so", kB), built(Side::Head, "build/plugin.so", kC)}),
      "build/plugin.so");
  // On one side only; without a digest; a loaded image against a whole file's digest.
  EXPECT_EQ(first_different_program({built(Side::Head, "build/new", kA)}), "build/new");
  EXPECT_EQ(first_different_program({built(Side::Base, "b", ""), built(Side::Head, "b", "")}), "b");
  ProgramImage whole = built(Side::Head, "b", kA);
  whole.loaded_image = false;
  EXPECT_EQ(first_different_program({built(Side::Base, "b", kA), whole}), "b");
}

// A session that found suite "same" identical (its benchmarks listed, never timed) and timed
// nothing else: no rounds at all.
Results identical_session() {
  Results r;
  r.base = {"main", std::string(40, 'a'), "base"};
  r.head = {"pr", std::string(40, 'b'), "head"};
  SuiteConfig same;
  same.name = "same";
  same.run = "build/bench";
  r.config.suites = {same};
  r.complete = true;
  r.stop = {StopKind::IdenticalPrograms, 0, {}};
  for (const char* name : {"BM_A", "BM_B/64"}) {
    BenchmarkSeries s;
    s.suite = "same";
    s.name = name;
    r.series.push_back(s);
  }
  r.identical_suites = {"same"};
  return r;
}

TEST(IdenticalPrograms, TheirBenchmarksAreUnchangedWithTheReasonAndTheRecommendationMerges) {
  const Analysis a = analyse(identical_session());
  ASSERT_EQ(a.benchmarks.size(), 2u);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    EXPECT_EQ(b.verdict, Verdict::Unchanged) << b.name;
    EXPECT_EQ(b.reason, kIdenticalProgramsReason) << b.name;
    EXPECT_EQ(b.change, 0) << b.name;
    EXPECT_EQ(b.rounds_used, 0) << b.name;
  }
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge);
  EXPECT_NE(a.recommendation.reason.find("byte-identical"), std::string::npos)
      << a.recommendation.reason;
  EXPECT_NE(a.recommendation.reason.find("2 benchmarks"), std::string::npos)
      << a.recommendation.reason;
}

TEST(IdenticalPrograms, AnAdaptiveSessionsLooksKeepThem) {
  // With a budget the analysis replays the session's looks on results made from these ones:
  // the identical suites are part of what the comparison is, so no look reads them as open.
  Results r = identical_session();
  r.config.budget_seconds = 60;
  EXPECT_EQ(same_comparison(r).identical_suites, r.identical_suites);
  const Analysis a = analyse_session(r);
  ASSERT_EQ(a.benchmarks.size(), 2u);
  for (const BenchmarkAnalysis& b : a.benchmarks) {
    EXPECT_EQ(b.verdict, Verdict::Unchanged) << b.name;
    EXPECT_EQ(b.reason, kIdenticalProgramsReason) << b.name;
  }
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge) << a.recommendation.reason;
}

TEST(IdenticalPrograms, ATimedSuiteBesideAnIdenticalOneIsJudgedByItsRounds) {
  Results r = identical_session();
  SuiteConfig timed;
  timed.name = "timed";
  timed.run = "build/other";
  r.config.suites.push_back(timed);
  r.plan = {{0, false, Side::Base}, {1, false, Side::Head}, {2, false, Side::Base},
            {3, false, Side::Head}, {4, false, Side::Base}, {5, false, Side::Head}};
  r.rounds_done = 6;
  BenchmarkSeries s;
  s.suite = "timed";
  s.name = "BM_T";
  s.unit = "ns";
  s.base = {100, 101, 99, 100, 100.5, 99.5};
  s.head = {100, 100.5, 99.5, 100, 101, 99};
  r.series.push_back(s);
  const Analysis a = analyse(r);
  ASSERT_EQ(a.benchmarks.size(), 3u);
  const BenchmarkAnalysis& t = a.benchmarks[2];
  EXPECT_EQ(t.name, "BM_T");
  EXPECT_NE(t.reason, kIdenticalProgramsReason);
  EXPECT_EQ(t.rounds_used, 6);
  EXPECT_EQ(a.recommendation.kind, RecommendationKind::Merge) << a.recommendation.reason;
  EXPECT_NE(a.recommendation.reason.find("2 of them in byte-identical programs"), std::string::npos)
      << a.recommendation.reason;
}

TEST(IdenticalPrograms, TheResultsFileKeepsTheIdenticalSuites) {
  const Results r = identical_session();
  const Results back = results_from_string(results_to_string(r));
  EXPECT_EQ(back.identical_suites, r.identical_suites);
  EXPECT_EQ(analyse(back).benchmarks.at(0).reason, kIdenticalProgramsReason);
  // A name that is no suite of the configuration is refused.
  Results odd = r;
  odd.identical_suites = {"nowhere"};
  EXPECT_THROW(results_from_string(results_to_string(odd)), ResultsFormatError);
}

}  // namespace
}  // namespace benchpr
