// The function-level diff on hand-made profiles whose numbers are checked by hand.
#include <string>

#include <gtest/gtest.h>

#include "benchpr/core/evidence/profile_diff.hpp"

namespace benchpr {
namespace {

// Builds a profile from calls and self counts; inclusive = self + calls out (no recursion).
struct ProfileBuilder {
  FunctionProfile p;
  ProfileBuilder& self(const std::string& name, double n) {
    p.functions.push_back({name, n, n});
    p.total += n;
    return *this;
  }
  ProfileBuilder& call(const std::string& from, const std::string& to, double n) {
    p.calls.push_back({from, to, n});
    for (ProfiledFunction& f : p.functions)
      if (f.name == from) f.inclusive += n;
    return *this;
  }
};

const std::string kRun = "benchmark::internal::BenchmarkInstance::Run() const";
const std::string kBm = "BM_Parse(benchmark::State&)";
const std::string kLookup = "Parser::lookup()";
const std::string kNext = "Parser::next_token()";

// base: BM (10) → lookup (40) → next_token (160); BM → hash (50); BM → old() (3). Total 263.
FunctionProfile base_profile() {
  return ProfileBuilder()
      .self(kRun, 0)
      .self(kBm, 10)
      .self(kLookup, 40)
      .self(kNext, 160)
      .self("hash", 50)
      .self("old()", 3)
      .call(kLookup, kNext, 160)
      .call(kBm, kLookup, 200)
      .call(kBm, "hash", 50)
      .call(kBm, "old()", 3)
      .call(kRun, kBm, 263)
      .p;
}

// PR: next_token 300 (+140) and a new peek() (5) under it; hash 60 (+10); old() gone.
// Total 415: a change of +152 per iteration.
FunctionProfile head_profile() {
  return ProfileBuilder()
      .self(kRun, 0)
      .self(kBm, 10)
      .self(kLookup, 40)
      .self(kNext, 300)
      .self("Parser::peek()", 5)
      .self("hash", 60)
      .call(kNext, "Parser::peek()", 5)
      .call(kLookup, kNext, 305)
      .call(kBm, kLookup, 345)
      .call(kBm, "hash", 60)
      .call(kRun, kBm, 415)
      .p;
}

TEST(ProfileDiff, RanksFunctionsByTheirChangeAndExplainsTheTotal) {
  const ProfileDiff d = diff_profiles(base_profile(), head_profile(), 0.005);
  EXPECT_EQ(d.before, 263);
  EXPECT_EQ(d.after, 415);
  EXPECT_EQ(d.change, 152);
  EXPECT_FALSE(d.same_instructions);
  ASSERT_EQ(d.functions.size(), 4u);
  EXPECT_EQ(d.functions[0].name, kNext);
  EXPECT_EQ(d.functions[0].before, 160);
  EXPECT_EQ(d.functions[0].after, 300);
  EXPECT_EQ(d.functions[0].delta, 140);
  EXPECT_DOUBLE_EQ(d.functions[0].share, 140.0 / 152);
  EXPECT_EQ(d.functions[0].path, (std::vector<std::string>{kBm, kLookup, kNext}));
  EXPECT_EQ(d.functions[1].name, "hash");
  EXPECT_EQ(d.functions[2].name, "Parser::peek()");
  EXPECT_TRUE(d.functions[2].added);
  EXPECT_EQ(d.functions[2].path, (std::vector<std::string>{kBm, kLookup, kNext, "Parser::peek()"}));
  EXPECT_EQ(d.functions[3].name, "old()");
  EXPECT_TRUE(d.functions[3].removed);
  EXPECT_EQ(d.functions[3].delta, -3);
  EXPECT_DOUBLE_EQ(d.functions[3].share, -3.0 / 152);
  EXPECT_EQ(d.functions[3].path, (std::vector<std::string>{kBm, "old()"}));  // from the base
  EXPECT_DOUBLE_EQ(d.explained, 1.0);
  EXPECT_EQ(benchmark_root(head_profile()), kBm);
}

TEST(ProfileDiff, IdenticalProfilesListNoFunction) {
  const ProfileDiff d = diff_profiles(base_profile(), base_profile(), 0.005);
  EXPECT_TRUE(d.functions.empty());
  EXPECT_TRUE(d.same_instructions);
  EXPECT_TRUE(is_missing(d.explained));
  EXPECT_EQ(plain_text(why_phrase(d)),
            "the same instructions: the difference is in memory, waiting or frequency");
}

TEST(ProfileDiff, LeavesOutChangesBelowATenthOfAPercent) {
  FunctionProfile head = base_profile();
  head.functions[3].self += 0.2;  // next_token: 0.2 of 263 per iteration, below 0.263
  head.total += 0.2;
  head.functions[4].self += 30;  // hash
  head.total += 30;
  const ProfileDiff d = diff_profiles(base_profile(), head, 0.005);
  ASSERT_EQ(d.functions.size(), 1u);
  EXPECT_EQ(d.functions[0].name, "hash");
  EXPECT_DOUBLE_EQ(d.explained, 30 / 30.2);
}

TEST(ProfileDiff, PhraseNamesTheFunctionsThatExplainTheChange) {
  const ProfileDiff d = diff_profiles(base_profile(), head_profile(), 0.005);
  EXPECT_EQ(plain_text(why_phrase(d)), "mostly `Parser::next_token()`");
  ProfileDiff two = d;
  two.functions[0].share = 0.3;
  two.functions[1].share = 0.25;
  EXPECT_EQ(plain_text(why_phrase(two)), "mostly `Parser::next_token()` and `hash`");
  two.functions[1].share = 0.1;
  EXPECT_EQ(plain_text(why_phrase(two)),
            "spread; most in `Parser::next_token()` (30.0% of the change)");
  // The name is a code part: the renderer escapes it.
  EXPECT_TRUE(why_phrase(d)[1].code);
}

TEST(FlameBoxes, WidthsFollowThePrAndValuesTheContext) {
  const std::vector<FlameBox> boxes = flame_boxes(base_profile(), head_profile());
  ASSERT_EQ(boxes.size(), 5u);
  EXPECT_EQ(boxes[0].name, kBm);
  EXPECT_EQ(boxes[0].depth, 0);
  EXPECT_EQ(boxes[0].width, 1);
  EXPECT_EQ(boxes[0].before, 263);
  EXPECT_EQ(boxes[0].after, 415);
  EXPECT_EQ(boxes[1].name, kLookup);
  EXPECT_DOUBLE_EQ(boxes[1].width, 345.0 / 415);
  EXPECT_EQ(boxes[1].before, 200);
  EXPECT_EQ(boxes[2].name, kNext);
  EXPECT_EQ(boxes[2].depth, 2);
  EXPECT_EQ(boxes[3].name, "Parser::peek()");
  EXPECT_EQ(boxes[3].before, 0);
  EXPECT_EQ(boxes[4].name, "hash");
  EXPECT_DOUBLE_EQ(boxes[4].x, 345.0 / 415);
  EXPECT_EQ(boxes[4].before, 50);
}

TEST(FlameBoxes, SplitsASharedFunctionsCallsByContext) {
  // helper is called from a (30) and b (10); its call to leaf (20) splits 15 / 5.
  const FunctionProfile p = ProfileBuilder()
                                .self("BM_X", 0)
                                .self("a", 0)
                                .self("b", 0)
                                .self("helper", 20)
                                .self("leaf", 20)
                                .call("helper", "leaf", 20)
                                .call("a", "helper", 30)
                                .call("b", "helper", 10)
                                .call("BM_X", "a", 30)
                                .call("BM_X", "b", 10)
                                .p;
  const std::vector<FlameBox> boxes = flame_boxes(p, p);
  ASSERT_EQ(boxes.size(), 7u);
  EXPECT_EQ(boxes[3].name, "leaf");
  EXPECT_DOUBLE_EQ(boxes[3].after, 15);
  EXPECT_EQ(boxes[6].name, "leaf");
  EXPECT_DOUBLE_EQ(boxes[6].after, 5);
  EXPECT_DOUBLE_EQ(boxes[6].x, 30.0 / 40);
}

}  // namespace
}  // namespace benchpr
