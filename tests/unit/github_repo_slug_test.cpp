#include <gtest/gtest.h>

#include "benchpr/github/repo_slug.hpp"

namespace benchpr::github {
namespace {

TEST(RepoSlugTest, ParsesOwnerSlashName) {
  auto slug = parse_repo_slug("apache/pekko");
  ASSERT_TRUE(slug);
  EXPECT_EQ(slug->owner, "apache");
  EXPECT_EQ(slug->name, "pekko");
  EXPECT_EQ(slug->full_name(), "apache/pekko");
  EXPECT_EQ(parse_repo_slug(" my-org/repo.name_2 \n"), (RepoSlug{"my-org", "repo.name_2"}));
}

TEST(RepoSlugTest, RejectsWhatIsNotOwnerSlashName) {
  EXPECT_FALSE(parse_repo_slug(""));
  EXPECT_FALSE(parse_repo_slug("pekko"));
  EXPECT_FALSE(parse_repo_slug("/pekko"));
  EXPECT_FALSE(parse_repo_slug("apache/"));
  EXPECT_FALSE(parse_repo_slug("a/b/c"));
  EXPECT_FALSE(parse_repo_slug("a/.."));
  EXPECT_FALSE(parse_repo_slug("a b/c"));
  EXPECT_FALSE(parse_repo_slug("https://github.com/a/b"));
}

TEST(RepoSlugTest, DerivesTheSlugFromRemoteUrls) {
  const RepoSlug expected{"o", "r"};
  EXPECT_EQ(slug_from_remote_url("https://github.com/o/r.git"), expected);
  EXPECT_EQ(slug_from_remote_url("https://github.com/o/r"), expected);
  EXPECT_EQ(slug_from_remote_url("https://github.com/o/r/"), expected);
  EXPECT_EQ(slug_from_remote_url("http://x-access-token@github.com/o/r.git"), expected);
  EXPECT_EQ(slug_from_remote_url("git@github.com:o/r.git"), expected);
  EXPECT_EQ(slug_from_remote_url("git@github.com:o/r"), expected);
  EXPECT_EQ(slug_from_remote_url("github.com:o/r.git"), expected);
  EXPECT_EQ(slug_from_remote_url("ssh://git@host/o/r"), expected);
  EXPECT_EQ(slug_from_remote_url("ssh://git@ghe.example.com:2222/o/r.git"), expected);
  EXPECT_EQ(slug_from_remote_url("git://github.com/o/r.git"), expected);
  EXPECT_EQ(slug_from_remote_url("https://ghe.host/o/r"), expected);
  EXPECT_EQ(slug_from_remote_url("https://ghe.host:8443/o/r.git\n"), expected);
  EXPECT_EQ(slug_from_remote_url("https://github.com/apache/pekko-http.git"),
            (RepoSlug{"apache", "pekko-http"}));
}

TEST(RepoSlugTest, RemoteUrlsWithoutOwnerAndNameGiveNothing) {
  EXPECT_FALSE(slug_from_remote_url(""));
  EXPECT_FALSE(slug_from_remote_url("/home/me/repo"));
  EXPECT_FALSE(slug_from_remote_url("../repo.git"));
  EXPECT_FALSE(slug_from_remote_url("https://github.com/o"));
  EXPECT_FALSE(slug_from_remote_url("https://gitlab.com/group/sub/r.git"));
  EXPECT_FALSE(slug_from_remote_url("https://github.com"));
  EXPECT_FALSE(slug_from_remote_url("git@github.com:"));
}

}  // namespace
}  // namespace benchpr::github
