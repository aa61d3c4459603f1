#include <gtest/gtest.h>

#include "benchpr/app/git_remote.hpp"

namespace benchpr::app {
namespace {

TEST(AppGitAuth, Base64MatchesRfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

TEST(AppGitAuth, TokenBecomesABasicHeaderForGitHub) {
  // printf 'x-access-token:ghs_abc' | base64
  EXPECT_EQ(git_basic_auth_value("ghs_abc"), "Basic eC1hY2Nlc3MtdG9rZW46Z2hzX2FiYw==");
}

TEST(AppGitAuth, HeaderIsScopedToTheRemotesHostAndResetsEarlierOnes) {
  const auto env =
      git_auth_environment("https://x-access-token@github.com/acme/widgets.git", "ghs_abc");
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"GIT_CONFIG_COUNT", "2"},
      {"GIT_CONFIG_KEY_0", "http.https://github.com/.extraHeader"},
      {"GIT_CONFIG_VALUE_0", ""},
      {"GIT_CONFIG_KEY_1", "http.https://github.com/.extraHeader"},
      {"GIT_CONFIG_VALUE_1", "Authorization: Basic eC1hY2Nlc3MtdG9rZW46Z2hzX2FiYw=="}};
  EXPECT_EQ(env, expected);
  EXPECT_EQ(git_auth_environment("http://ghe.example:8080/o/r", "t")[1].second,
            "http.http://ghe.example:8080/.extraHeader");
}

TEST(AppGitAuth, NoHeaderWithoutTokenOrForNonHttpRemotes) {
  EXPECT_TRUE(git_auth_environment("https://github.com/o/r.git", "").empty());
  EXPECT_TRUE(git_auth_environment("git@github.com:o/r.git", "ghs_abc").empty());
  EXPECT_TRUE(git_auth_environment("ssh://git@github.com/o/r", "ghs_abc").empty());
  EXPECT_TRUE(git_auth_environment("/srv/git/r.git", "ghs_abc").empty());
  EXPECT_TRUE(git_auth_environment("", "ghs_abc").empty());
}

}  // namespace
}  // namespace benchpr::app
