// GitHubClient over the real libcurl transport against the fake GitHub API on loopback:
// headers, reading a pull request, retries, rate limits and error messages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "benchpr/github/curl_transport.hpp"
#include "benchpr/github/github_client.hpp"
#include "support/fake_github.hpp"

namespace benchpr::github {
namespace {

using benchpr::testing::FakeGitHub;
using benchpr::testing::FakePullRequest;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr double kStart = 1'700'000'000;  // 2023-11-14 22:13:20 UTC

class GitHubClientTest : public ::testing::Test {
 protected:
  // A client whose clock only moves when it sleeps, and whose sleeps are recorded, not slept.
  GitHubClient make_client(std::string token, CurlOptions curl = {}) {
    ClientOptions options;
    options.api_url = fake.url();
    options.token = std::move(token);
    options.sleep = [this](double seconds) {
      sleeps.push_back(seconds);
      clock += seconds;
    };
    options.now = [this] { return clock; };
    options.log = [this](const std::string& line) { log.push_back(line); };
    return GitHubClient(std::make_shared<CurlTransport>(curl), options);
  }
  GitHubClient make_client() { return make_client(fake.token()); }

  // The message of the GitHubError that `call` throws, checking that it never shows the token.
  template <typename Call>
  std::string error_of(Call call, long expected_status) {
    try {
      call();
    } catch (const GitHubError& e) {
      EXPECT_EQ(e.status(), expected_status) << e.what();
      EXPECT_THAT(e.what(), Not(HasSubstr(fake.token())));
      return e.what();
    }
    ADD_FAILURE() << "no GitHubError thrown";
    return "";
  }

  void SetUp() override {
    FakePullRequest pr;
    pr.number = 7;
    pr.title = "perf: faster JSON parsing";
    pr.labels = {"performance", "parser"};
    fake.add_pull_request("acme/widgets", pr);
  }

  void TearDown() override {
    for (const auto& line : log) EXPECT_THAT(line, Not(HasSubstr(fake.token())));
  }

  FakeGitHub fake;
  std::vector<double> sleeps;
  std::vector<std::string> log;
  double clock = kStart;
};

TEST_F(GitHubClientTest, SendsGitHubsRequiredHeaders) {
  auto client = make_client();
  client.get_pull_request("acme", "widgets", 7);
  auto requests = fake.requests();
  ASSERT_EQ(requests.size(), 1u);
  const auto& r = requests[0];
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.path, "/repos/acme/widgets/pulls/7");
  EXPECT_EQ(r.header("Accept"), "application/vnd.github+json");
  EXPECT_EQ(r.header("X-GitHub-Api-Version"), "2022-11-28");
  EXPECT_EQ(r.header("User-Agent"), std::string("benchpr/") + BENCHPR_VERSION);
  EXPECT_EQ(r.header("Authorization"), "Bearer " + fake.token());
}

TEST_F(GitHubClientTest, WithoutATokenSendsNoAuthorizationAndExplainsThe401) {
  auto client = make_client("");
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 7); }, 401);
  EXPECT_THAT(message, HasSubstr("GitHub rejected the token (401): check that GITHUB_TOKEN is set "
                                 "and valid"));
  EXPECT_FALSE(fake.requests().at(0).has_header("Authorization"));
}

TEST_F(GitHubClientTest, WrongTokenIsExplainedWithoutShowingIt) {
  auto client = make_client("ghp_WrongTokenThatMustNotLeak42");
  try {
    client.get_pull_request("acme", "widgets", 7);
    FAIL() << "expected a GitHubError";
  } catch (const GitHubError& e) {
    EXPECT_EQ(e.status(), 401);
    EXPECT_THAT(e.what(), HasSubstr("GitHub rejected the token (401)"));
    EXPECT_THAT(e.what(), Not(HasSubstr("ghp_WrongTokenThatMustNotLeak42")));
  }
  EXPECT_TRUE(sleeps.empty()) << "a 401 is not retried";
}

TEST_F(GitHubClientTest, ReadsAPullRequest) {
  auto pr = make_client().get_pull_request("acme", "widgets", 7);
  EXPECT_EQ(pr.number, 7);
  EXPECT_EQ(pr.title, "perf: faster JSON parsing");
  EXPECT_EQ(pr.state, "open");
  EXPECT_EQ(pr.html_url, "https://github.com/acme/widgets/pull/7");
  EXPECT_EQ(pr.base_ref, "main");
  EXPECT_EQ(pr.base_sha, "1111111111111111111111111111111111111111");
  EXPECT_EQ(pr.head_ref, "feature");
  EXPECT_EQ(pr.head_sha, "2222222222222222222222222222222222222222");
  EXPECT_EQ(pr.head_repo_full_name, "acme/widgets");
  EXPECT_THAT(pr.labels, ElementsAre("performance", "parser"));
}

