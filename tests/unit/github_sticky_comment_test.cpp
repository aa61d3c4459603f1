// The sticky comment: found again (across pages), updated in place, never duplicated; keys keep
// several comments apart; GitHub's size limit is enforced before anything is sent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include "benchpr/github/comment_body.hpp"
#include "benchpr/github/curl_transport.hpp"
#include "benchpr/github/github_client.hpp"
#include "support/fake_github.hpp"

namespace benchpr::github {
namespace {

using benchpr::testing::FakeGitHub;
using benchpr::testing::FakePullRequest;
using benchpr::testing::RecordedRequest;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class StickyCommentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    FakePullRequest pr;
    pr.number = 3;
    fake.add_pull_request("acme/widgets", pr);
    ClientOptions options;
    options.api_url = fake.url();
    options.token = fake.token();
    options.sleep = [this](double s) {
      sleeps.push_back(s);
      clock += s;
    };
    options.now = [this] { return clock; };
    client = std::make_unique<GitHubClient>(std::make_shared<CurlTransport>(), options);
  }

  // The requests of `method`, without the GraphQL query of the token's login (a read, though
  // sent as a POST).
  std::vector<RecordedRequest> requests_with(const std::string& method) {
    std::vector<RecordedRequest> out;
    for (const auto& r : fake.requests()) {
      if (r.method == method && r.path != "/graphql") out.push_back(r);
    }
    return out;
  }

  StickyResult upsert(const std::string& body, const std::string& key = "default") {
    return client->upsert_sticky_comment("acme", "widgets", 3, body, key);
  }

  FakeGitHub fake;
  std::unique_ptr<GitHubClient> client;
  std::vector<double> sleeps;
  double clock = 1'700'000'000;
};

