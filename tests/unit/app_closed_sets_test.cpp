// Every closed set benchpr names in files, configuration and command lines, with the one
// NameTable that parses and prints it: each name reads back as the value that prints it, and any
// other text is refused. A new closed set is added to the list below with its table. (An app
// test, so that it sees the command line's sets beside core's; core_closed_sets_test.cpp checks
// what core's sets mean beyond their names.)
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "benchpr/app/options.hpp"
#include "benchpr/core/base/name_table.hpp"
#include "benchpr/core/model/benchmark_flag.hpp"
#include "benchpr/core/model/bisect_types.hpp"
#include "benchpr/core/model/comment_policy.hpp"
#include "benchpr/core/model/format_kind.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/core/model/stop_reason.hpp"

namespace benchpr {
namespace {

// Name -> value -> name for every entry; names and values each once; unknown text refused.
template <typename Value, std::size_t N>
void expect_closed_set(std::string_view set, const NameTable<Value, N>& table) {
  SCOPED_TRACE(std::string(set));
  ASSERT_GT(N, 1u);
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < N; ++i) {
    const auto& [value, name] = table.entries[i];
    EXPECT_FALSE(name.empty()) << "entry " << i;
    EXPECT_TRUE(names.insert(name).second) << name << " named twice";
    for (std::size_t k = 0; k < i; ++k)
      EXPECT_FALSE(table.entries[k].first == value) << name << ": its value is named twice";
    const std::optional<Value> parsed = table.parse(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_TRUE(*parsed == value) << name;
    EXPECT_EQ(table.name(*parsed), name);
    // Names are exact: no other case, no padding, no prefix.
    std::string upper(name);
    for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    EXPECT_FALSE(table.parse(upper).has_value()) << upper;
    EXPECT_FALSE(table.parse(std::string(name) + " ").has_value()) << name;
    EXPECT_FALSE(table.parse(" " + std::string(name)).has_value()) << name;
    EXPECT_FALSE(table.parse(name.substr(0, name.size() - 1)).has_value()) << name;
  }
  EXPECT_EQ(table.names().size(), N);
  for (const std::string_view unknown : {"", "no-such-name", "auto-ish", "?"})
    EXPECT_FALSE(table.parse(unknown).has_value()) << unknown;
}

TEST(AllClosedSets, EveryNameRoundTripsAndUnknownNamesAreRefused) {
  // core/model/model.hpp
  expect_closed_set("Side", kSides);
  expect_closed_set("Better", kBetters);
  expect_closed_set("Origin", kOrigins);
  expect_closed_set("FailureKind", kFailureKinds);
  expect_closed_set("Verdict", kVerdicts);
  expect_closed_set("CodeReading", kCodeReadings);
  expect_closed_set("RecommendationKind", kRecommendations);
  // core/model/benchmark_flag.hpp, core/model/format_kind.hpp, core/model/comment_policy.hpp,
  // core/model/stop_reason.hpp
  expect_closed_set("BenchmarkFlag", kBenchmarkFlags);
  expect_closed_set("FormatKind", kFormatKinds);
  expect_closed_set("CommentPolicy", kCommentPolicies);
  expect_closed_set("StopKind", kStopKindNames);
  // core/model/bisect_types.hpp
  expect_closed_set("BisectMode", kBisectModes);
  expect_closed_set("BisectMethod", kBisectMethods);
  // app/options.hpp: the command line's
  expect_closed_set("StdoutFormat", app::kStdoutFormats);
  expect_closed_set("ColorMode", app::kColorModes);
  expect_closed_set("FailOn", app::kFailOns);
  expect_closed_set("CompareMode", app::kCompareModes);
  expect_closed_set("InputFormat", app::kInputFormats);
  expect_closed_set("RunOutcome", app::kRunOutcomes);
  // --comment is a CommentPolicy: its table is kCommentPolicies, above.
}

// The printers and parsers the code calls are the tables, so a file and a command line read
// what benchpr writes.
template <typename Value, std::size_t N, typename Print, typename Parse>
void expect_uses_table(std::string_view set, const NameTable<Value, N>& table, Print print,
                       Parse parse) {
  SCOPED_TRACE(std::string(set));
  for (const auto& [value, name] : table.entries) {
    EXPECT_EQ(print(value), name);
    const auto parsed = parse(name);
    ASSERT_TRUE(parsed.has_value()) << name;
    EXPECT_TRUE(*parsed == value) << name;
  }
  EXPECT_FALSE(parse("no-such-name").has_value());
}

TEST(AllClosedSets, ToStringAndFromStringAreTheTables) {
  expect_uses_table(
      "Side", kSides, [](Side v) { return to_string(v); }, side_from_string);
  expect_uses_table(
      "Better", kBetters, [](Better v) { return to_string(v); }, better_from_string);
  expect_uses_table(
      "Origin", kOrigins, [](Origin v) { return to_string(v); }, origin_from_string);
  expect_uses_table(
      "FailureKind", kFailureKinds, [](FailureKind v) { return to_string(v); },
      failure_kind_from_string);
  expect_uses_table(
      "FormatKind", kFormatKinds, [](FormatKind v) { return to_string(v); },
      [](std::string_view s) { return format_kind_from_string(s); });
  expect_uses_table(
      "CommentPolicy", kCommentPolicies, [](CommentPolicy v) { return to_string(v); },
      [](std::string_view s) { return comment_policy_from_string(s); });
  expect_uses_table(
      "BisectMode", kBisectModes, [](BisectMode v) { return to_string(v); },
      [](std::string_view s) { return bisect_mode_from_string(s); });
  expect_uses_table(
      "BisectMethod", kBisectMethods, [](BisectMethod v) { return to_string(v); },
      [](std::string_view s) { return bisect_method_from_string(s); });
  for (const auto& [v, name] : kVerdicts.entries) EXPECT_EQ(to_string(v), name);
  for (const auto& [v, name] : kCodeReadings.entries) EXPECT_EQ(to_string(v), name);
  for (const auto& [v, name] : kRecommendations.entries) EXPECT_EQ(to_string(v), name);
  for (const auto& [v, name] : kBenchmarkFlags.entries) EXPECT_EQ(to_string(v), name);
}

// The command line's sets list their names in the order the usage errors give them.
TEST(AllClosedSets, CommandLineNamesInTheirMessagesOrder) {
  using Names = std::vector<std::string>;
  EXPECT_EQ(app::kStdoutFormats.names(), (Names{"auto", "markdown", "text"}));
  EXPECT_EQ(app::kColorModes.names(), (Names{"auto", "always", "never"}));
  EXPECT_EQ(app::kFailOns.names(), (Names{"never", "regression", "failed"}));
  EXPECT_EQ(app::kCompareModes.names(), (Names{"merge-base", "merge"}));
  EXPECT_EQ(app::kInputFormats.names(), (Names{"auto", "google-benchmark", "jmh", "hyperfine"}));
  EXPECT_EQ(kCommentPolicies.names(), (Names{"always", "on-change", "never"}));
  EXPECT_EQ(app::kRunOutcomes.names(), (Names{"success", "failure", "cancelled", "skipped"}));
  EXPECT_EQ(kBisectModes.names(), (Names{"auto", "off"}));
  EXPECT_EQ(kBisectMethods.names(), (Names{"time", "instructions"}));
}

}  // namespace
}  // namespace benchpr