TEST_F(GitHubClientTest, ReadsAPullRequestFromADeletedFork) {
  FakePullRequest pr;
  pr.number = 8;
  pr.head_repo = std::nullopt;  // head.repo: null
  fake.add_pull_request("acme/widgets", pr);
  auto read = make_client().get_pull_request("acme", "widgets", 8);
  EXPECT_EQ(read.head_repo_full_name, "");
  EXPECT_EQ(read.head_sha, "2222222222222222222222222222222222222222");
}

TEST_F(GitHubClientTest, ReadsAPullRequestFromAFork) {
  FakePullRequest pr;
  pr.number = 9;
  pr.head_repo = "contributor/widgets";
  fake.add_pull_request("acme/widgets", pr);
  EXPECT_EQ(make_client().get_pull_request("acme", "widgets", 9).head_repo_full_name,
            "contributor/widgets");
}

TEST_F(GitHubClientTest, SurvivesTwoServerErrorsWithExponentialBackoff) {
  fake.fail_next(2, 502);
  auto pr = make_client().get_pull_request("acme", "widgets", 7);
  EXPECT_EQ(pr.number, 7);
  EXPECT_THAT(sleeps, ElementsAre(1.0, 2.0));
  EXPECT_EQ(fake.requests().size(), 3u);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_THAT(log[0], HasSubstr("GitHub answered 502; retrying in 1 s (attempt 2 of 4)"));
}

TEST_F(GitHubClientTest, GivesUpAfterFourAttempts) {
  fake.fail_next(4, 503);
  auto client = make_client();
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 7); }, 503);
  EXPECT_THAT(message, HasSubstr("GitHub answered 503"));
  EXPECT_THAT(message, HasSubstr("after 4 attempts"));
  EXPECT_THAT(message, HasSubstr("GET /repos/acme/widgets/pulls/7"));
  EXPECT_THAT(sleeps, ElementsAre(1.0, 2.0, 4.0));
  EXPECT_EQ(fake.requests().size(), 4u);
}

TEST_F(GitHubClientTest, RetriesATimedOutRequest) {
  // The first answer is held until the fake goes away, so it always times out; the timeout is
  // long enough for the retry's answer from 127.0.0.1 on a loaded machine.
  fake.delay_next(1, std::chrono::minutes(10));
  CurlOptions curl;
  curl.total_timeout_ms = 2000;
  auto pr = make_client(fake.token(), curl).get_pull_request("acme", "widgets", 7);
  EXPECT_EQ(pr.number, 7);
  EXPECT_THAT(sleeps, ElementsAre(1.0));
  ASSERT_EQ(log.size(), 1u);
  EXPECT_THAT(log[0], HasSubstr("could not reach GitHub"));
  EXPECT_THAT(log[0], HasSubstr("Timeout"));
}

TEST_F(GitHubClientTest, UnreachableServerFailsWithTheTransportReason) {
  std::string dead_url;
  {
    FakeGitHub gone;
    dead_url = gone.url();
  }  // the port is closed now
  ClientOptions options;
  options.api_url = dead_url;
  options.token = fake.token();
  options.max_attempts = 2;
  options.sleep = [this](double s) { sleeps.push_back(s); };
  GitHubClient client(std::make_shared<CurlTransport>(), options);
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 7); }, 0);
  EXPECT_THAT(message, HasSubstr("could not reach GitHub at " + dead_url + " after 2 attempts"));
  EXPECT_THAT(message, HasSubstr("Couldn't connect to server"));
  EXPECT_THAT(sleeps, ElementsAre(1.0));
}

TEST_F(GitHubClientTest, PrimaryRateLimitWaitsUntilTheReset) {
  fake.primary_rate_limit_next(static_cast<std::int64_t>(kStart) + 5);
  auto pr = make_client().get_pull_request("acme", "widgets", 7);
  EXPECT_EQ(pr.number, 7);
  EXPECT_THAT(sleeps, ElementsAre(5.0));
  EXPECT_EQ(fake.requests().size(), 2u);
}