TEST_F(StickyCommentTest, FirstCallCreatesSecondUpdatesThirdLeavesAlone) {
  StickyResult first = upsert("### benchpr: 1 regression");
  EXPECT_EQ(first.action, StickyAction::Created);
  EXPECT_EQ(to_string(first.action), "created");
  EXPECT_GT(first.id, 4'294'967'295LL) << "ids beyond 32 bits survive the round trip";
  EXPECT_EQ(first.html_url,
            "https://github.com/acme/widgets/pull/3#issuecomment-" + std::to_string(first.id));

  StickyResult second = upsert("### benchpr: all unchanged");
  EXPECT_EQ(second.action, StickyAction::Updated);
  EXPECT_EQ(second.id, first.id);
  EXPECT_EQ(second.html_url, first.html_url);

  StickyResult third = upsert("### benchpr: all unchanged");
  EXPECT_EQ(third.action, StickyAction::Unchanged);
  EXPECT_EQ(third.id, first.id);

  auto comments = fake.comments("acme/widgets", 3);
  ASSERT_EQ(comments.size(), 1u);
  EXPECT_EQ(comments[0].body, "<!-- benchpr:comment key=default -->\n### benchpr: all unchanged");
  EXPECT_EQ(requests_with("POST").size(), 1u);
  auto patches = requests_with("PATCH");
  ASSERT_EQ(patches.size(), 1u);
  EXPECT_EQ(patches[0].path, "/repos/acme/widgets/issues/comments/" + std::to_string(first.id));
  EXPECT_EQ(patches[0].header("Content-Type"), "application/json");
  // The PATCH came right after the POST on the injected clock: paced by one second.
  EXPECT_THAT(sleeps, ElementsAre(1.0));
}

TEST_F(StickyCommentTest, FindsItsCommentOnPageTwoBehind35Others) {
  fake.set_max_per_page(30);  // the client asks for 100; this server gives 30 a page
  for (int i = 0; i < 35; ++i) fake.add_comment("acme/widgets", 3, "LGTM " + std::to_string(i));
  std::int64_t ours =
      fake.add_comment("acme/widgets", 3, "<!-- benchpr:comment key=default -->\nold results",
                       "github-actions[bot]");

  StickyResult result = upsert("new results");
  EXPECT_EQ(result.action, StickyAction::Updated);
  EXPECT_EQ(result.id, ours);

  auto gets = requests_with("GET");
  ASSERT_EQ(gets.size(), 3u);
  EXPECT_EQ(gets[0].path, "/user");  // whose comment is ours: Actions' token may not ask (403)
  gets.erase(gets.begin());
  EXPECT_EQ(gets[0].path, "/repos/acme/widgets/issues/3/comments");
  EXPECT_EQ(gets[0].param("per_page"), "100");
  EXPECT_EQ(gets[1].param("page"), "2") << "followed Link rel=\"next\"";
  EXPECT_EQ(requests_with("POST").size(), 0u);
  auto comments = fake.comments("acme/widgets", 3);
  ASSERT_EQ(comments.size(), 36u);
  EXPECT_EQ(comments[35].body, "<!-- benchpr:comment key=default -->\nnew results");
}

TEST_F(StickyCommentTest, ListsMoreThanOneFullPageOfComments) {
  for (int i = 0; i < 205; ++i) fake.add_comment("acme/widgets", 3, "c" + std::to_string(i));
  auto comments = client->list_issue_comments("acme", "widgets", 3);
  ASSERT_EQ(comments.size(), 205u);
  EXPECT_EQ(comments.front().body, "c0");
  EXPECT_EQ(comments.back().body, "c204");
  EXPECT_EQ(comments.back().user_login, "octocat");
  EXPECT_EQ(requests_with("GET").size(), 3u);  // 100 + 100 + 5
}

TEST_F(StickyCommentTest, CreatesOnPageTwoThenUpdatesTheSameComment) {
  fake.set_max_per_page(30);
  for (int i = 0; i < 35; ++i) fake.add_comment("acme/widgets", 3, "review " + std::to_string(i));
  StickyResult created = upsert("v1");
  EXPECT_EQ(created.action, StickyAction::Created);
  StickyResult updated = upsert("v2");
  EXPECT_EQ(updated.action, StickyAction::Updated);
  EXPECT_EQ(updated.id, created.id);
  EXPECT_EQ(fake.comments("acme/widgets", 3).size(), 36u);
}

TEST_F(StickyCommentTest, KeysKeepCommentsApart) {
  // A comment with a key that merely starts like ours must not be taken for ours.
  std::int64_t other = fake.add_comment(
      "acme/widgets", 3, "<!-- benchpr:comment key=default2 -->\nother job", "github-actions[bot]");

  StickyResult a = upsert("default job");
  EXPECT_EQ(a.action, StickyAction::Created);
  EXPECT_NE(a.id, other);
  StickyResult b = upsert("second job, again", "default2");
  EXPECT_EQ(b.action, StickyAction::Updated);
  EXPECT_EQ(b.id, other);
  StickyResult c = upsert("linux job", "linux-x86_64");
  EXPECT_EQ(c.action, StickyAction::Created);

  auto comments = fake.comments("acme/widgets", 3);
  ASSERT_EQ(comments.size(), 3u);
  EXPECT_EQ(comments[0].body, "<!-- benchpr:comment key=default2 -->\nsecond job, again");
  EXPECT_EQ(comments[1].body, "<!-- benchpr:comment key=default -->\ndefault job");
  EXPECT_EQ(comments[2].body, "<!-- benchpr:comment key=linux-x86_64 -->\nlinux job");
}

TEST_F(StickyCommentTest, BodyThatAlreadyHasTheMarkerIsSentAsIs) {
  upsert("<!-- benchpr:comment key=default -->\n### benchpr");
  EXPECT_EQ(fake.comments("acme/widgets", 3).at(0).body,
            "<!-- benchpr:comment key=default -->\n### benchpr");
}

TEST_F(StickyCommentTest, TooLongBodyIsRefusedBeforeAnythingIsSent) {
  std::string body(65537, 'x');
  try {
    client->create_comment("acme", "widgets", 3, body);
    FAIL() << "expected a GitHubError";
  } catch (const GitHubError& e) {
    EXPECT_EQ(e.status(), 0);
    EXPECT_THAT(e.what(), HasSubstr("65537 characters, more than the 65536 GitHub accepts"));
  }
  EXPECT_THROW(upsert(std::string(65530, 'x')), GitHubError);  // the marker tips it over
  EXPECT_THROW(client->update_comment("acme", "widgets", 1, body), GitHubError);
  EXPECT_TRUE(fake.requests().empty());
}

TEST_F(StickyCommentTest, LimitCountsCharactersNotBytes) {
  std::string body;
  for (int i = 0; i < 65536; ++i) body += "\xC3\xA9";  // é: 2 bytes, 1 character
  IssueComment comment = client->create_comment("acme", "widgets", 3, body);
  EXPECT_GT(comment.id, 0);
  EXPECT_EQ(fake.comments("acme/widgets", 3).at(0).body.size(), 131072u);
}

TEST_F(StickyCommentTest, CommentOnUnknownPullRequestIsNotFound) {
  try {
    client->upsert_sticky_comment("acme", "widgets", 99, "x", "default");
    FAIL() << "expected a GitHubError";
  } catch (const GitHubError& e) {
    EXPECT_EQ(e.status(), 404);
  }
  EXPECT_EQ(requests_with("POST").size(), 0u);
}

TEST_F(StickyCommentTest, AStrangersMarkedCommentIsNeverEdited) {
  // Someone posts a comment with benchpr's marker before benchpr runs.
  const std::string planted = "<!-- benchpr:comment key=default -->\n**Merge**: all faster!";
  std::int64_t theirs = fake.add_comment("acme/widgets", 3, planted, "mallory");

  StickyResult first = upsert("real results");
  EXPECT_EQ(first.action, StickyAction::Created);
  EXPECT_NE(first.id, theirs);
  StickyResult second = upsert("newer results");
  EXPECT_EQ(second.action, StickyAction::Updated);
  EXPECT_EQ(second.id, first.id);

  auto comments = fake.comments("acme/widgets", 3);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_EQ(comments[0].body, planted);
  EXPECT_EQ(comments[1].login, "github-actions[bot]");
  for (const auto& patch : requests_with("PATCH"))
    EXPECT_EQ(patch.path, "/repos/acme/widgets/issues/comments/" + std::to_string(first.id));
}

TEST_F(StickyCommentTest, AUserTokenMatchesItsOwnLoginFromTheApi) {
  fake.set_token_login("perf-bot");
  fake.add_comment("acme/widgets", 3, "<!-- benchpr:comment key=default -->\nold",
                   "github-actions[bot]");  // another workflow's, not this token's
  std::int64_t ours =
      fake.add_comment("acme/widgets", 3, "<!-- benchpr:comment key=default -->\nold", "perf-bot");
  StickyResult result = upsert("new");
  EXPECT_EQ(result.action, StickyAction::Updated);
  EXPECT_EQ(result.id, ours);
  EXPECT_EQ(client->token_login(), "perf-bot");
  upsert("newer");
  EXPECT_EQ(requests_with("GET").front().path, "/user");
  int user_calls = 0;
  for (const auto& r : requests_with("GET")) user_calls += r.path == "/user" ? 1 : 0;
  EXPECT_EQ(user_calls, 1) << "asked once per client";
}

// A GitHub App's installation token: GET /user answers 403, GraphQL's viewer names the app's
// bot account. Another app's marked comment (here the Actions bot's, from another workflow) is
// left alone: the token's own comment is created, then updated by the next run.
TEST_F(StickyCommentTest, AnAppTokenAsksGraphQLWhoItIsAndLeavesAnotherAppsCommentAlone) {
  fake.set_app_token("my-app");
  const std::string theirs_body = "<!-- benchpr:comment key=default -->\nanother app's";
  const std::int64_t theirs =
      fake.add_comment("acme/widgets", 3, theirs_body, "github-actions[bot]");
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    ClientOptions options;
    options.api_url = fake.url();
    options.token = fake.token();
    options.sleep = [](double) {};
    GitHubClient client(std::make_shared<CurlTransport>(), options);
    const StickyResult result = client.upsert_sticky_comment(
        "acme", "widgets", 3, "results " + std::to_string(run), "default");
    EXPECT_EQ(result.action, run == 1 ? StickyAction::Created : StickyAction::Updated);
    EXPECT_NE(result.id, theirs);
    EXPECT_EQ(client.token_login(), "my-app[bot]");
  }
  const auto comments = fake.comments("acme/widgets", 3);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_EQ(comments[0].body, theirs_body);
  EXPECT_EQ(comments[1].login, "my-app[bot]");
  EXPECT_THAT(comments[1].body, HasSubstr("results 2"));
  for (const auto& patch : requests_with("PATCH"))
    EXPECT_NE(patch.path, "/repos/acme/widgets/issues/comments/" + std::to_string(theirs));
  int graphql = 0;
  for (const auto& r : fake.requests()) {
    if (r.path != "/graphql") continue;
    ++graphql;
    EXPECT_EQ(r.method, "POST");
    EXPECT_THAT(r.body, HasSubstr("viewer { login }"));
  }
  EXPECT_EQ(graphql, 2) << "once per client";
}

