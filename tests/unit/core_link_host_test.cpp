// Which links benchpr's comment and commit status may carry: GitHub's own hosts only.
#include <gtest/gtest.h>

#include "benchpr/core/base/link_host.hpp"

namespace benchpr {
namespace {

TEST(LinkHost, HostOfAUrl) {
  EXPECT_EQ(url_host("https://GitHub.com/o/r"), "github.com");
  EXPECT_EQ(url_host("https://user:pw@ghe.example:8443/api/v3"), "ghe.example");
  EXPECT_EQ(url_host("https://github.com@phish.example/x"), "phish.example");
  EXPECT_EQ(url_host("github.com/o/r"), "");
  // Remotes: only http(s) has a host the token may go to.
  EXPECT_EQ(url_host("HTTPS://user:pw@GitHub.com:443/o/r.git"), "github.com");
  EXPECT_EQ(url_host("git@github.com:o/r.git"), "");
  EXPECT_EQ(url_host("ssh://git@github.com/o/r.git"), "");
  EXPECT_EQ(url_host("/srv/git/r.git"), "");
  EXPECT_EQ(url_host("http://[::1]:8080/o/r"), "[::1]");
}

TEST(LinkHost, OnlyGitHubsHostsAreLinked) {
  const std::string api = "https://api.github.com";
  EXPECT_TRUE(link_on_github("https://github.com/o/r/actions/runs/1", api));
  EXPECT_FALSE(link_on_github("https://phish.example/o/r/actions/runs/1", api));
  EXPECT_FALSE(link_on_github("https://github.com.phish.example/x", api));
  EXPECT_FALSE(link_on_github("https://github.com@phish.example/x", api));
  EXPECT_FALSE(link_on_github("http://github.com/o/r", api));  // https only
  EXPECT_FALSE(link_on_github("", api));
  // GitHub Enterprise Server: the web pages are on the API's host.
  EXPECT_TRUE(
      link_on_github("https://ghe.example/o/r/actions/runs/1", "https://ghe.example/api/v3"));
  EXPECT_FALSE(link_on_github("https://other.example/o/r", "https://ghe.example/api/v3"));
  // The fake API of the tests and a test's own server: loopback with a port.
  EXPECT_TRUE(link_on_github("https://127.0.0.1:8080/x", "http://127.0.0.1:8080"));
}

}  // namespace
}  // namespace benchpr
