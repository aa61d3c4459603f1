// Reading a results file the code under test left behind: only a regular file, never a link,
// never blocking, never more than the limit. Real files, pipes and links.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>

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
  const std::string fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  // Refused without opening it: opening a pipe nobody writes to blocks for ever. The read runs
  // beside the test so a blocked open fails the test instead of hanging it: the wait is a hang
  // guard that ends as soon as the read does, and a writer then releases a blocked open.
  auto reading = std::async(std::launch::async, [&] { return error_of(fifo); });
  const bool returned = reading.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  if (!returned) {
    const int writer = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0) ::close(writer);
  }
  EXPECT_TRUE(returned) << "read_text_file opened the named pipe and waited for a writer";
  EXPECT_EQ(reading.get(), "cannot read " + fifo + ": a named pipe, not a regular file");
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