// When GraphQL's viewer is closed too, the login is learnt from the first comment posted.
TEST_F(StickyCommentTest, AnAppTokenFindsItsOwnCommentInTheNextRun) {
  fake.set_app_token("my-app");
  fake.set_graphql_viewer_closed(true);
  fake.add_comment("acme/widgets", 3, "<!-- benchpr:comment key=default -->\nplanted", "mallory");
  std::vector<std::string> logged;
  ClientOptions options;
  options.api_url = fake.url();
  options.token = fake.token();
  options.sleep = [](double) {};
  options.log = [&logged](const std::string& line) { logged.push_back(line); };
  GitHubClient first_run(std::make_shared<CurlTransport>(), options);
  const StickyResult first =
      first_run.upsert_sticky_comment("acme", "widgets", 3, "results", "default");
  EXPECT_EQ(first.action, StickyAction::Created);
  EXPECT_EQ(first_run.token_login(), "my-app[bot]") << "learnt from the POST's answer";
  ASSERT_FALSE(logged.empty());
  EXPECT_THAT(logged.front(), HasSubstr("GraphQL's viewer are closed to this token"));
  EXPECT_THAT(logged.back(), HasSubstr("benchpr's comments are by my-app[bot]"));

  GitHubClient second_run(std::make_shared<CurlTransport>(), options);
  const StickyResult second =
      second_run.upsert_sticky_comment("acme", "widgets", 3, "newer results", "default");
  EXPECT_EQ(second.action, StickyAction::Updated);
  EXPECT_EQ(second.id, first.id);
  const auto comments = fake.comments("acme/widgets", 3);
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_EQ(comments[0].login, "mallory");
  EXPECT_THAT(comments[0].body, HasSubstr("planted")) << "a person's marked comment is not ours";
  EXPECT_EQ(comments[1].login, "my-app[bot]");
  EXPECT_THAT(comments[1].body, HasSubstr("newer results"));
}

