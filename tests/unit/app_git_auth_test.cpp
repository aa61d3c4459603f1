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
  EXPECT_EQ(git_auth_config("https://x-access-token@github.com/acme/widgets.git", "ghs_abc"),
            "[http \"https://github.com/\"]\n"
            "\textraHeader = Authorization: Basic eC1hY2Nlc3MtdG9rZW46Z2hzX2FiYw==\n");
  EXPECT_EQ(git_auth_options("http://ghe.example:8080/o/r", "/tmp/p/auth.config"),
            "-c 'http.http://ghe.example:8080/.extraHeader=' -c 'include.path=/tmp/p/auth.config'");
}

TEST(AppGitAuth, NoHeaderWithoutTokenOrForNonHttpRemotes) {
  EXPECT_EQ(git_auth_config("https://github.com/o/r.git", ""), "");
  EXPECT_EQ(git_auth_config("git@github.com:o/r.git", "ghs_abc"), "");
  EXPECT_EQ(git_auth_config("ssh://git@github.com/o/r", "ghs_abc"), "");
  EXPECT_EQ(git_auth_config("/srv/git/r.git", "ghs_abc"), "");
  EXPECT_EQ(git_auth_config("", "ghs_abc"), "");
}

TEST(AppGitAuth, TheGitHostGoesWithTheApi) {
  EXPECT_EQ(git_host_for_api("https://api.github.com"), "github.com");
  EXPECT_EQ(git_host_for_api("https://API.GitHub.com/"), "github.com");
  EXPECT_EQ(git_host_for_api("https://api.octocorp.ghe.com"), "octocorp.ghe.com");
  EXPECT_EQ(git_host_for_api("https://ghe.example/api/v3"), "ghe.example");
  EXPECT_EQ(git_host_for_api("http://127.0.0.1:8080"), "127.0.0.1");
}

TEST(AppGitAuth, TheTokenGoesOnlyToTheApisGitHostOverTheApisScheme) {
  const std::string api = "https://api.github.com";
  EXPECT_EQ(token_destination_problem("https://github.com/acme/widgets.git", api), std::nullopt);
  EXPECT_EQ(token_destination_problem("https://x-access-token@github.com/acme/w.git", api),
            std::nullopt);
  const auto other = token_destination_problem("https://github.com.evil.example/a/w.git", api);
  ASSERT_TRUE(other);
  EXPECT_EQ(*other,
            "its host github.com.evil.example is not github.com, the git host of the GitHub API "
            "at https://api.github.com");
  EXPECT_TRUE(token_destination_problem("https://evil@github.com@evil.example/a.git", api));
  EXPECT_TRUE(token_destination_problem("http://github.com/acme/widgets.git", api));  // not https
  EXPECT_TRUE(token_destination_problem("git@github.com:acme/widgets.git", api));
  EXPECT_EQ(token_destination_problem("http://127.0.0.1:9/a.git", "http://127.0.0.1:8"),
            std::nullopt);
}

}  // namespace
}  // namespace benchpr::app
