// The closed sets named in files and on the command line: each name reads back as its value,
// and the analysis keeps a flag once.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/core/model/model.hpp"

namespace benchpr {
namespace {

template <class Table>
void expect_round_trip(const Table& table) {
  std::set<std::string> seen;
  for (const auto& [value, name] : table.entries) {
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(seen.insert(std::string(name)).second) << "named twice: " << name;
    EXPECT_EQ(table.name(value), name);
    EXPECT_EQ(table.parse(name), value) << name;
  }
  EXPECT_EQ(table.parse("no-such-name"), std::nullopt);
  EXPECT_EQ(table.parse(""), std::nullopt);
}

TEST(ClosedSets, EveryNameReadsBackAsItsValue) {
  expect_round_trip(kBenchmarkFlags);
  expect_round_trip(kCommentPolicies);
  expect_round_trip(kFormatKinds);
}

TEST(ClosedSets, NamesAreTheFileFormats) {
  // These names are written to results files and .benchpr.yml: renaming one breaks old files.
  EXPECT_EQ(flag_names({BenchmarkFlag::ColdRound, BenchmarkFlag::Order, BenchmarkFlag::Waiting,
                        BenchmarkFlag::WallTime}),
            (std::vector<std::string>{"cold-round", "order", "waiting", "wall-time"}));
  EXPECT_EQ(kCommentPolicies.names(), (std::vector<std::string>{"always", "on-change", "never"}));
  EXPECT_EQ(comment_policy_from_string("On-Change"), std::nullopt);  // names are exact
}

TEST(ClosedSets, ChoicesAreListedAsASentence) {
  EXPECT_EQ(one_of(kCommentPolicies.names()), "always, on-change or never");
  EXPECT_EQ(one_of({"a", "b"}), "a or b");
  EXPECT_EQ(one_of({"a"}), "a");
  EXPECT_EQ(one_of({}), "");
}

TEST(ClosedSets, AFlagFoundTwiceIsOneFlag) {
  BenchmarkAnalysis b;
  EXPECT_FALSE(b.has_flag(BenchmarkFlag::Order));
  b.add_flag(BenchmarkFlag::Order);
  b.add_flag(BenchmarkFlag::Waiting);
  b.add_flag(BenchmarkFlag::Order);
  EXPECT_EQ(b.flags, (std::vector<BenchmarkFlag>{BenchmarkFlag::Order, BenchmarkFlag::Waiting}));
  EXPECT_TRUE(b.has_flag(BenchmarkFlag::Waiting));
  EXPECT_FALSE(b.has_flag(BenchmarkFlag::ColdRound));
}

TEST(ClosedSets, WallTimeFormatsAreTheOnesABusyMachineLengthens) {
  EXPECT_TRUE(compares_wall_time(FormatKind::Command, ""));
  EXPECT_TRUE(compares_wall_time(FormatKind::Command, "wall_time"));
  EXPECT_FALSE(compares_wall_time(FormatKind::Command, "cpu_time"));
  EXPECT_TRUE(compares_wall_time(FormatKind::Hyperfine, ""));
  EXPECT_FALSE(compares_wall_time(FormatKind::Hyperfine, "user"));
  EXPECT_TRUE(compares_wall_time(FormatKind::Jmh, ""));
  EXPECT_FALSE(compares_wall_time(FormatKind::Custom, ""));
}

}  // namespace
}  // namespace benchpr