TEST_F(StickyCommentTest, MarkedCommentsOfSeveralAppsAreWarnedAboutWhenNoLoginIsKnown) {
  fake.set_app_token("my-app");
  fake.set_graphql_viewer_closed(true);
  const std::int64_t actions = fake.add_comment(
      "acme/widgets", 3, "<!-- benchpr:comment key=default -->\nold", "github-actions[bot]");
  fake.add_comment("acme/widgets", 3, "<!-- benchpr:comment key=default -->\nold", "my-app[bot]");
  std::vector<std::string> logged;
  ClientOptions options;
  options.api_url = fake.url();
  options.token = fake.token();
  options.log = [&logged](const std::string& line) { logged.push_back(line); };
  GitHubClient client(std::make_shared<CurlTransport>(), options);
  const StickyResult result = client.upsert_sticky_comment("acme", "widgets", 3, "new", "default");
  EXPECT_EQ(result.id, actions);
  ASSERT_FALSE(logged.empty());
  EXPECT_THAT(logged.back(), HasSubstr("by several apps (github-actions[bot], my-app[bot])"));
  EXPECT_THAT(logged.back(), HasSubstr("pass --comment-author"));
}

// GraphQL may name a bot without REST's suffix; on GitHub Enterprise Server it lives at
// /api/graphql beside /api/v3.
TEST(GraphQLViewerTest, ABareBotLoginGetsTheSuffixAndGHESIsAskedAtApiGraphql) {
  struct Transport : HttpTransport {
    std::vector<std::string> urls;
    HttpResponse send(const HttpRequest& req) override {
      urls.push_back(req.url);
      HttpResponse r;
      if (req.url.ends_with("/user")) {
        r.status = 403;
        r.body = R"({"message":"Resource not accessible by integration"})";
      } else {
        r.status = 200;
        r.body = R"({"data":{"viewer":{"login":"my-app"}}})";
      }
      return r;
    }
  };
  auto transport = std::make_shared<Transport>();
  ClientOptions options;
  options.api_url = "https://ghe.example.com/api/v3";
  options.token = "t";
  options.sleep = [](double) {};
  GitHubClient client(transport, options);
  EXPECT_EQ(client.token_login(), "my-app[bot]");
  EXPECT_THAT(transport->urls, ElementsAre("https://ghe.example.com/api/v3/user",
                                           "https://ghe.example.com/api/graphql"));
}

