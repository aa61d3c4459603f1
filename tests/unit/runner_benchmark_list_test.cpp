// Reading a Google Benchmark suite's `--benchmark_list_tests` output into names: the one reader
// the shard split, the crash probe, the identical-program check and the instruction counts share.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "benchpr/runner/benchmark_list.hpp"

namespace benchpr::runner {
namespace {

using Names = std::vector<std::string>;

TEST(BenchmarkList, OneNameALineInTheOrderListed) {
  EXPECT_EQ(parse_benchmark_list("BM_B/8\nBM_A/1024\nBM_A/threads:2\n"),
            (Names{"BM_B/8", "BM_A/1024", "BM_A/threads:2"}));
  // The last line needs no newline.
  EXPECT_EQ(parse_benchmark_list("BM_X\nBM_Y"), (Names{"BM_X", "BM_Y"}));
}

TEST(BenchmarkList, TrailingSpacesCarriageReturnsAndEmptyLinesAreDropped) {
  EXPECT_EQ(parse_benchmark_list("BM_A \r\n\n\r\n  \nBM_B\r\r\n"), (Names{"BM_A", "BM_B"}));
  // Leading spaces and spaces inside a name are the name's.
  EXPECT_EQ(parse_benchmark_list(" BM_A x\n"), (Names{" BM_A x"}));
}

TEST(BenchmarkList, NothingListedIsNoName) {
  EXPECT_TRUE(parse_benchmark_list("").empty());
  EXPECT_TRUE(parse_benchmark_list("\n\n \r\n").empty());
}

TEST(BenchmarkList, BytesThatAreNotTextStayAsListed) {
  // Google Benchmark prints a name as registered; matching it takes the same bytes.
  EXPECT_EQ(parse_benchmark_list("BM_\xff\xc3z\n"), (Names{"BM_\xff\xc3z"}));
}

// A NUL byte cannot be passed in an argument: the filter that selects such a name would end the
// command mid-quote and fail its whole group (found by fuzz_benchmark_list, whose filter check
// std::regex refused). The name is left out, the others stay.
TEST(BenchmarkList, ANameHoldingANulByteIsLeftOut) {
  const std::string listing("BM_A\nBM_\0x\n\0\nBM_B\n", 18);
  EXPECT_EQ(parse_benchmark_list(listing), (Names{"BM_A", "BM_B"}));
}

}  // namespace
}  // namespace benchpr::runner
