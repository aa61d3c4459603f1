// The fast JSON scanner against nlohmann's parser: on everything it accepts it must give the same
// events, and it must refuse everything nlohmann refuses (the caller then re-reads with nlohmann).
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "benchpr/formats/format.hpp"
#include "benchpr/formats/json_fast_path.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::formats::detail {
namespace {

// Every event as a line of text; numbers keep their kind and all 17 digits.
struct Recorder final : JsonEvents {
  std::vector<std::string> events;
  void restart() override { events.clear(); }
  bool null() override { return add("null"); }
  bool boolean(bool v) override { return add(v ? "true" : "false"); }
  bool number_integer(number_integer_t v) override { return add(fmt::format("int {}", v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(fmt::format("uint {}", v)); }
  bool number_float(number_float_t v, const string_t&) override {
    return add(fmt::format("float {:.17g}", v));
  }
  bool string(string_t& v) override { return add("string " + v); }
  bool binary(binary_t&) override { return add("binary"); }
  bool start_object(std::size_t) override { return add("{"); }
  bool key(string_t& v) override { return add("key " + v); }
  bool end_object() override { return add("}"); }
  bool start_array(std::size_t) override { return add("["); }
  bool end_array() override { return add("]"); }
  bool add(std::string e) {
    events.push_back(std::move(e));
    return true;
  }
};

// nlohmann's events, or nullopt when nlohmann refuses the text.
std::optional<std::vector<std::string>> nlohmann_events(std::string_view text) {
  Recorder r;
  struct Strict final : ForwardEvents<nlohmann::json_sax<nlohmann::json>, Recorder> {
    using ForwardEvents::ForwardEvents;
    bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) override {
      return false;
    }
  } strict(r);
  if (!nlohmann::json::sax_parse(text.begin(), text.end(), &strict)) return std::nullopt;
  return r.events;
}

std::optional<std::vector<std::string>> scanned_events(std::string_view text) {
  Recorder r;
  if (!scan_json(text, r)) return std::nullopt;
  return r.events;
}

TEST(JsonFastPath, GivesNlohmannsEventsForValidDocuments) {
  const std::vector<std::string> valid = {
      R"({})",
      R"([])",
      R"( {"a" : [1, -2, 3.5, -0, 0, -0.0, 1e3, 1E-3, 2.5e+2, true, false, null]} )",
      R"({"big":9223372036854775807,"bigger":9223372036854775808,"huge":18446744073709551616})",
      R"({"small":-9223372036854775808,"smaller":-9223372036854775809})",
      R"({"tiny":4.9e-324,"precise":0.1,"third":0.3333333333333333333333})",
      R"(["esc \" \\ \/ \b \f \n \r \t", "\u0041\u00e9\u20AC", "\ud83d\ude00", "caf\u00E9"])",
      R"(["raw UTF-8 café 😀", ""])",
      R"({"nested":{"a":{"b":[[[]],{}]}},"dup":1,"dup":2})",
      "\t\r\n[1]\n",
      R"("just a string")",
      R"(42)",
  };
  for (const std::string& text : valid) {
    const auto expected = nlohmann_events(text);
    ASSERT_TRUE(expected) << text;
    const auto got = scanned_events(text);
    ASSERT_TRUE(got) << "refused valid JSON: " << text;
    EXPECT_EQ(*got, *expected) << text;
  }
}

TEST(JsonFastPath, RefusesEverythingNlohmannRefuses) {
  const std::vector<std::string> invalid = {
      "",
      " ",
      "{",
      "[1,]",
      "{\"a\":1,}",
      "{\"a\" 1}",
      "{a:1}",
      "[01]",
      "[1.]",
      "[.5]",
      "[1e]",
      "[+1]",
      "[-]",
      "[tru]",
      "[nul]",
      "[True]",
      "[\"unterminated]",
      "[\"bad escape \\x\"]",
      "[\"short \\u12\"]",
      "[\"lone low \\udc00\"]",
      "[\"lone high \\ud800\"]",
      "[\"high then not low \\ud800\\u0041\"]",
      std::string("[\"control \x01 char\"]"),
      "[\"tab\tinside\"]",
      "[1] [2]",
      "[1] x",
      "{\"a\":1}}",
      "[1e999]",
      "[-1e999]",
      "[NaN]",
      "[Infinity]",
  };
  for (const std::string& text : invalid) {
    EXPECT_FALSE(nlohmann_events(text)) << "nlohmann accepts " << text;
    EXPECT_FALSE(scanned_events(text)) << "scanner accepts " << text;
  }
}

TEST(JsonFastPath, LeavesToNlohmannWhatItDoesNotVouchFor) {
  // Valid for nlohmann, refused by the scanner: the caller re-reads these with nlohmann.
  const std::string bom = "\xEF\xBB\xBF[1]";
  EXPECT_TRUE(nlohmann_events(bom));
  EXPECT_FALSE(scanned_events(bom));
  const std::string underflow = "[1e-400]";
  EXPECT_TRUE(nlohmann_events(underflow));
  EXPECT_FALSE(scanned_events(underflow));
  std::string deep(kMaxJsonDepth + 1, '[');
  deep += std::string(kMaxJsonDepth + 1, ']');
  EXPECT_FALSE(scanned_events(deep));
  std::string limit(kMaxJsonDepth, '[');
  limit += std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(scanned_events(limit));
}

TEST(JsonFastPath, RealCapturesGiveTheSameEvents) {
  for (const char* name : {"repetitions.json", "aggregates_only.json", "random_interleaving.json",
                           "single_run.json"}) {
    const std::string text =
        testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/google-benchmark/" + name);
    const auto expected = nlohmann_events(text);
    const auto got = scanned_events(text);
    ASSERT_TRUE(expected) << name;
    ASSERT_TRUE(got) << name;
    EXPECT_EQ(*got, *expected) << name;
  }
}

}  // namespace
}  // namespace benchpr::formats::detail