TEST_F(GitHubClientTest, PrimaryRateLimitWithTheFakesDefaultResetWaitsAboutASecond) {
  fake.primary_rate_limit_next();  // reset = the real now + 1
  ClientOptions options;
  options.api_url = fake.url();
  options.token = fake.token();
  options.sleep = [this](double s) { sleeps.push_back(s); };  // real clock
  GitHubClient client(std::make_shared<CurlTransport>(), options);
  client.get_pull_request("acme", "widgets", 7);
  ASSERT_EQ(sleeps.size(), 1u);
  EXPECT_GE(sleeps[0], 1.0);  // never less than a second
  EXPECT_LE(sleeps[0], 2.0);
}

TEST_F(GitHubClientTest, DistantRateLimitResetFailsSayingWhenToRetry) {
  fake.primary_rate_limit_next(static_cast<std::int64_t>(kStart) + 3600);
  auto client = make_client();
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 7); }, 403);
  EXPECT_THAT(message, HasSubstr("rate limit for this token is used up until "
                                 "2023-11-14 23:13:20 UTC; retry after that"));
  EXPECT_TRUE(sleeps.empty());
  EXPECT_EQ(fake.requests().size(), 1u);
}

TEST_F(GitHubClientTest, PrimaryRateLimitAlsoComesAs429) {
  fake.primary_rate_limit_next(static_cast<std::int64_t>(kStart) + 2, 429);
  make_client().get_pull_request("acme", "widgets", 7);
  EXPECT_THAT(sleeps, ElementsAre(2.0));
}

TEST_F(GitHubClientTest, SecondaryRateLimitHonoursRetryAfter) {
  fake.secondary_rate_limit_next(403, 3);
  fake.secondary_rate_limit_next(429, 1);
  auto pr = make_client().get_pull_request("acme", "widgets", 7);
  EXPECT_EQ(pr.number, 7);
  EXPECT_THAT(sleeps, ElementsAre(3.0, 1.0));
  EXPECT_EQ(fake.requests().size(), 3u);
}

// GitHub: without retry-after (and with requests left), wait at least a minute before retrying,
// and exponentially longer while the limit goes on. The client's sleep is injected, so this
// waits for nothing.
TEST_F(GitHubClientTest, TooManyRequestsWithoutRetryAfterWaitsAMinuteThenBacksOff) {
  fake.too_many_requests_next(2);
  auto pr = make_client().get_pull_request("acme", "widgets", 7);
  EXPECT_EQ(pr.number, 7);
  EXPECT_THAT(sleeps, ElementsAre(60.0, 120.0));
  EXPECT_EQ(fake.requests().size(), 3u);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_THAT(log[0], HasSubstr("secondary rate limit; waiting 60 s"));
  EXPECT_THAT(log[1], HasSubstr("secondary rate limit; waiting 120 s"));
}

TEST_F(GitHubClientTest, TooManyRequestsWithoutRetryAfterGivesUpAfterTheLastAttempt) {
  fake.too_many_requests_next(4);
  auto client = make_client();
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 7); }, 429);
  EXPECT_THAT(message, HasSubstr("secondary rate limit stopped the request; retry after "));
  EXPECT_THAT(sleeps, ElementsAre(60.0, 120.0, 240.0));
}

// A retry-after is honoured as given, and a later answer without one still backs off from where
// the request's waits have got to.
TEST_F(GitHubClientTest, SecondaryRateLimitBacksOffAfterAnHonouredRetryAfter) {
  fake.secondary_rate_limit_next(403, 5);
  fake.too_many_requests_next(2);
  auto pr = make_client().get_pull_request("acme", "widgets", 7);
  EXPECT_EQ(pr.number, 7);
  EXPECT_THAT(sleeps, ElementsAre(5.0, 120.0, 240.0));
}

// The schedule itself: 60 s doubling, bounded.
TEST(SecondaryLimitWait, DoublesFromAMinuteUpToTheBound) {
  EXPECT_EQ(secondary_limit_wait(0, 600), 60);
  EXPECT_EQ(secondary_limit_wait(1, 600), 120);
  EXPECT_EQ(secondary_limit_wait(2, 600), 240);
  EXPECT_EQ(secondary_limit_wait(3, 600), 480);
  EXPECT_EQ(secondary_limit_wait(4, 600), 600);
  EXPECT_EQ(secondary_limit_wait(1000, 600), 600);
  EXPECT_EQ(secondary_limit_wait(0, 30), 30);
}

