// The libcurl transport on its own (against the fake server), and the redaction helper.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <httplib.h>

#include <atomic>
#include <thread>

#include "benchpr/github/curl_transport.hpp"
#include "benchpr/github/redact.hpp"
#include "support/fake_github.hpp"

namespace benchpr::github {
namespace {

using benchpr::testing::FakeGitHub;
using benchpr::testing::FakePullRequest;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(RedactTest, ReplacesEveryOccurrence) {
  EXPECT_EQ(redact("token abc and abc again", "abc"), "token *** and *** again");
  EXPECT_EQ(redact("abcabc", "abc"), "******");
  EXPECT_EQ(redact("nothing here", "abc"), "nothing here");
  EXPECT_EQ(redact("empty secret changes nothing", ""), "empty secret changes nothing");
  EXPECT_EQ(redact("", "abc"), "");
}

TEST(CurlTransportTest, SendsMethodHeadersAndBodyAndCapturesLowerCasedHeaders) {
  FakeGitHub fake;
  fake.add_comment("o/r", 1, "first");
  fake.add_comment("o/r", 1, "second");
  CurlTransport transport;
  HttpRequest get{"GET",
                  fake.url() + "/repos/o/r/issues/1/comments?per_page=1",
                  "",
                  {{"Authorization", "Bearer " + fake.token()}, {"User-Agent", "test/1"}}};
  HttpResponse page = transport.send(get);
  EXPECT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("\"first\""));
  EXPECT_THAT(page.header("link"), HasSubstr("rel=\"next\""));
  EXPECT_THAT(page.header("content-type"), HasSubstr("application/json"));
  EXPECT_EQ(page.header("Link"), "") << "names are stored lower-cased";

  auto id = fake.comments("o/r", 1).at(0).id;
  HttpRequest patch{"PATCH",
                    fake.url() + "/repos/o/r/issues/comments/" + std::to_string(id),
                    R"({"body":"edited"})",
                    {{"Authorization", "Bearer " + fake.token()}, {"User-Agent", "test/1"}}};
  EXPECT_EQ(transport.send(patch).status, 200);
  EXPECT_EQ(fake.comments("o/r", 1).at(0).body, "edited");
  auto recorded = fake.requests().back();
  EXPECT_EQ(recorded.method, "PATCH");
  EXPECT_EQ(recorded.body, R"({"body":"edited"})");
  EXPECT_EQ(recorded.header("user-agent"), "test/1");
}

TEST(CurlTransportTest, TimeoutIsATransportErrorWithoutTheToken) {
  FakeGitHub fake;
  fake.delay_next(1, std::chrono::minutes(10));  // held until the fake goes away
  CurlTransport transport(CurlOptions{.connect_timeout_ms = 1000, .total_timeout_ms = 200});
  HttpRequest request{
      "GET", fake.url() + "/repos/o/r/pulls/1", "", {{"Authorization", "Bearer " + fake.token()}}};
  try {
    transport.send(request);
    FAIL() << "expected a TransportError";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Timeout was reached"));
    EXPECT_THAT(e.what(), Not(HasSubstr(fake.token())));
  }
}

TEST(CurlTransportTest, DoesNotFollowRedirects) {
  // A followed redirect would carry the Authorization header to wherever it points.
  httplib::Server server;
  std::atomic<int> target_hits{0};
  server.Get("/moved",
             [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/target"); });
  server.Get("/target", [&](const httplib::Request&, httplib::Response& res) {
    ++target_hits;
    res.set_content("here", "text/plain");
  });
  int port = server.bind_to_any_port("127.0.0.1");
  std::thread thread([&] { server.listen_after_bind(); });
  HttpResponse response;
  {
    CurlTransport transport;  // closed before stop(), which waits for open connections
    response = transport.send(
        {"GET", "http://127.0.0.1:" + std::to_string(port) + "/moved", "", {{"User-Agent", "t"}}});
  }
  server.stop();
  thread.join();
  EXPECT_EQ(response.status, 302);
  EXPECT_THAT(response.header("location"), HasSubstr("/target"));
  EXPECT_EQ(target_hits.load(), 0);
}

TEST(CurlTransportTest, TokenInTheUrlOfAFailedRequestIsRedacted) {
  CurlTransport transport(CurlOptions{.connect_timeout_ms = 1000, .total_timeout_ms = 2000});
  std::string token = "ghs_SecretInUrl123";
  std::string dead;
  {
    FakeGitHub gone;
    dead = gone.url();
  }
  HttpRequest request{
      "GET", dead + "/x?access_token=" + token, "", {{"Authorization", "Bearer " + token}}};
  try {
    transport.send(request);
    FAIL() << "expected a TransportError";
  } catch (const TransportError& e) {
    EXPECT_THAT(e.what(), Not(HasSubstr(token)));
    EXPECT_THAT(e.what(), HasSubstr("Couldn't connect to server"));
  }
}

}  // namespace
}  // namespace benchpr::github