TEST_F(StickyCommentTest, AnExplicitAuthorOverridesTheTokensLogin) {
  std::int64_t app = fake.add_comment("acme/widgets", 3,
                                      "<!-- benchpr:comment key=default -->\nold", "my-app[bot]");
  StickyOptions options;
  options.author = "my-app[bot]";
  StickyResult result = client->upsert_sticky_comment("acme", "widgets", 3, "new", options);
  EXPECT_EQ(result.action, StickyAction::Updated);
  EXPECT_EQ(result.id, app);
  for (const auto& r : fake.requests()) EXPECT_NE(r.path, "/user");
}

TEST_F(StickyCommentTest, APostThatLandedBeforeA502IsNotMadeTwice) {
  client->token_login();
  // Faults are taken one per request: the listing passes, the POST stores the comment and then
  // answers 502.
  fake.carry_out_then_fail_next(0);
  fake.carry_out_then_fail_next(502);
  StickyResult result = upsert("results");
  EXPECT_EQ(result.action, StickyAction::Created);
  auto comments = fake.comments("acme/widgets", 3);
  ASSERT_EQ(comments.size(), 1u);
  EXPECT_EQ(result.id, comments[0].id);
  EXPECT_EQ(result.html_url, comments[0].html_url);
  EXPECT_EQ(requests_with("POST").size(), 1u);
  EXPECT_EQ(requests_with("PATCH").size(), 0u) << "the landed body is already the right one";
}

TEST_F(StickyCommentTest, APostThatLandedButTimedOutIsNotMadeTwice) {
  ClientOptions options;
  options.api_url = fake.url();
  options.token = fake.token();
  options.sleep = [](double) {};
  CurlOptions curl;
  curl.total_timeout_ms = 2000;  // ample for every other answer from 127.0.0.1, loaded or not
  GitHubClient impatient(std::make_shared<CurlTransport>(curl), options);
  impatient.token_login();
  fake.carry_out_then_fail_next(0);  // the listing passes
  // Stored, and the answer held until the fake goes away: always too late for the client.
  fake.carry_out_then_fail_next(0, std::chrono::minutes(10));
  StickyResult result = impatient.upsert_sticky_comment("acme", "widgets", 3, "results", "default");
  EXPECT_EQ(result.action, StickyAction::Created);
  ASSERT_EQ(fake.comments("acme/widgets", 3).size(), 1u);
  EXPECT_EQ(result.id, fake.comments("acme/widgets", 3)[0].id);
  EXPECT_EQ(requests_with("POST").size(), 1u);
}

TEST_F(StickyCommentTest, APostThatDidNotLandIsSentAgain) {
  client->token_login();
  fake.carry_out_then_fail_next(0);  // the listing passes
  fake.fail_next(1, 502);            // the POST is refused before anything is stored
  StickyResult result = upsert("results");
  EXPECT_EQ(result.action, StickyAction::Created);
  EXPECT_EQ(fake.comments("acme/widgets", 3).size(), 1u);
  EXPECT_EQ(requests_with("POST").size(), 2u);
}

TEST_F(StickyCommentTest, WithoutCreateOnlyAnExistingCommentIsUpdated) {
  StickyOptions on_change;
  on_change.create = false;
  StickyResult none = client->upsert_sticky_comment("acme", "widgets", 3, "flat", on_change);
  EXPECT_EQ(none.action, StickyAction::Skipped);
  EXPECT_EQ(to_string(none.action), "skipped");
  EXPECT_TRUE(fake.comments("acme/widgets", 3).empty());
  EXPECT_TRUE(requests_with("POST").empty());

  StickyResult created = upsert("1 regression");
  StickyResult updated = client->upsert_sticky_comment("acme", "widgets", 3, "flat", on_change);
  EXPECT_EQ(updated.action, StickyAction::Updated);
  EXPECT_EQ(updated.id, created.id);
  EXPECT_EQ(fake.comments("acme/widgets", 3).at(0).body,
            "<!-- benchpr:comment key=default -->\nflat");
}