TEST_F(GitHubClientTest, SecondaryRateLimitWaitsStayWithinTheBound) {
  fake.too_many_requests_next(5);
  ClientOptions options;
  options.api_url = fake.url();
  options.token = fake.token();
  options.max_attempts = 6;
  options.max_secondary_wait_seconds = 300;
  options.sleep = [this](double s) { sleeps.push_back(s); };
  options.now = [this] { return clock; };
  GitHubClient client(std::make_shared<CurlTransport>(), options);
  client.get_pull_request("acme", "widgets", 7);
  EXPECT_THAT(sleeps, ElementsAre(60.0, 120.0, 240.0, 300.0, 300.0));
}

TEST_F(GitHubClientTest, LongRetryAfterFailsInsteadOfWaiting) {
  fake.secondary_rate_limit_next(403, 900);
  auto client = make_client();
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 7); }, 403);
  EXPECT_THAT(message, HasSubstr("secondary rate limit"));
  EXPECT_THAT(message, HasSubstr("retry after 2023-11-14 22:28:20 UTC"));
  EXPECT_TRUE(sleeps.empty());
}

TEST_F(GitHubClientTest, PermissionProblemIsExplainedAndNotRetried) {
  fake.fail_next(1, 403, R"({"message":"Resource not accessible by integration"})");
  auto client = make_client();
  std::string message =
      error_of([&] { client.create_comment("acme", "widgets", 7, "hello"); }, 403);
  EXPECT_THAT(message, HasSubstr("the token lacks permission (403): the workflow needs "
                                 "`permissions: pull-requests: write` (or issues: write)"));
  EXPECT_THAT(message, HasSubstr("Resource not accessible by integration"));
  EXPECT_THAT(message, HasSubstr("POST /repos/acme/widgets/issues/7/comments"));
  EXPECT_TRUE(sleeps.empty());
}

TEST_F(GitHubClientTest, UnknownPullRequestIsExplained) {
  auto client = make_client();
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 404); }, 404);
  EXPECT_THAT(message, HasSubstr("not found (404): check --repo OWNER/NAME and the PR number; a "
                                 "token without access to a private repository also gets 404"));
  message = error_of([&] { client.get_pull_request("acme", "nothing", 7); }, 404);
  EXPECT_THAT(message, HasSubstr("not found (404)"));
}

TEST_F(GitHubClientTest, ValidationFailureQuotesGitHub) {
  auto client = make_client();
  // Straight through request(), which (unlike create_comment) does not check the length first.
  std::string long_body = R"({"body":")" + std::string(65537, 'x') + R"("})";
  std::string message = error_of(
      [&] { client.request("POST", "/repos/acme/widgets/issues/7/comments", long_body); }, 422);
  EXPECT_THAT(message, HasSubstr("GitHub refused the request (422): Validation Failed: body is "
                                 "too long (maximum is 65536 characters)"));
}

TEST_F(GitHubClientTest, TokenEchoedByTheServerIsRedacted) {
  fake.fail_next(1, 400, R"({"message":"odd token )" + fake.token() + R"("})");
  auto client = make_client();
  std::string message = error_of([&] { client.get_pull_request("acme", "widgets", 7); }, 400);
  EXPECT_THAT(message, HasSubstr("GitHub answered 400: odd token ***"));
}

TEST_F(GitHubClientTest, WritesArePacedAtLeastOneSecondApart) {
  auto client = make_client();
  client.create_comment("acme", "widgets", 7, "one");
  client.get_pull_request("acme", "widgets", 7);  // reads are not paced
  clock += 0.25;
  client.create_comment("acme", "widgets", 7, "two");
  EXPECT_THAT(sleeps, ElementsAre(0.75));
  clock += 5;
  client.create_comment("acme", "widgets", 7, "three");
  EXPECT_EQ(sleeps.size(), 1u);
}

TEST_F(GitHubClientTest, TheFakeRefusesRequestsWithoutUserAgent) {
  CurlTransport transport;
  // libcurl sends no User-Agent unless told to.
  HttpRequest request{"GET",
                      fake.url() + "/repos/acme/widgets/pulls/7",
                      "",
                      {{"Authorization", "Bearer " + fake.token()}}};
  HttpResponse response = transport.send(request);
  EXPECT_EQ(response.status, 403);
  EXPECT_THAT(response.body, HasSubstr("User-Agent"));
}

