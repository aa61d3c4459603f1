// The /benchmark comment command: what starts a run, which arguments pass, and the reply that
// refuses the rest without letting the commenter's text break out of its code span.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/github/benchmark_comment.hpp"

namespace benchpr::github {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(SlashCommand, BareCommandAndArguments) {
  const SlashCommand bare = parse_benchmark_command("/benchmark");
  EXPECT_TRUE(bare.present);
  EXPECT_FALSE(bare.rounds);
  EXPECT_TRUE(bare.refused.empty());

  const SlashCommand full = parse_benchmark_command(
      "  /benchmark rounds=20 filter=^BM_Codec/(64|128)$ budget=1.5h\r\n"
      "Thanks! rounds=3 on this line is prose");
  EXPECT_TRUE(full.present);
  EXPECT_EQ(full.rounds, 20);
  EXPECT_EQ(full.filter, "^BM_Codec/(64|128)$");
  EXPECT_EQ(full.budget, "1.5h");
  EXPECT_TRUE(full.refused.empty());
  const std::string sha(40, 'c');
  EXPECT_THAT(run_arguments(full, 42, sha),
              ElementsAre("--pr", "42", "--pr-head", sha, "--rounds", "20", "--filter",
                          "^BM_Codec/(64|128)$", "--budget", "1.5h"));
  EXPECT_THAT(run_arguments(bare, 7, sha), ElementsAre("--pr", "7", "--pr-head", sha));
}

TEST(SlashCommand, OtherCommentsAreNotCommands) {
  EXPECT_FALSE(parse_benchmark_command("/benchmarks please").present);
  EXPECT_FALSE(parse_benchmark_command("Could someone run /benchmark?").present);
  EXPECT_FALSE(parse_benchmark_command("LGTM\n/benchmark").present);
  EXPECT_FALSE(parse_benchmark_command("").present);
}

TEST(SlashCommand, BadArgumentsAreRefusedAsWritten) {
  const SlashCommand c = parse_benchmark_command(
      "/benchmark rounds=1 rounds=5 filter='x' budget=soon threshold=5% --rounds 5 "
      "rounds=5");
  EXPECT_TRUE(c.present);
  // rounds=1 is below the minimum; the second rounds= is taken, the third is a repeat.
  EXPECT_EQ(c.rounds, 5);
  EXPECT_THAT(c.refused, ElementsAre("rounds=1", "filter='x'", "budget=soon", "threshold=5%",
                                     "--rounds", "5", "rounds=5"));
  EXPECT_FALSE(parse_benchmark_command("/benchmark rounds=1001").rounds);
  EXPECT_FALSE(parse_benchmark_command("/benchmark rounds=+20").rounds);
  EXPECT_EQ(parse_benchmark_command("/benchmark budget=.5m").refused.size(), 1u);
  EXPECT_EQ(parse_benchmark_command("/benchmark budget=0m").refused.size(), 1u);
  EXPECT_EQ(parse_benchmark_command("/benchmark budget=90").budget, "90");
  EXPECT_EQ(parse_benchmark_command("/benchmark filter=a\\b").refused.size(), 1u);
}

TEST(SlashCommand, RefusalListsWhatIsAllowedAndQuotesSafely) {
  const SlashCommand c = parse_benchmark_command("/benchmark x=`</details>@everyone` " +
                                                 std::string(100, 'y') + " threshold=5%");
  const std::string reply = refusal_reply(c);
  EXPECT_THAT(reply, HasSubstr("`rounds=N`"));
  EXPECT_THAT(reply, HasSubstr("`filter=REGEX`"));
  EXPECT_THAT(reply, HasSubstr("`budget=DURATION`"));
  EXPECT_THAT(reply, HasSubstr("`threshold=5%`"));
  // The commenter's backticks cannot end the code span that holds their text.
  EXPECT_THAT(reply, HasSubstr("`x=?</details>@everyone?`"));
  EXPECT_THAT(reply, Not(HasSubstr(std::string(61, 'y'))));
}

// Every argument is bounded: a budget no runner can spend is refused like any other bad word.
TEST(SlashCommand, ABudgetIsAtMostSixHours) {
  EXPECT_EQ(parse_benchmark_command("/benchmark budget=6h").budget, "6h");
  EXPECT_EQ(parse_benchmark_command("/benchmark budget=360m").budget, "360m");
  EXPECT_EQ(parse_benchmark_command("/benchmark budget=21600").budget, "21600");
  for (const char* over : {"budget=99999999999h", "budget=6.01h", "budget=361m", "budget=21601",
                           "budget=999999999999"}) {
    const SlashCommand c = parse_benchmark_command(std::string("/benchmark ") + over);
    EXPECT_TRUE(c.budget.empty()) << over;
    EXPECT_THAT(c.refused, ElementsAre(over));
  }
}

// The quoted word is cut between characters: a cut inside one would leave GitHub a broken
// character (U+FFFD) to show.
TEST(SlashCommand, TheQuotedWordIsCutBetweenCharacters) {
  for (std::size_t prefix = 0; prefix < 4; ++prefix) {
    std::string snowmen = std::string(prefix, 'x') + "=";
    for (int i = 0; i < 40; ++i) snowmen += "\u2603";  // three bytes each
    const std::string reply = refusal_reply(parse_benchmark_command("/benchmark " + snowmen));
    const std::size_t open = reply.find('`');
    const std::size_t close = reply.find('`', open + 1);
    const std::string quoted = reply.substr(open + 1, close - open - 1);
    EXPECT_TRUE(quoted.ends_with("\u2603…")) << prefix;
    EXPECT_LE(quoted.size(), 60u + std::string("…").size());
    // Whole characters only: the bytes before the ellipsis are a multiple of the snowman's.
    EXPECT_EQ((quoted.size() - std::string("…").size() - prefix - 1) % 3, 0u) << prefix;
  }
}

TEST(SlashCommand, OnlyOwnersMembersAndCollaboratorsStartRuns) {
  EXPECT_TRUE(may_start_runs("OWNER"));
  EXPECT_TRUE(may_start_runs("MEMBER"));
  EXPECT_TRUE(may_start_runs("COLLABORATOR"));
  for (const char* other :
       {"CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "MANNEQUIN", "NONE", "", "owner"})
    EXPECT_FALSE(may_start_runs(other)) << other;
}

TEST(SlashCommand, ShaNamesACommitOfSevenToFortyHexDigits) {
  EXPECT_EQ(parse_benchmark_command("/benchmark sha=ABC1234").sha, "abc1234");
  const std::string full(40, 'e');
  EXPECT_EQ(parse_benchmark_command("/benchmark sha=" + full).sha, full);
  const std::vector<std::string> bad_ones = {"sha=abc123", "sha=" + std::string(41, 'a'),
                                             "sha=abcdefg", "sha=", "sha=HEAD"};
  for (const std::string& bad : bad_ones) {
    const SlashCommand c = parse_benchmark_command("/benchmark " + bad);
    EXPECT_TRUE(c.sha.empty()) << bad;
    EXPECT_THAT(c.refused, ElementsAre(bad));
  }
  EXPECT_THAT(parse_benchmark_command("/benchmark sha=abc1234 sha=abc1234").refused,
              ElementsAre("sha=abc1234"));
  EXPECT_THAT(refusal_reply(parse_benchmark_command("/benchmark x=1")), HasSubstr("`sha=COMMIT`"));
}

TEST(SlashCommand, GitHubTimesAreReadAsUtcSeconds) {
  EXPECT_EQ(parse_github_time("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_github_time("2024-06-01T12:00:00Z"), 1717243200);
  EXPECT_EQ(parse_github_time("2024-06-01T14:00:00+02:00"), 1717243200);
  EXPECT_EQ(parse_github_time("2024-06-01T12:00:00.123Z"), 1717243200);
  EXPECT_EQ(parse_github_time("2000-02-29T00:00:01Z"), 951782401);
  for (const char* bad : {"", "2024-06-01", "2024-06-01 12:00:00Z", "2024-13-01T12:00:00Z",
                          "2024-06-01T12:00:00", "2024-06-01T12:00:00+0200"})
    EXPECT_FALSE(parse_github_time(bad)) << bad;
}

TEST(SlashCommand, ASignIsNotADigitOfATime) {
  // Signs where digits belong (found by fuzz_slash_command: an hour of -2 was read as 22:00 of
  // the day before).
  for (const char* signed_field :
       {"2024-06-01T-2:00:00.1234Z", "2024-06-01T12:-1:00Z", "2024-06-01T12:00:-1Z",
        "-024-06-01T12:00:00Z", "2024-06-01T14:00:00+-2:00", "2024-06-01T14:00:00+02:-1"})
    EXPECT_FALSE(parse_github_time(signed_field)) << signed_field;
}

TEST(SlashCommand, TheBareCommandMeansTheHeadWhenTheCommentWasWritten) {
  const std::string head = "0123456789abcdef0123456789abcdef01234567";
  const SlashCommand bare = parse_benchmark_command("/benchmark");
  const std::string comment = "2024-06-01T12:00:00Z";
  EXPECT_EQ(decide_head(bare, head, "2024-06-01T11:59:59Z", comment).head_sha, head);
  for (const char* pushed : {"2024-06-01T12:00:00Z", "2024-06-01T12:03:00Z", "", "soon"}) {
    const HeadDecision d = decide_head(bare, head, pushed, comment);
    EXPECT_TRUE(d.head_sha.empty()) << pushed;
    EXPECT_THAT(d.reply, HasSubstr("comment `/benchmark sha=0123456`")) << pushed;
  }
  EXPECT_TRUE(decide_head(bare, head, "2024-06-01T11:00:00Z", "").head_sha.empty());
  // sha= decides whenever the last push was.
  const SlashCommand named = parse_benchmark_command("/benchmark sha=0123456789");
  EXPECT_EQ(decide_head(named, head, "2024-06-01T12:03:00Z", comment).head_sha, head);
  const HeadDecision other =
      decide_head(parse_benchmark_command("/benchmark sha=fedcba9"), head, "", comment);
  EXPECT_TRUE(other.head_sha.empty());
  EXPECT_THAT(other.reply, HasSubstr("the pull request's head is `0123456`, not `fedcba9`"));
}

}  // namespace
}  // namespace benchpr::github
