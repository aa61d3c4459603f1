// Per-round copies of the suites' executables and the checks that each side runs what its build
// made: SHA-256 against known vectors, the copies' paths, and every way the other side's code
// could rewrite a side's files between rounds.
#include "benchpr/runner/suite_files.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <set>
#include <string>

#include "benchpr/runner/file_digest.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

namespace fs = std::filesystem;
using benchpr::testing::read_file;
using benchpr::testing::TempDir;
using benchpr::testing::write_file;

TEST(Sha256, MatchesTheStandardsTestVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // A million bytes, fed in pieces that straddle the 64-byte blocks.
  Sha256 s;
  const std::string piece(1000, 'a');
  for (int i = 0; i < 1000; ++i) s.update(piece.data(), piece.size());
  EXPECT_EQ(s.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, CopyHashesWhatItWritesAndKeepsTheExecuteBits) {
  TempDir dir;
  const std::string content(3 << 20, 'x');
  write_file(dir / "from", content);
  ::chmod((dir / "from").c_str(), 0755);
  EXPECT_EQ(copy_file_hashed(dir / "from", dir / "to"), sha256_hex(content));
  EXPECT_EQ(read_file(dir / "to"), content);
  EXPECT_EQ(sha256_file(dir / "to"), sha256_hex(content));
  struct stat st {};
  ASSERT_EQ(::stat((dir / "to").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  EXPECT_THROW(sha256_file(dir / "missing"), FileDigestError);
}

TEST(LeadingProgram, TakesOnlyAPlainPath) {
  EXPECT_EQ(leading_program("build/bench/core_bench --benchmark_format=json"),
            "build/bench/core_bench");
  EXPECT_EQ(leading_program("  ./run.sh"), "./run.sh");
  EXPECT_EQ(leading_program("/opt/x/bench"), "/opt/x/bench");
  EXPECT_EQ(leading_program("FOO=1 B_2='/x/out dir.json' build/bench all"), "build/bench");
  EXPECT_EQ(leading_program("BENCHMARK_OUT={out} build/bench all"), "build/bench");
  EXPECT_FALSE(leading_program("FOO=1"));
  EXPECT_FALSE(leading_program("FOO=\"1\" build/bench"));
  EXPECT_FALSE(leading_program("1FOO=1 build/bench"));
  EXPECT_FALSE(leading_program("\"build/my bench\" x"));
  EXPECT_FALSE(leading_program("build/bench;rm -rf x"));
  EXPECT_FALSE(leading_program("$HOME/bench"));
  EXPECT_FALSE(leading_program(""));
}

// Two worktrees as materialise leaves them: tracked files listed in the manifest, and an
// executable (a copy of /bin/true, a real ELF file) built beside them.
struct Worktrees {
  TempDir dir;
  std::string base = dir / "wt/base";
  std::string head = dir / "wt/head";
  std::string copies = dir / "out/exe";

  Worktrees() {
    for (const std::string& root : {base, head}) {
      write_file(root + "/bench.sh", "#!/bin/sh\necho hi\n");
      write_file(root + "/src/a.cc", "int a;\n");
      write_file(root + "/.benchpr-manifest",
                 std::string("benchpr-manifest 1\nfbench.sh") + '\0' + "fsrc/a.cc" + '\0');
      fs::create_directories(root + "/build");
      fs::copy_file("/bin/true", root + "/build/bench");
    }
  }
  std::vector<SuiteConfig> suites() const {
    SuiteConfig exe;
    exe.name = "core";
    exe.run = "build/bench --benchmark_format=json";
    SuiteConfig script;
    script.name = "script";
    script.run = "./bench.sh";
    script.format = FormatKind::Command;
    return {exe, script};
  }
};

TEST(SuiteFiles, RunsFreshCopiesFromPathsOfEqualLength) {
  Worktrees w;
  SuiteFiles files(w.copies, w.base, w.head);
  const auto lines = files.record(w.suites(), false);
  ASSERT_EQ(lines.size(), 1u);  // the script is not copied, and says so
  EXPECT_NE(lines[0].find("script"), std::string::npos);
  files.begin_round();
  const std::string base_cmd = files.command_for("core", Side::Base, "build/bench --x");
  const std::string head_cmd = files.command_for("core", Side::Head, "build/bench --x");
  EXPECT_EQ(base_cmd, w.copies + "/base/0/bench --x");
  EXPECT_EQ(head_cmd.size(), base_cmd.size());
  EXPECT_TRUE(fs::exists(w.copies + "/base/0/bench"));
  EXPECT_EQ(sha256_file(w.copies + "/head/0/bench"), sha256_file("/bin/true"));
  // A fresh file every round, not the one before.
  struct stat first {};
  ::stat((w.copies + "/base/0/bench").c_str(), &first);
  EXPECT_NO_THROW(files.verify("core", Side::Base));
  files.end_round();
  EXPECT_FALSE(fs::exists(w.copies + "/base"));
  files.begin_round();
  EXPECT_TRUE(fs::exists(w.copies + "/base/0/bench"));
  EXPECT_EQ(files.command_for("core", Side::Base, "OUT='/o/build/bench' build/bench"),
            "OUT='/o/build/bench' " + w.copies + "/base/0/bench");
  // Scripts run in place.
  EXPECT_EQ(files.command_for("script", Side::Base, "./bench.sh"), "./bench.sh");
  EXPECT_TRUE(files.environment_for("core", Side::Base).empty());  // no worktree libraries
}

TEST(SuiteFiles, AnExecutableRewrittenAfterTheBuildEndsTheComparison) {
  Worktrees w;
  SuiteFiles files(w.copies, w.base, w.head);
  files.record(w.suites(), false);
  fs::remove(w.base + "/build/bench");
  fs::copy_file("/bin/false", w.base + "/build/bench");
  try {
    files.begin_round();
    FAIL() << "a rewritten executable was copied";
  } catch (const TamperError& e) {
    EXPECT_NE(std::string(e.what()).find("base's benchmark executable build/bench changed"),
              std::string::npos)
        << e.what();
  }
}

TEST(SuiteFiles, ACopyRewrittenBeforeItsRunEndsTheComparison) {
  Worktrees w;
  SuiteFiles files(w.copies, w.base, w.head);
  files.record(w.suites(), false);
  files.begin_round();
  write_file(w.copies + "/base/0/bench", "#!/bin/sh\nsleep 1\n");
  EXPECT_NO_THROW(files.verify("core", Side::Head));
  EXPECT_THROW(files.verify("core", Side::Base), TamperError);
}

// The placement control's relinked programs (stand-ins here: /bin/false at +16, /bin/echo at +32)
// run in their rounds from the same copy path, are checked like the program, and are recorded so
// that a resumed comparison finds them as they were.
TEST(SuiteFiles, ARoundOfAnotherPlacementRunsThatRelinkedProgramCheckedLikeTheProgram) {
  Worktrees w;
  for (const std::string& root : {w.base, w.head}) {
    fs::create_directories(root + "/.benchpr-placement/shift16/build");
    fs::create_directories(root + "/.benchpr-placement/shift32/build");
    fs::copy_file("/bin/false", root + "/.benchpr-placement/shift16/build/bench");
    fs::copy_file("/bin/echo", root + "/.benchpr-placement/shift32/build/bench");
  }
  SuiteFiles files(w.copies, w.base, w.head);
  files.record(w.suites(), false, {0, 16, 32});
  std::set<std::string> recorded;
  for (const ExecutableDigest& x : files.digests())
    if (x.side == Side::Head) recorded.insert(x.path + " " + x.sha256.substr(0, 8));
  EXPECT_TRUE(recorded.count("build/bench " + sha256_file("/bin/true").substr(0, 8)));
  EXPECT_TRUE(recorded.count(".benchpr-placement/shift16/build/bench " +
                             sha256_file("/bin/false").substr(0, 8)));
  EXPECT_TRUE(recorded.count(".benchpr-placement/shift32/build/bench " +
                             sha256_file("/bin/echo").substr(0, 8)));

  files.begin_round(1);
  EXPECT_EQ(sha256_file(w.copies + "/base/0/bench"), sha256_file("/bin/false"));
  EXPECT_NO_THROW(files.verify("core", Side::Base));
  files.begin_round(2);
  EXPECT_EQ(sha256_file(w.copies + "/head/0/bench"), sha256_file("/bin/echo"));
  EXPECT_NO_THROW(files.verify("core", Side::Head));
  files.begin_round(0);
  EXPECT_EQ(sha256_file(w.copies + "/head/0/bench"), sha256_file("/bin/true"));
  EXPECT_NO_THROW(files.verify("core", Side::Head));
  files.end_round();

  // The PR's code rewrites the base's relinked program: its round ends the comparison, naming it.
  fs::remove(w.base + "/.benchpr-placement/shift32/build/bench");
  fs::copy_file("/bin/true", w.base + "/.benchpr-placement/shift32/build/bench");
  EXPECT_NO_THROW(files.begin_round(1));
  try {
    files.begin_round(2);
    FAIL() << "a rewritten relinked program was copied";
  } catch (const TamperError& e) {
    EXPECT_NE(std::string(e.what()).find("base's benchmark executable build/bench relinked at +32 "
                                         "bytes"),
              std::string::npos)
        << e.what();
  }
  // Removed: the same.
  fs::remove(w.base + "/.benchpr-placement/shift16/build/bench");
  EXPECT_THROW(files.begin_round(1), TamperError);
}

// A program that was not relinked (a suite of counts only is not timed) runs as built in the
// rounds of every placement, and records no relinked copies.
TEST(SuiteFiles, AProgramWithoutRelinkedCopiesRunsAsBuiltInEveryPlacement) {
  Worktrees w;
  SuiteFiles files(w.copies, w.base, w.head);
  files.record(w.suites(), false, {0, 16, 32, 48});
  for (const ExecutableDigest& x : files.digests())
    EXPECT_EQ(x.path.find(".benchpr-placement"), std::string::npos) << x.path;
  EXPECT_NO_THROW(files.begin_round(3));
  EXPECT_EQ(sha256_file(w.copies + "/base/0/bench"), sha256_file("/bin/true"));
  EXPECT_NO_THROW(files.verify("core", Side::Base));
}

TEST(SuiteFiles, TheOtherSidesTrackedScriptRewrittenEndsTheComparison) {
  Worktrees w;
  SuiteFiles files(w.copies, w.base, w.head);
  files.record(w.suites(), false);
  // The base ran and changed its own file: its own business.
  write_file(w.base + "/src/a.cc", "int b;\n");
  files.after_run(Side::Base);
  EXPECT_NO_THROW(files.verify("script", Side::Base));
  // Then the PR's run rewrote the base's script.
  write_file(w.base + "/bench.sh", "#!/bin/sh\necho fast\n");
  files.after_run(Side::Head);
  try {
    files.verify("script", Side::Base);
    FAIL() << "a rewritten script went unnoticed";
  } catch (const TamperError& e) {
    EXPECT_NE(std::string(e.what()).find("bench.sh"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("PR"), std::string::npos) << e.what();
  }
}

TEST(SuiteFiles, WarnsOfAnExecutableOlderThanItsCheckoutWhenBenchprDidNotBuild) {
  Worktrees w;
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24);
  fs::last_write_time(w.head + "/build/bench", long_ago);
  SuiteFiles quiet(w.copies, w.base, w.head);
  for (const std::string& line : quiet.record(w.suites(), false))
    EXPECT_EQ(line.find("older than the checkout"), std::string::npos) << line;
  SuiteFiles files(w.copies, w.base, w.head);
  int warnings = 0;
  for (const std::string& line : files.record(w.suites(), true))
    if (line.find("PR's build/bench is older than the checkout") != std::string::npos) ++warnings;
  EXPECT_EQ(warnings, 1);
}

TEST(SuiteFiles, WarnsOfAProgramOutsideTheWorktrees) {
  Worktrees w;
  SuiteConfig outside;
  outside.name = "outside";
  outside.run = "/bin/true";
  SuiteFiles files(w.copies, w.base, w.head);
  const auto lines = files.record({outside}, false);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("both sides run that same file"), std::string::npos) << lines[0];
}

TEST(RemoveUntrackedFiles, LeavesOnlyWhatTheRevisionTracks) {
  Worktrees w;
  write_file(w.base + "/build/sub/lib.a", "old");
  EXPECT_EQ(remove_untracked_files(w.base), 2u);  // build/bench and build/sub/lib.a
  EXPECT_TRUE(fs::exists(w.base + "/bench.sh"));
  EXPECT_TRUE(fs::exists(w.base + "/src/a.cc"));
  EXPECT_TRUE(fs::exists(w.base + "/.benchpr-manifest"));
  EXPECT_FALSE(fs::exists(w.base + "/build/bench"));
  // Without a manifest nothing is known to be an output: nothing is removed.
  fs::remove(w.head + "/.benchpr-manifest");
  EXPECT_EQ(remove_untracked_files(w.head), 0u);
  EXPECT_TRUE(fs::exists(w.head + "/build/bench"));
}

TEST(WholeTreeState, NamesTheFirstFileAddedRemovedOrRewritten) {
  TempDir dir;
  write_file(dir / "a/x", "1");
  write_file(dir / "b", "2");
  const WholeTreeState before = whole_tree_state(dir.path());
  EXPECT_EQ(first_tree_change(before, whole_tree_state(dir.path())), std::nullopt);
  write_file(dir / "a/x", "3");
  EXPECT_EQ(first_tree_change(before, whole_tree_state(dir.path())), "a/x was rewritten");
  const WholeTreeState rewritten = whole_tree_state(dir.path());
  fs::remove(dir / "b");
  EXPECT_EQ(first_tree_change(rewritten, whole_tree_state(dir.path())), "b was removed");
  const WholeTreeState removed = whole_tree_state(dir.path());
  write_file(dir / "c", "");
  EXPECT_EQ(first_tree_change(removed, whole_tree_state(dir.path())), "c was added");
}

// A project built with shared libraries of its own (CMake's default RUNPATH into the build tree):
// the copies must carry them too, or every round would still load the same library files.
TEST(WorktreeLibraries, FollowsTheRunpathIntoTheWorktreeTransitively) {
  TempDir dir;
  write_file(dir / "wt/inner.c", "int inner(void) { return 1; }\n");
  write_file(dir / "wt/outer.c", "int inner(void);\nint outer(void) { return inner(); }\n");
  write_file(dir / "wt/main.c", "int outer(void);\nint main(void) { return outer() - 1; }\n");
  const auto built = benchpr::testing::run_command(
      "mkdir -p build/lib && cc -shared -fPIC inner.c -o build/lib/libinner.so && "
      "cc -shared -fPIC outer.c -o build/lib/libouter.so -Lbuild/lib -linner "
      "-Wl,--enable-new-dtags,-rpath,'$ORIGIN' && "
      "cc main.c -o build/bench -Lbuild/lib -louter -linner "
      "-Wl,--enable-new-dtags,-rpath," +
          (dir / "wt/build/lib"),
      dir / "wt");
  if (built.exit_code != 0) GTEST_SKIP() << "no C compiler: " << built.output;
  const auto libs = worktree_libraries(dir / "wt/build/bench", fs::canonical(dir / "wt").string());
  std::set<std::string> names;
  for (const LibraryFile& l : libs) names.insert(l.name);
  EXPECT_EQ(names, (std::set<std::string>{"libinner.so", "libouter.so"}));
  // The system's libraries are not the worktree's.
  EXPECT_TRUE(worktree_libraries("/bin/true", fs::canonical(dir / "wt").string()).empty());

  // Run from its copy with the copied libraries, and equal environments on both sides.
  fs::create_directories(dir / "wt2");
  fs::copy(dir / "wt", dir / "wt2", fs::copy_options::recursive);
  SuiteConfig suite;
  suite.name = "c";
  suite.run = "build/bench";
  SuiteFiles files(dir / "out/exe", dir / "wt", dir / "wt2");
  files.record({suite}, false);
  files.begin_round();
  const auto env = files.environment_for("c", Side::Base);
  ASSERT_EQ(env.size(), 1u);
  EXPECT_EQ(env[0].first, "LD_LIBRARY_PATH");
  EXPECT_EQ(env[0].second.rfind(dir / "out/exe/base/0/lib", 0), 0u) << env[0].second;
  EXPECT_EQ(files.environment_for("c", Side::Head)[0].second.size(), env[0].second.size());
  EXPECT_TRUE(fs::exists(dir / "out/exe/base/0/lib/libinner.so"));
  const auto ran = benchpr::testing::run_command(
      "LD_LIBRARY_PATH=" + env[0].second + " " + files.command_for("c", Side::Base, "build/bench"),
      dir / "wt");
  EXPECT_EQ(ran.exit_code, 0) << ran.output;
}

}  // namespace
}  // namespace benchpr::runner