// ---------------------------------------------------------------------------------------------
// Without a server: URL composition through a transport that only records.

class RecordingTransport : public HttpTransport {
 public:
  HttpResponse send(const HttpRequest& request) override {
    sent.push_back(request);
    HttpResponse response = next;
    return response;
  }
  std::vector<HttpRequest> sent;
  HttpResponse next{200, R"({"number":7})", {}};
};

TEST(GitHubClientUrlTest, EnterpriseBaseIsJustABase) {
  auto transport = std::make_shared<RecordingTransport>();
  ClientOptions options;
  options.api_url = "https://ghe.example.com/api/v3/";
  GitHubClient client(transport, options);
  EXPECT_EQ(client.api_url(), "https://ghe.example.com/api/v3");
  client.get_pull_request("my-org", "repo.name", 7);
  ASSERT_EQ(transport->sent.size(), 1u);
  EXPECT_EQ(transport->sent[0].url,
            "https://ghe.example.com/api/v3/repos/my-org/repo.name/pulls/7");
}

TEST(GitHubClientUrlTest, OddNamesCannotChangeThePath) {
  auto transport = std::make_shared<RecordingTransport>();
  ClientOptions options;
  options.api_url = "https://api.example.com";
  GitHubClient client(transport, options);
  client.get_pull_request("../x", "a b?c", 1);
  EXPECT_EQ(transport->sent.at(0).url, "https://api.example.com/repos/..%2Fx/a%20b%3Fc/pulls/1");
}

TEST(GitHubClientUrlTest, ApiUrlComesFromOptionThenEnvironmentThenDefault) {
  ::unsetenv("GITHUB_API_URL");
  EXPECT_EQ(resolve_api_url(""), "https://api.github.com");
  ::setenv("GITHUB_API_URL", "https://ghe.example.com/api/v3", 1);
  EXPECT_EQ(resolve_api_url(""), "https://ghe.example.com/api/v3");
  EXPECT_EQ(resolve_api_url("http://127.0.0.1:8080/"), "http://127.0.0.1:8080");
  ::unsetenv("GITHUB_API_URL");
}

TEST(GitHubClientUrlTest, TokenComesFromGitHubTokenThenGhToken) {
  ::unsetenv("GITHUB_TOKEN");
  ::unsetenv("GH_TOKEN");
  EXPECT_EQ(token_from_environment(), "");
  ::setenv("GH_TOKEN", "gh-one", 1);
  EXPECT_EQ(token_from_environment(), "gh-one");
  ::setenv("GITHUB_TOKEN", "github-one", 1);
  EXPECT_EQ(token_from_environment(), "github-one");
  ::unsetenv("GITHUB_TOKEN");
  ::unsetenv("GH_TOKEN");
}

TEST(GitHubClientUrlTest, AnswersOfAnUnexpectedShapeAreGitHubErrors) {
  auto transport = std::make_shared<RecordingTransport>();
  ClientOptions options;
  options.api_url = "https://api.github.com";
  GitHubClient client(transport, options);
  transport->next = {200, R"({"number":"seven"})", {}};
  EXPECT_THROW(client.get_pull_request("o", "r", 7), GitHubError);
  transport->next = {200, R"([1, 2])", {}};
  EXPECT_THROW(client.get_pull_request("o", "r", 7), GitHubError);
  transport->next = {200, R"({"message": "not a list"})", {}};
  EXPECT_THROW(client.list_issue_comments("o", "r", 7), GitHubError);
  transport->next = {200, "<html>proxy error</html>", {}};
  EXPECT_THROW(client.list_issue_comments("o", "r", 7), GitHubError);
  transport->next = {201, R"({"id":"12"})", {}};
  EXPECT_THROW(client.create_comment("o", "r", 7, "x"), GitHubError);
}

TEST(GitHubClientUrlTest, PaginationLinksToAnotherHostAreNotFollowed) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->next = {200, "[]", {{"link", R"(<https://evil.example/steal?page=2>; rel="next")"}}};
  ClientOptions options;
  options.api_url = "https://api.github.com";
  options.token = "secret-token-value";
  GitHubClient client(transport, options);
  try {
    client.list_issue_comments("o", "r", 1);
    FAIL() << "expected a GitHubError";
  } catch (const GitHubError& e) {
    EXPECT_THAT(e.what(), HasSubstr("not sending the token there"));
  }
  EXPECT_EQ(transport->sent.size(), 1u);
}

}  // namespace
}  // namespace benchpr::github
