// Filters of Google Benchmark runs: a selection of thousands of names must still start, which
// the kernel decides (an argument of 128 KiB or more is refused).
#include "benchpr/runner/gbench_filter_argument.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchpr/exec/process.hpp"

namespace benchpr::runner {
namespace {

std::vector<std::string> many_names(int n) {
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i)
    names.push_back(fmt::format("BM_LongParameterisedBenchmarkName/{:05}/size:65536/real_time", i));
  return names;
}

TEST(FilterGroups, ASelectionThatFitsIsOneGroup) {
  const std::vector<std::string> names = {"BM_A", "BM_B/8"};
  EXPECT_EQ(filter_groups(names), (std::vector<std::vector<std::string>>{names}));
  EXPECT_EQ(filter_groups({}), (std::vector<std::vector<std::string>>{{}}));
}

TEST(FilterGroups, EveryNameExactlyOnceInGroupsThatFit) {
  const std::vector<std::string> names = many_names(5000);  // 60 characters each
  const auto groups = filter_groups(names);
  EXPECT_EQ(groups.size(), 4u);  // 5,000 x 61 bytes of regex, in groups of at most 96 KiB
  std::vector<std::string> joined;
  for (const auto& g : groups) {
    EXPECT_LE(gbench_filter_argument(g).size(), kMaxFilterBytes);
    joined.insert(joined.end(), g.begin(), g.end());
  }
  EXPECT_EQ(joined, names);
  // A name that does not fit on its own is a group of its own.
  const std::vector<std::string> odd = {"a", std::string(200, 'x'), "b"};
  EXPECT_EQ(filter_groups(odd, 100).size(), 3u);
}

// The real limit: the whole filter does not start; each group does.
TEST(FilterGroups, EachGroupStartsWhereTheWholeSelectionDoesNot) {
  const std::vector<std::string> names = many_names(5000);
  exec::PosixProcessRunner processes;
  exec::ProcessSpec spec;
  spec.cwd = ".";
  spec.timeout_seconds = 30;
  spec.command = "true" + gbench_filter_argument(names);
  EXPECT_FALSE(processes.run(spec).ok());
  for (const auto& group : filter_groups(names)) {
    spec.command = "true" + gbench_filter_argument(group);
    const exec::ProcessResult r = processes.run(spec);
    EXPECT_TRUE(r.ok()) << r.spawn_error;
  }
}

}  // namespace
}  // namespace benchpr::runner
