// The digest of what the loader maps, on real ELF files compiled here: two builds of one source in
// two worktrees of equal-length paths (the path in their strings through __FILE__ and assert)
// have one digest; a byte of code changed gives another; debug info, the build ID and the
// sections the loader never maps do not count; a script is hashed whole.
#include "benchpr/runner/loaded_image_digest.hpp"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>

#include "benchpr/runner/file_digest.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

using benchpr::testing::read_file;
using benchpr::testing::run_command;
using benchpr::testing::TempDir;
using benchpr::testing::write_file;

// Code whose strings hold the absolute path of its source: assert's message and __FILE__.
const std::string kSource =
    "#include <assert.h>\n#include <stdio.h>\n"
    "static int twice(int x) { assert(x > 0); return 2 * x; }\n"
    "int main(int argc, char** argv) { (void)argv;\n"
    "  printf(\"%s %d\\n\", __FILE__, twice(argc + FACTOR)); return 0; }\n";

// Builds `source` in `worktree`/src/bench.c into `worktree`/build/bench with `flags`, from its
// absolute path (as CMake does), so that __FILE__ is that path. False when there is no compiler.
bool build(const std::string& worktree, const std::string& flags,
           const std::string& source = kSource) {
  write_file(worktree + "/src/bench.c", source);
  run_command("mkdir -p build", worktree);
  const auto r =
      run_command("cc -O2 " + flags + " " + worktree + "/src/bench.c -o build/bench", worktree);
  return r.exit_code == 0;
}

// The file offset and size of the section named `name`, read from the section table.
std::optional<std::pair<std::size_t, std::size_t>> section(const std::string& file,
                                                           const std::string& name) {
  Elf64_Ehdr eh;
  std::memcpy(&eh, file.data(), sizeof eh);
  Elf64_Shdr names;
  std::memcpy(&names, file.data() + eh.e_shoff + eh.e_shstrndx * sizeof(Elf64_Shdr), sizeof names);
  for (int i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr s;
    std::memcpy(&s, file.data() + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof s);
    if (name == file.c_str() + names.sh_offset + s.sh_name) return {{s.sh_offset, s.sh_size}};
  }
  return std::nullopt;
}

// `file` with the byte at the middle of section `name` flipped, written to `to`.
void flip_in_section(const std::string& from, const std::string& to, const std::string& name) {
  std::string bytes = read_file(from);
  const auto at = section(bytes, name);
  ASSERT_TRUE(at) << name;
  ASSERT_GT(at->second, 0u) << name;
  bytes[at->first + at->second / 2] ^= 0x5a;
  write_file(to, bytes);
}

class LoadedImageDigestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!build(base, "-g -DFACTOR=1") || !build(head, "-g -DFACTOR=1"))
      GTEST_SKIP() << "no C compiler";
  }
  TempDir dir;
  const std::string base = dir / "base";  // equal lengths, as benchpr's worktrees
  const std::string head = dir / "head";
};

TEST_F(LoadedImageDigestTest, TwoBuildsOfOneSourceInEqualLengthWorktreesHaveOneDigest) {
  const std::string b = base + "/build/bench", h = head + "/build/bench";
  // The files differ (the path in .rodata, in the debug info, the build ID) ...
  ASSERT_NE(sha256_file(b), sha256_file(h));
  ASSERT_NE(read_file(b).find(base + "/src/bench.c"), std::string::npos);
  // ... what runs does not, once each side's own path is put aside.
  const LoadedImageDigest db = loaded_image_digest(b, base);
  const LoadedImageDigest dh = loaded_image_digest(h, head);
  EXPECT_TRUE(db.elf);
  EXPECT_TRUE(dh.elf);
  EXPECT_EQ(db.digest.size(), 64u);
  EXPECT_EQ(db.digest, dh.digest);
  // Without the replacement the paths in the strings tell them apart.
  EXPECT_NE(loaded_image_digest(b, "").digest, loaded_image_digest(h, "").digest);
}

TEST_F(LoadedImageDigestTest, OneChangedConstantGivesAnotherDigest) {
  ASSERT_TRUE(build(head, "-g -DFACTOR=2"));
  EXPECT_NE(loaded_image_digest(base + "/build/bench", base).digest,
            loaded_image_digest(head + "/build/bench", head).digest);
}

TEST_F(LoadedImageDigestTest, OneByteOfCodeOrDataChangedGivesAnotherDigest) {
  const std::string b = base + "/build/bench";
  const std::string want = loaded_image_digest(b, base).digest;
  for (const char* name : {".text", ".rodata", ".data", ".dynamic", ".init_array"}) {
    flip_in_section(b, dir / "patched", name);
    EXPECT_NE(loaded_image_digest(dir / "patched", base).digest, want) << name;
  }
}

TEST_F(LoadedImageDigestTest, BytesTheLoaderNeverMapsDoNotCount) {
  const std::string b = base + "/build/bench";
  const std::string want = loaded_image_digest(b, base).digest;
  for (const char* name : {".debug_info", ".debug_str", ".comment", ".symtab", ".strtab"}) {
    flip_in_section(b, dir / "patched", name);
    EXPECT_EQ(loaded_image_digest(dir / "patched", base).digest, want) << name;
  }
}

TEST_F(LoadedImageDigestTest, DebugInfoAndTheBuildIdDoNotCount) {
  // -g0 against -g: no .debug_* sections, another build ID, another section table.
  ASSERT_TRUE(build(head, "-g0 -DFACTOR=1"));
  const std::string b = base + "/build/bench", h = head + "/build/bench";
  ASSERT_LT(read_file(h).size(), read_file(b).size());
  EXPECT_EQ(loaded_image_digest(b, base).digest, loaded_image_digest(h, head).digest);
}

TEST_F(LoadedImageDigestTest, AFileHoldingTheTokenIsNotCanonicalised) {
  // The token for this path length, written into the program's strings: with it in the file,
  // replacing the path could make two different programs alike, so nothing is replaced.
  std::string token = "\\001";
  const std::string fill = "BENCHPR-WORKTREE/";
  for (std::size_t i = 0; i + 1 < base.size(); ++i) token += fill[i % fill.size()];
  const std::string source = kSource + "const char* volatile kToken = \"" + token + "\";\n";
  ASSERT_TRUE(build(base, "-g -DFACTOR=1", source));
  const std::string b = base + "/build/bench";
  EXPECT_EQ(loaded_image_digest(b, base).digest, loaded_image_digest(b, "").digest);
}

TEST(LoadedImageDigest, AScriptIsHashedWhole) {
  TempDir dir;
  write_file(dir / "run.sh", "#!/bin/sh\nexec build/bench \"$@\"\n");
  const LoadedImageDigest d = loaded_image_digest(dir / "run.sh", dir.path());
  EXPECT_FALSE(d.elf);
  EXPECT_EQ(d.digest, sha256_file(dir / "run.sh"));
  // So is a file that starts like an ELF file but is cut short.
  write_file(dir / "cut", std::string("\x7f"
                                      "ELF\x02\x01\x01",
                                      7) +
                              std::string(40, '\0'));
  EXPECT_FALSE(loaded_image_digest(dir / "cut", "").elf);
  EXPECT_THROW(loaded_image_digest(dir / "missing", ""), FileDigestError);
}

}  // namespace
}  // namespace benchpr::runner
