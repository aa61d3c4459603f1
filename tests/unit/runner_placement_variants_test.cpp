// The placement control's relink: the pad, the rewritten link line, and which CMake link script
// writes a program. The relink itself runs in the integration tests (placement_control_test).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "benchpr/runner/placement_variants.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

namespace fs = std::filesystem;

TEST(PlacementVariants, ThePadIsThatManyBytesOfTrapsAlignedLikeCode) {
  const std::string pad = pad_assembly(32);
  EXPECT_NE(pad.find("\t.text\n"), std::string::npos) << pad;
  EXPECT_NE(pad.find(".p2align 4"), std::string::npos) << pad;
  EXPECT_NE(pad.find(".fill 32, 1, 0xcc"), std::string::npos) << pad;
  // Without it the linker would make the whole program's stack executable.
  EXPECT_NE(pad.find(".note.GNU-stack"), std::string::npos) << pad;
}

TEST(PlacementVariants, TheLinkLineGetsThePadFirstAndAnotherOutput) {
  const std::string line =
      "/usr/bin/c++ -O3 -DNDEBUG CMakeFiles/bench.dir/bench.cc.o -o bench  libcore.a "
      "-lbenchmark -lpthread";
  const auto out = shifted_link_line(line, "/w/build/bench", "/w/build/bench/bench",
                                     "/w/.benchpr-placement/pad16.o",
                                     "/w/.benchpr-placement/shift16/build/bench/bench");
  ASSERT_TRUE(out);
  EXPECT_EQ(
      *out,
      "/usr/bin/c++ /w/.benchpr-placement/pad16.o -O3 -DNDEBUG CMakeFiles/bench.dir/bench.cc.o "
      "-o /w/.benchpr-placement/shift16/build/bench/bench libcore.a -lbenchmark -lpthread");
  // The output named through another directory still resolves to the program.
  EXPECT_TRUE(shifted_link_line("c++ x.o -o ../bin/bench", "/w/build/src", "/w/build/bin/bench",
                                "p.o", "o"));
  EXPECT_EQ(link_driver(line), "/usr/bin/c++");
  EXPECT_EQ(link_driver("/src/launch.sh /usr/bin/x86_64-linux-gnu-g++-12 a.o -o b"),
            "/usr/bin/x86_64-linux-gnu-g++-12");
  EXPECT_EQ(link_driver("ccache clang++ a.o -o b"), "clang++");
  // Behind a launcher, the pad still comes right after the driver.
  EXPECT_EQ(shifted_link_line("/src/launch.sh /usr/bin/c++ a.o -o bench", "/w/build",
                              "/w/build/bench", "/p.o", "/o"),
            "/src/launch.sh /usr/bin/c++ /p.o a.o -o /o");
  EXPECT_EQ(link_driver("/opt/ld-wrapper a.o -o b"), "/opt/ld-wrapper");
}

