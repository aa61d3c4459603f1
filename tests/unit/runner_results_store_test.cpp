// Reading a results file the code under test left behind: only a regular file, never a link,
// never blocking, never more than the limit. Real files, pipes and links.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>

#include "benchpr/runner/results_store.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::runner {
namespace {

using testing::TempDir;

std::string error_of(const std::string& path, std::size_t max = kMaxReadBytes) {
  try {
    read_text_file(path, max);
  } catch (const StoreError& e) {
    return e.what();
  }
  return "";
}

TEST(ReadTextFile, ReadsARegularFile) {
  TempDir dir;
  testing::write_file(dir / "r.json", "{\"a\": 1}\n");
  EXPECT_EQ(read_text_file(dir / "r.json"), "{\"a\": 1}\n");
  testing::write_file(dir / "empty", "");
  EXPECT_EQ(read_text_file(dir / "empty"), "");
}

TEST(ReadTextFile, ANamedPipeIsRefusedAtOnce) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(error_of(dir / "fifo"),
            "cannot read " + (dir / "fifo") + ": a named pipe, not a regular file");
  // Refused without opening it: opening a pipe nobody writes to would block for ever, so any
  // bound tells the two apart; 5 s is one a loaded machine cannot reach for a stat().
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(ReadTextFile, ALinkIsNotFollowed) {
  TempDir dir;
  ASSERT_EQ(::symlink("/dev/zero", (dir / "zero").c_str()), 0);
  EXPECT_EQ(error_of(dir / "zero"),
            "cannot read " + (dir / "zero") + ": a symbolic link, not a file");
  testing::write_file(dir / "real", "x");
  ASSERT_EQ(::symlink((dir / "real").c_str(), (dir / "link").c_str()), 0);
  EXPECT_NE(error_of(dir / "link"), "");
}

TEST(ReadTextFile, DirectoriesDevicesAndOversizedFilesAreRefused) {
  TempDir dir;
  EXPECT_EQ(error_of(dir.path()),
            "cannot read " + dir.path() + ": a directory, not a regular file");
  EXPECT_EQ(error_of("/dev/zero"), "cannot read /dev/zero: a character device, not a regular file");
  testing::write_file(dir / "big", std::string(3u << 20, 'x'));
  EXPECT_EQ(error_of(dir / "big", 2u << 20),
            "cannot read " + (dir / "big") +
                ": the file has 3145728 bytes, more than the limit "
                "of 2 MiB");
  EXPECT_NE(error_of(dir / "missing").find("No such file or directory"), std::string::npos);
}

}  // namespace
}  // namespace benchpr::runner