TEST_F(StickyCommentTest, CommitStatusAndReactionReachTheApi) {
  CommitStatus status;
  status.state = "success";
  status.context = "benchpr/linux";
  status.description = std::string(150, 'x');  // GitHub takes at most 140 characters
  status.target_url = "https://github.com/acme/widgets/pull/3#issuecomment-1";
  client->set_commit_status("acme", "widgets", "2222222222222222222222222222222222222222", status);
  auto statuses = fake.statuses();
  ASSERT_EQ(statuses.size(), 1u);
  EXPECT_EQ(statuses[0].sha, "2222222222222222222222222222222222222222");
  EXPECT_EQ(statuses[0].context, "benchpr/linux");
  EXPECT_EQ(statuses[0].state, "success");
  EXPECT_EQ(statuses[0].description, std::string(139, 'x') + "\u2026");
  EXPECT_EQ(statuses[0].target_url, status.target_url);

  std::int64_t id = fake.add_comment("acme/widgets", 3, "/benchmark", "maintainer");
  client->add_reaction("acme", "widgets", id, "eyes");
  ASSERT_EQ(fake.reactions().size(), 1u);
  EXPECT_EQ(fake.reactions()[0].comment_id, id);
  EXPECT_EQ(fake.reactions()[0].content, "eyes");
}

// ---------------------------------------------------------------------------------------------
// The marker rules alone.

TEST(CommentBodyTest, MarkerMatchesTheExactKeyOnTheFirstLineOnly) {
  EXPECT_EQ(sticky_marker("default"), "<!-- benchpr:comment key=default -->");
  EXPECT_TRUE(has_sticky_marker("<!-- benchpr:comment key=default -->\nbody", "default"));
  EXPECT_TRUE(has_sticky_marker("<!-- benchpr:comment key=default -->", "default"));
  EXPECT_TRUE(has_sticky_marker("Results <!-- benchpr:comment key=default -->\n", "default"));
  EXPECT_TRUE(has_sticky_marker("<!-- benchpr:comment key=default -->\r\nbody", "default"));
  EXPECT_FALSE(has_sticky_marker("<!-- benchpr:comment key=default2 -->\nbody", "default"));
  EXPECT_FALSE(has_sticky_marker("<!-- benchpr:comment key=default -->\nbody", "default2"));
  EXPECT_FALSE(has_sticky_marker("quoted:\n<!-- benchpr:comment key=default -->", "default"));
  EXPECT_FALSE(has_sticky_marker("", "default"));
}

TEST(CommentBodyTest, KeysThatCouldBreakTheMarkerAreRejected) {
  EXPECT_TRUE(valid_comment_key("linux-x86_64.gcc12"));
  EXPECT_FALSE(valid_comment_key(""));
  EXPECT_FALSE(valid_comment_key("a -->"));
  EXPECT_FALSE(valid_comment_key("a\nb"));
  EXPECT_TRUE(valid_comment_key(std::string(kMaxCommentKeyChars, 'k')));
  EXPECT_FALSE(valid_comment_key(std::string(kMaxCommentKeyChars + 1, 'k')));
  // An invalid key reaches no marker as it is: it is reduced, the same way the renderer does.
  EXPECT_EQ(sticky_marker("x y -->"), "<!-- benchpr:comment key=xy-- -->");
}

TEST(CommentBodyTest, WithStickyMarkerAddsItOnce) {
  EXPECT_EQ(with_sticky_marker("hi", "k"), "<!-- benchpr:comment key=k -->\nhi");
  EXPECT_EQ(with_sticky_marker("<!-- benchpr:comment key=k -->\nhi", "k"),
            "<!-- benchpr:comment key=k -->\nhi");
}

TEST(CommentBodyTest, CountsUnicodeCharacters) {
  EXPECT_EQ(comment_characters(""), 0u);
  EXPECT_EQ(comment_characters("abc"), 3u);
  EXPECT_EQ(comment_characters("µs"), 2u);                // 2-byte + ASCII
  EXPECT_EQ(comment_characters("\xE2\x9D\x8C ok"), 4u);   // ❌ is 3 bytes
  EXPECT_EQ(comment_characters("\xF0\x9F\x9A\x80"), 1u);  // 🚀 is 4 bytes
}

}  // namespace
}  // namespace benchpr::github