TEST(PlacementVariants, ALineThatIsNotOnePlainLinkOfTheProgramIsNotRewritten) {
  const std::string cwd = "/w/build";
  const std::string program = "/w/build/bench";
  const auto rewrite = [&](const std::string& line) {
    return shifted_link_line(line, cwd, program, "/p.o", "/o");
  };
  EXPECT_FALSE(rewrite("c++ a.o -o other"));             // another program
  EXPECT_FALSE(rewrite("c++ a.o"));                      // no output named
  EXPECT_FALSE(rewrite("c++ a.o -o bench -o bench"));    // two outputs
  EXPECT_FALSE(rewrite("c++ a.o -o bench && touch x"));  // a second command
  EXPECT_FALSE(rewrite("c++ a.o -o bench; touch x"));
  EXPECT_FALSE(rewrite("c++ \"a b.o\" -o bench"));          // quoting to read
  EXPECT_FALSE(rewrite("c++ $(evil) -o bench"));            // a substitution
  EXPECT_FALSE(rewrite("c++ a.o -o bench\nc++ -o bench"));  // two lines
  EXPECT_TRUE(rewrite("c++ a.o -o bench"));
  EXPECT_FALSE(shifted_link_line("c++ a.o -o bench", cwd, program, "/p a.o", "/o"));
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(PlacementVariants, TheLinkScriptIsTheOneWhoseOutputIsTheProgram) {
  testing::TempDir dir;
  const fs::path root = fs::canonical(dir.path());
  const fs::path build = root / "build";
  write(build / "bench" / "CMakeFiles" / "bench.dir" / "link.txt",
        "/usr/bin/c++ -O3 CMakeFiles/bench.dir/b.cc.o -o bench -lbenchmark\n");
  write(build / "tests" / "CMakeFiles" / "t.dir" / "link.txt", "/usr/bin/c++ t.o -o t\n");
  // A static library's script has two lines and no -o: never taken.
  write(build / "CMakeFiles" / "core.dir" / "link.txt",
        "/usr/bin/ar qc libcore.a a.o\n"
        "/usr/bin/ranlib libcore.a\n");
  // The placement control's own folder is never searched.
  write(root / ".benchpr-placement" / "CMakeFiles" / "x.dir" / "link.txt",
        "/usr/bin/c++ -o ../build/bench/bench\n");
  const auto found = find_link_script(root.string(), (build / "bench" / "bench").string());
  ASSERT_TRUE(found);
  EXPECT_EQ(found->path, (build / "bench" / "CMakeFiles" / "bench.dir" / "link.txt").string());
  EXPECT_EQ(found->cwd, (build / "bench").string());
  EXPECT_EQ(found->line, "/usr/bin/c++ -O3 CMakeFiles/bench.dir/b.cc.o -o bench -lbenchmark");
  EXPECT_FALSE(find_link_script(root.string(), (build / "nothing").string()));

  // Two targets that both say they write the program: neither is certain.
  write(build / "CMakeFiles" / "twin.dir" / "link.txt", "/usr/bin/c++ t.o -o bench/bench\n");
  EXPECT_FALSE(find_link_script(root.string(), (build / "bench" / "bench").string()));
}

// CMake's Ninja trees: `ninja -t commands` prints the compiles first and the link last, wrapped.
TEST(PlacementVariants, TheNinjaLinkCommandIsTheLastOneUnwrapped) {
  const std::string printed =
      "/usr/bin/c++ -O2 -o microbenchmarks/CMakeFiles/bench.dir/bench.cpp.o -c bench.cpp\n"
      ": && /usr/bin/c++ -O2 -g microbenchmarks/CMakeFiles/bench.dir/bench.cpp.o -o "
      "microbenchmarks/bench  src/libroaring.a  -lrt && :\n";
  const auto line = ninja_link_line(printed);
  ASSERT_TRUE(line);
  EXPECT_EQ(*line,
            "/usr/bin/c++ -O2 -g microbenchmarks/CMakeFiles/bench.dir/bench.cpp.o -o "
            "microbenchmarks/bench  src/libroaring.a  -lrt");
  EXPECT_TRUE(shifted_link_line(*line, "/w/b", "/w/b/microbenchmarks/bench", "/p.o", "/o"));
  // A link followed by another step, or nothing printed: not one command.
  EXPECT_FALSE(ninja_link_line(": && c++ a.o -o b && strip b && :"));
  EXPECT_FALSE(ninja_link_line(""));
  EXPECT_EQ(ninja_link_line("c++ a.o -o b"), "c++ a.o -o b");

  testing::TempDir dir;
  const fs::path root = fs::canonical(dir.path());
  write(root / "build" / "build.ninja", "");
  fs::create_directories(root / "build" / "bench");
  EXPECT_EQ(ninja_build_dir(root.string(), (root / "build" / "bench" / "x").string()),
            (root / "build").string());
  EXPECT_FALSE(ninja_build_dir(root.string(), (root / "other" / "x").string()));
  // Never above the worktree: the build.ninja of root/build is outside root/build/bench.
  EXPECT_FALSE(ninja_build_dir((root / "build" / "bench").string(),
                               (root / "build" / "bench" / "x").string()));
}

TEST(PlacementVariants, RelinkedProgramsLiveOutsideTheBuildTree) {
  EXPECT_EQ(placement_dir("/w"), "/w/.benchpr-placement");
  EXPECT_EQ(placement_variant_path("/w", "build/bench/bench", 32),
            "/w/.benchpr-placement/shift32/build/bench/bench");
}

}  // namespace
}  // namespace benchpr::runner
