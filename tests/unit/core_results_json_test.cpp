// The results file is read back by `benchpr publish`, often in another job than the one that
// wrote it: whatever it contains is untrusted. These tests check the round trip and that every
// kind of broken or hostile file is refused with a message naming the field, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/json/json_pull_scanner.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/results_json_schema.hpp"

namespace benchpr {
namespace {

using nlohmann::json;

const std::string kBaseSha = "0123456789abcdef0123456789abcdef01234567";
const std::string kHeadSha = "89abcdef0123456789abcdef0123456789abcdef";

Results sample() {
  Results r;
  r.tool_version = "0.1.0";
  r.base = {"merge base of main", kBaseSha, "Base subject with <b>html</b>", true};
  r.head = {"refs/pull/7/head", kHeadSha, "perf: @octocat </details> | x"};
  r.config.build = "make -j2";
  r.config.rounds = 2;
  r.config.warmup_rounds = 1;
  r.config.threshold = 0.05;
  r.config.timeout_seconds = 90;
  r.config.repetitions = 5;
  r.config.budget_seconds = 1200;
  SuiteConfig suite;
  suite.name = "micro";
  suite.run = "./bench --x";
  suite.format = FormatKind::GoogleBenchmark;
  suite.timeout_seconds = 3;
  suite.metric = "cpu_time";
  suite.better = Better::Higher;
  r.config.suites.push_back(suite);
  r.machine = {"AMD EPYC", 2, "Linux 6.1", "g++ 12"};
  r.pull_request = PullRequestInfo{7,
                                   "acme/widgets",
                                   "perf: faster <img src=x>",
                                   {"performance", "@team"},
                                   "https://github.com/acme/widgets/pull/7",
                                   "2222222222222222222222222222222222222222"};
  r.config_changed_by_head = true;
  r.seed = 18446744073709551615ull;  // the largest seed survives as an unsigned 64-bit number
  r.plan = {{0, true, Side::Base}, {1, false, Side::Head}, {2, false, Side::Base}};
  r.builds = {{Side::Base, true, 12.5, "", ""}, {Side::Head, true, 13.25, "", ""}};
  r.runs = {{0, "micro", Side::Base, 0, 0.5, 1.25, true, "", ""},
            {0, "micro", Side::Head, 1, 1.75, 2.0, false, "killed by signal 11 (SIGSEGV)",
             "Segmentation fault\n</details>\n"}};
  r.runs[1].failure_kind = FailureKind::Signal;
  BenchmarkSeries s;
  s.suite = "micro";
  s.name = "<img src=x onerror=alert(1)>|@octocat";
  s.unit = "ns";
  s.better = Better::Lower;
  s.base = {100.5, 101.25, kMissing};
  s.head = {kMissing, 99.0, 98.5};
  s.head_failure = "round 0: killed by signal 11 (SIGSEGV)";
  s.head_failure_kind = FailureKind::Signal;
  r.series.push_back(s);
  r.rounds_done = 3;
  r.complete = false;
  r.stop = {StopKind::Interrupted, 0, "by SIGTERM"};
  r.measuring_seconds = 42.5;
  r.overhead_seconds = 0.25;
  r.counting_seconds = 408.5;
  r.workflow_run_url = "https://github.com/acme/widgets/actions/runs/1";
  return r;
}

// The message of the ResultsFormatError `text` raises ("" if it is accepted).
std::string rejection(const std::string& text) {
  try {
    results_from_string(text);
  } catch (const ResultsFormatError& e) {
    return e.what();
  }
  return "";
}

// The sample document with one change applied.
std::string edited(const std::function<void(json&)>& edit) {
  json j = json::parse(results_to_string(sample()));
  edit(j);
  return j.dump();
}

TEST(ResultsJson, RoundTripKeepsEveryField) {
  const Results a = sample();
  const std::string text = results_to_string(a);
  const Results b = results_from_string(text);
  EXPECT_EQ(results_to_string(b), text);

  EXPECT_EQ(b.head.subject, "perf: @octocat </details> | x");  // data, not escaped here
  EXPECT_TRUE(b.base.merge_base);
  EXPECT_FALSE(b.head.merge_base);
  EXPECT_EQ(b.seed, 18446744073709551615ull);
  ASSERT_EQ(b.config.suites.size(), 1u);
  EXPECT_EQ(b.config.suites[0].timeout_seconds, 3.0);
  EXPECT_EQ(b.config.suites[0].better, Better::Higher);
  EXPECT_EQ(b.config.budget_seconds, 1200.0);
  ASSERT_TRUE(b.pull_request.has_value());
  EXPECT_EQ(b.pull_request->labels, (std::vector<std::string>{"performance", "@team"}));
  EXPECT_EQ(b.pull_request->head_sha, "2222222222222222222222222222222222222222");
  ASSERT_EQ(b.runs.size(), 2u);
  EXPECT_FALSE(b.runs[1].ok);
  EXPECT_EQ(b.runs[1].log_tail, "Segmentation fault\n</details>\n");
  EXPECT_EQ(b.runs[0].failure_kind, FailureKind::None);
  EXPECT_EQ(b.runs[1].failure_kind, FailureKind::Signal);
  EXPECT_EQ(b.series[0].base_failure_kind, FailureKind::None);
  EXPECT_EQ(b.series[0].head_failure_kind, FailureKind::Signal);
  ASSERT_EQ(b.series.size(), 1u);
  EXPECT_EQ(b.series[0].name, "<img src=x onerror=alert(1)>|@octocat");
  ASSERT_EQ(b.series[0].base.size(), 3u);
  EXPECT_EQ(b.series[0].base[1], 101.25);
  EXPECT_TRUE(is_missing(b.series[0].base[2]));  // written as null, read back as missing
  EXPECT_TRUE(is_missing(b.series[0].head[0]));
  EXPECT_EQ(b.rounds_done, 3);
  EXPECT_FALSE(b.complete);
  EXPECT_EQ(b.stop, (StopReason{StopKind::Interrupted, 0, "by SIGTERM"}));
  EXPECT_EQ(describe(b.stop), "interrupted by SIGTERM");
  EXPECT_EQ(b.counting_seconds, 408.5);
}

// Every string is capped where it is written, under the readers' limit: a commit subject, a
// name or a reason of any length must never make the file unreadable (a 64 KiB subject once
// made `publish` refuse it, and no comment was posted). Strings at the limit come back whole.
TEST(ResultsJson, CacheEventsRoundTripInBothReadersAndOlderFilesStillRead) {
  Results a = sample();
  BenchmarkSeries s;
  s.suite = "micro (instructions)";
  s.name = "BM_Walk";
  s.unit = "instructions";
  s.metric = "instructions";
  s.base = {28686, 28686.5};
  s.head = {28686};
  // A difference of two runs may be 0 or a little below zero: kept as read.
  s.base_events = {{"D1mr", {16, 16.5}}, {"DLmr", {0, -0.25}}, {"Bcm", {2, 2}}};
  s.head_events = {{"D1mr", {4097}}, {"DLmr", {256}}};
  a.series.push_back(s);
  a.config.cycle_estimate = false;
  const std::string text = results_to_string(a);
  const json doc = json::parse(text);
  EXPECT_EQ(doc["series"][1]["events"]["D1mr"]["head"], json::array({4097}));
  EXPECT_EQ(doc["series"][1]["events"]["Bcm"]["head"], json::array());
  EXPECT_EQ(doc["config"]["cycle_estimate"], false);
  for (const Results& b : {results_from_string(text), results_from_json(doc)}) {
    ASSERT_EQ(b.series.size(), 2u);
    EXPECT_EQ(b.series[1].base_events, s.base_events);
    EXPECT_EQ(b.series[1].head_events, s.head_events);
    EXPECT_TRUE(b.series[0].base_events.empty());
    EXPECT_FALSE(b.config.cycle_estimate);
    EXPECT_EQ(results_to_string(b), text);
  }
  // A file from before: no events field, no cycle_estimate (on by default).
  const std::string old = results_to_string(sample());
  EXPECT_EQ(old.find("\"events\""), std::string::npos);
  EXPECT_EQ(old.find("cycle_estimate"), std::string::npos);
  const Results back = results_from_string(old);
  EXPECT_TRUE(back.series[0].base_events.empty());
  EXPECT_TRUE(back.config.cycle_estimate);
  // Events the schema does not know are passed over; a malformed known one is refused.
  json unknown = doc;
  unknown["series"][1]["events"]["Evil"] = {{"base", {1}}, {"head", {1}}};
  EXPECT_EQ(results_from_string(unknown.dump()).series[1].base_events.count("Evil"), 0u);
  json broken = doc;
  broken["series"][1]["events"]["D1mr"] = {{"base", "x"}, {"head", {1}}};
  EXPECT_THROW(results_from_string(broken.dump()), ResultsFormatError);
  EXPECT_THROW(results_from_json(broken), ResultsFormatError);
}

TEST(ResultsJson, LongestStringsAreCappedWhereWrittenAndReadBack) {
  const std::size_t limit = results_schema::kMaxString;
  const std::string huge(4 * limit, 'x');
  // Ill-formed bytes triple when written as U+FFFD: still under the limit.
  const std::string invalid(limit, '\xff');
  Results a = sample();
  a.head.subject = huge;
  a.base.subject = invalid;
  a.base.spec = huge;
  a.config.suites[0].name = huge;
  a.series[0].suite = huge;
  a.series[0].name = huge + "é";
  a.series[0].unit = invalid;
  a.series[0].head_failure = huge;
  a.runs[0].suite = huge;
  a.runs[1].failure = huge;
  a.runs[1].log_tail = invalid;
  a.builds[1].failure = huge;
  a.stop.detail = huge;
  a.pull_request->title = huge;
  a.workflow_run_url = huge;
  Bisection b;
  b.method = BisectMethod::Time;
  b.commits = {{kBaseSha, huge, false, ""}, {kHeadSha, huge, true, huge}};
  b.stop.detail = huge;
  a.bisect = b;
  const std::string text = results_to_string(a);
  Results r;
  ASSERT_NO_THROW(r = results_from_string(text));
  for (const std::string* s :
       {&r.head.subject, &r.base.subject, &r.base.spec, &r.config.suites[0].name,
        &r.series[0].suite, &r.series[0].name, &r.series[0].unit, &r.series[0].head_failure,
        &r.runs[0].suite, &r.runs[1].failure, &r.runs[1].log_tail, &r.builds[1].failure,
        &r.stop.detail, &r.pull_request->title, &r.workflow_run_url}) {
    EXPECT_LE(s->size(), limit);
    EXPECT_GE(s->size(), limit - 8);
    EXPECT_EQ(s->substr(s->size() - 3), "\u2026");
  }
  ASSERT_TRUE(r.bisect.has_value());
  EXPECT_LE(r.bisect->commits[1].subject.size(), 4096u);
  EXPECT_EQ(r.bisect->commits[1].subject.substr(0, 10), "xxxxxxxxxx");
  // Written again, the capped file is the same file.
  EXPECT_EQ(results_to_string(r), text);

  // The longest accepted strings are not cut.
  Results c = sample();
  c.head.subject = std::string(limit - 2, 'y') + "é";
  c.series[0].name = std::string(limit, 'n');
  c.stop.detail = std::string(limit, 's');
  const Results d = results_from_string(results_to_string(c));
  EXPECT_EQ(d.head.subject, c.head.subject);
  EXPECT_EQ(d.series[0].name, c.series[0].name);
  EXPECT_EQ(d.stop, c.stop);
}

// The schema names the top-level fields the readers read; the scanner passes over every other
// one unread. A field the writer writes outside the analysis and the schema would be lost on the
// way through publish, and a field the schema names that nothing writes is a reader's typo.
TEST(ResultsJson, TheSchemaNamesEveryFieldTheWriterWritesOutsideTheAnalysis) {
  Results r = sample();
  r.origin = Origin::Executables;
  r.shard = ShardInfo{};
  r.shard->count = 2;
  r.shard->index = 1;
  r.shard->partition = {{"micro", "BM_A", 1}};
  r.time_plan = TimePlan{};
  r.looks = {LookRecord{2, 0.5, 0.01, 0.05}};
  r.profiles = {BenchmarkProfile{}};
  r.bisect = Bisection{};
  r.executables = {{"micro", Side::Base, "bench", std::string(64, 'a')}};
  r.identical_suites = {"micro"};
  r.placement_shifts = {0, 16, 32, 48};
  r.hot_code = {CodeEvidence{"micro", "BM_A", {}, 0.95, "", ""}};
  r.resumed_rounds = 1;
  r.counting_share_seconds = 225;
  const Analysis analysis;
  const json doc = json::parse(results_to_string(r, &analysis));
  const std::set<std::string> analysis_fields = {"benchmarks", "suites", "analysed_rounds",
                                                 "mde",        "notes",  "recommendation"};
  std::set<std::string> written;
  for (auto it = doc.begin(); it != doc.end(); ++it) written.insert(it.key());
  for (const std::string& key : written) {
    if (analysis_fields.count(key)) continue;
    EXPECT_TRUE(key == results_schema::kSeriesField || results_schema::read_outside_the_series(key))
        << key;
  }
  for (const auto& fields : {std::vector<std::string_view>(results_schema::kHeaderFields.begin(),
                                                           results_schema::kHeaderFields.end()),
                             std::vector<std::string_view>(results_schema::kTrailerFields.begin(),
                                                           results_schema::kTrailerFields.end())})
    for (std::string_view field : fields) EXPECT_TRUE(written.count(std::string(field))) << field;
  EXPECT_FALSE(results_schema::read_outside_the_series("benchmarks"));
  EXPECT_FALSE(results_schema::read_outside_the_series("series"));
}

// The placement control's offsets say which program each round ran and which rounds the analysis
// reads (whole cycles): they come back as written, and a file whose offsets do not start with the
// program as built, repeat one, or run past a page is refused.
TEST(ResultsJson, PlacementShiftsRoundTripAndAreChecked) {
  Results a = sample();
  EXPECT_EQ(results_to_string(a).find("placement_shifts"), std::string::npos);
  EXPECT_TRUE(results_from_string(results_to_string(a)).placement_shifts.empty());
  a.placement_shifts = {0, 16, 32, 48};
  EXPECT_EQ(results_from_string(results_to_string(a)).placement_shifts,
            (std::vector<int>{0, 16, 32, 48}));
  EXPECT_EQ(same_comparison(results_from_string(results_to_string(a))).placement_shifts,
            a.placement_shifts);
  const auto with = [](const json& shifts) {
    return rejection(edited([&](json& j) { j["placement_shifts"] = shifts; }));
  };
  EXPECT_EQ(with(json::array({0, 32})), "");
  EXPECT_NE(with(json::array({16, 32})).find("placement_shifts[0]"), std::string::npos);
  EXPECT_NE(with(json::array({0, 32, 32})).find("placement_shifts[2]"), std::string::npos);
  EXPECT_NE(with(json::array({0, 5000})).find("placement_shifts[1]"), std::string::npos);
  EXPECT_NE(with(json::array({0, "16"})).find("placement_shifts[1]"), std::string::npos);
  EXPECT_NE(with(json::array({0, 1, 2, 3, 4, 5, 6, 7, 8})).find("placement_shifts"),
            std::string::npos);
}

// An adaptive session's looks are replayed from the file: they must come back as written, and a
// file whose looks do not read more rounds each time, or claim levels no look tests at, is refused.
TEST(ResultsJson, AdaptiveLooksRoundTripAndAreChecked) {
  Results a = sample();
  a.looks = {{10, 0.25, 0.0179, 0.00009}, {20, 1.0, 0.0321, 0.04991}};
  const Results b = results_from_string(results_to_string(a));
  ASSERT_EQ(b.looks.size(), 2u);
  EXPECT_EQ(b.looks[1].rounds, 20);
  EXPECT_DOUBLE_EQ(b.looks[0].information, 0.25);
  EXPECT_DOUBLE_EQ(b.looks[0].alpha, 0.0179);
  EXPECT_DOUBLE_EQ(b.looks[1].equivalence_alpha, 0.04991);
  EXPECT_TRUE(results_from_string(results_to_string(sample())).looks.empty());

  const json looks = json::parse(results_to_string(a))["looks"];
  auto with_looks = [&](const std::function<void(json&)>& edit) {
    return rejection(edited([&](json& j) {
      j["looks"] = looks;
      edit(j["looks"]);
    }));
  };
  EXPECT_EQ(with_looks([](json&) {}), "");
  EXPECT_NE(with_looks([](json& l) { l[1]["rounds"] = 10; }).find("looks[1].rounds"),
            std::string::npos);
  EXPECT_NE(with_looks([](json& l) { l[0]["alpha"] = 0.7; }).find("looks[0].alpha"),
            std::string::npos);
  EXPECT_NE(with_looks([](json& l) { l[0]["information"] = 1.5; }).find("looks[0].information"),
            std::string::npos);
  // One stage writes no horizon share; two stages write theirs on every look, the same on each.
  EXPECT_FALSE(looks[0].contains("horizon_share"));
  Results two = a;
  for (LookRecord& l : two.looks) l.horizon_share = 0.8;
  EXPECT_DOUBLE_EQ(results_from_string(results_to_string(two)).looks[1].horizon_share, 0.8);
  EXPECT_NE(with_looks([](json& l) { l[0]["horizon_share"] = 0; }).find("looks[0].horizon_share"),
            std::string::npos);
  // Counting's share of the budget: written where there was one, read back, never negative.
  EXPECT_EQ(results_to_string(a).find("counting_share_seconds"), std::string::npos);
  Results capped = a;
  capped.counting_share_seconds = 450;
  EXPECT_DOUBLE_EQ(results_from_string(results_to_string(capped)).counting_share_seconds, 450);
  json negative = json::parse(results_to_string(capped));
  negative["counting_share_seconds"] = -1;
  EXPECT_NE(rejection(negative.dump()).find("counting_share_seconds"), std::string::npos);
  // Whether a slowdown whose size is open stays open: written only where it does, the same on
  // every look.
  EXPECT_FALSE(looks[0].contains("keeps_size_open"));
  EXPECT_FALSE(results_from_string(results_to_string(a)).looks[0].keeps_size_open);
  Results keeping = a;
  for (LookRecord& l : keeping.looks) l.keeps_size_open = true;
  EXPECT_TRUE(results_from_string(results_to_string(keeping)).looks[1].keeps_size_open);
  EXPECT_NE(
      with_looks([](json& l) { l[1]["keeps_size_open"] = true; }).find("looks[1].keeps_size_open"),
      std::string::npos);
  EXPECT_NE(with_looks([](json& l) {
              l[0]["horizon_share"] = 0.8;
              l[1]["horizon_share"] = 0.9;
            }).find("looks[1].horizon_share"),
            std::string::npos);
}

TEST(ResultsJson, ProfilesRoundTripAndAreChecked) {
  Results a = sample();
  BenchmarkProfile p;
  p.suite = "bench";
  p.name = "BM_<b>";
  p.requested_by = "regression";
  p.seconds = 2.5;
  p.from_counts = true;
  p.base = FunctionProfile{10, {{"f|`x`", 4, 10}, {"g", 6, 6}}, {{"f|`x`", "g", 6}}};
  p.head = FunctionProfile{12, {{"f|`x`", 4, 12}, {"g", 8, 8}}, {{"f|`x`", "g", 8}}};
  a.profiles.push_back(p);
  BenchmarkProfile skipped;
  skipped.suite = "bench";
  skipped.name = "BM_y";
  skipped.requested_by = "--why";
  skipped.skipped = "the time budget was spent";
  a.profiles.push_back(skipped);
  const std::string text = results_to_string(a);
  const Results b = results_from_string(text);
  EXPECT_EQ(results_to_string(b), text);
  ASSERT_EQ(b.profiles.size(), 2u);
  ASSERT_TRUE(b.profiles[0].head);
  EXPECT_EQ(b.profiles[0].head->functions[1].self, 8);
  EXPECT_TRUE(b.profiles[0].from_counts);
  EXPECT_FALSE(b.profiles[1].from_counts);
  EXPECT_EQ(b.profiles[0].head->calls[0].callee, "g");
  EXPECT_FALSE(b.profiles[1].base);
  EXPECT_EQ(b.profiles[1].skipped, "the time budget was spent");

  json j = json::parse(text);
  j["profiles"][0]["head"]["functions"][0][1] = -1;
  EXPECT_NE(rejection(j.dump()).find("profiles[0].head.functions[0]"), std::string::npos);
  j = json::parse(text);
  j["profiles"][0]["base"]["calls"][0] = "x";
  EXPECT_NE(rejection(j.dump()).find("expected [caller, callee, inclusive]"), std::string::npos);
}

// Where the values came from: absent for revisions (as every older file), named otherwise; the
// SHAs are a commit's for revisions and "" for files or executables, nothing in between.
TEST(ResultsJson, OriginRoundTripsAndDecidesWhatTheShaMayBe) {
  Results r = sample();
  EXPECT_EQ(json::parse(results_to_string(r)).count("origin"), 0u);
  for (Origin origin : {Origin::Executables, Origin::ResultFiles}) {
    r.origin = origin;
    r.base.sha = r.head.sha = "";
    const std::string text = results_to_string(r);
    EXPECT_EQ(json::parse(text).at("origin"), to_string(origin));
    const Results back = results_from_string(text);
    EXPECT_EQ(back.origin, origin);
    EXPECT_EQ(back.base.sha, "");
    json doc = json::parse(text);
    doc["base"]["sha"] = kBaseSha;  // a commit where there is none
    EXPECT_THROW(results_from_string(doc.dump()), ResultsFormatError);
    doc["base"]["sha"] = "";
    doc["origin"] = "guesswork";
    EXPECT_THROW(results_from_string(doc.dump()), ResultsFormatError);
  }
  json revisions = json::parse(results_to_string(sample()));
  revisions["base"]["sha"] = "";
  EXPECT_THROW(results_from_string(revisions.dump()), ResultsFormatError);
}

TEST(ResultsJson, FailureKindsAreWrittenBesideFailuresOnly) {
  const json j = json::parse(results_to_string(sample()));
  EXPECT_FALSE(j["runs"][0].contains("failure_kind"));
  EXPECT_EQ(j["runs"][1]["failure_kind"], "signal");
  EXPECT_FALSE(j["series"][0].contains("base_failure_kind"));
  EXPECT_EQ(j["series"][0]["head_failure_kind"], "signal");
  EXPECT_FALSE(j["builds"][0].contains("failure_kind"));
}

TEST(ResultsJson, FailuresWithoutAKindReadAsOther) {
  // Files written before kinds were recorded, and kinds a later version added, still read: the
  // failure stays a failure, of no known kind.
  const Results old = results_from_string(edited([](json& j) {
    j["runs"][1].erase("failure_kind");
    j["series"][0].erase("head_failure_kind");
    j["series"][0]["base_failure"] = "error: out of memory";
    j["series"][0]["base_failure_kind"] = "a-kind-from-the-future";
  }));
  EXPECT_EQ(old.runs[0].failure_kind, FailureKind::None);
  EXPECT_EQ(old.runs[1].failure_kind, FailureKind::Other);
  EXPECT_EQ(old.series[0].head_failure_kind, FailureKind::Other);
  EXPECT_EQ(old.series[0].base_failure_kind, FailureKind::Other);
}

TEST(ResultsJson, EveryFailureKindRoundTripsByName) {
  for (FailureKind k :
       {FailureKind::None, FailureKind::ExitCode, FailureKind::Signal, FailureKind::Timeout,
        FailureKind::NotStarted, FailureKind::Interrupted, FailureKind::BadOutput,
        FailureKind::BenchmarkError, FailureKind::ValueOutOfRange, FailureKind::GivenUp,
        FailureKind::Setup, FailureKind::Other}) {
    EXPECT_EQ(failure_kind_from_string(to_string(k)), k) << to_string(k);
  }
  EXPECT_EQ(to_string(FailureKind::ValueOutOfRange), "value-out-of-range");
  EXPECT_FALSE(failure_kind_from_string("timed out").has_value());
}

TEST(ResultsJson, MissingValuesAreWrittenAsNull) {
  const json j = json::parse(results_to_string(sample()));
  EXPECT_TRUE(j["series"][0]["base"][2].is_null());
  EXPECT_EQ(j["series"][0]["base"][0], 100.5);
}

TEST(ResultsJson, NotJsonOrTruncatedIsRefused) {
  const std::string text = results_to_string(sample());
  const std::string expected = "results file: document: not valid JSON (truncated or corrupted?)";
  EXPECT_EQ(rejection(text.substr(0, text.size() / 2)), expected);
  EXPECT_EQ(rejection(""), expected);
  EXPECT_EQ(rejection("\x89PNG\r\n"), expected);
  EXPECT_EQ(rejection("[1, 2, 3]"), "results file: document: expected a JSON object");
  EXPECT_EQ(rejection("{}"),
            "results file: schema_version: missing (this file was not written by "
            "benchpr)");
}

TEST(ResultsJson, DeeplyNestedInputIsRefusedWithoutExhaustingTheStack) {
  // Nested arrays are a classic way to overflow a recursive parser or destructor.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_EQ(rejection(deep), "results file: document: expected a JSON object");
  const std::string deep_field = "{\"schema_version\":1,\"x\":" + deep + "}";
  EXPECT_NE(rejection(deep_field), "");
}

TEST(ResultsJson, WrongSchemaVersionIsRefused) {
  EXPECT_EQ(rejection(edited([](json& j) { j["schema_version"] = 3; })),
            "results file: document.schema_version: out of range [1, 2]");
  EXPECT_EQ(rejection(edited([](json& j) { j["schema_version"] = 0; })),
            "results file: document.schema_version: out of range [1, 2]");
  EXPECT_EQ(rejection(edited([](json& j) { j["schema_version"] = "1"; })),
            "results file: document.schema_version: expected an integer");
}

TEST(ResultsJson, FieldsOfTheWrongTypeAreNamed) {
  EXPECT_EQ(rejection(edited([](json& j) { j["series"][0]["name"] = 5; })),
            "results file: series[0].name: expected a string");
  EXPECT_EQ(rejection(edited([](json& j) {
              j["series"][0]["base"] = {1, "x"};
            })),
            "results file: series[0].base: expected numbers or null");
  EXPECT_EQ(rejection(edited([](json& j) { j["series"][0]["head"] = "fast"; })),
            "results file: series[0].head: expected an array");
  EXPECT_EQ(rejection(edited([](json& j) { j["series"][0]["better"] = "faster"; })),
            "results file: series[0].better: expected \"lower\" or \"higher\"");
  EXPECT_EQ(rejection(edited([](json& j) { j["complete"] = "yes"; })),
            "results file: document.complete: expected true or false");
  EXPECT_EQ(rejection(edited([](json& j) { j["runs"][1]["side"] = "pr"; })),
            "results file: runs[1].side: expected \"base\" or \"head\"");
  EXPECT_EQ(rejection(edited([](json& j) { j["config"]["rounds"] = 1e300; })),
            "results file: config.rounds: expected an integer");
  EXPECT_EQ(rejection(edited([](json& j) { j["config"]["threshold"] = 5; })),
            "results file: config.threshold: expected a fraction in (0, 1)");
  EXPECT_EQ(rejection(edited([](json& j) { j["series"] = json::object(); })),
            "results file: document.series: expected an array");
  EXPECT_EQ(rejection(edited([](json& j) { j.erase("base"); })),
            "results file: document.base: missing");
  EXPECT_EQ(rejection(edited([](json& j) { j["plan"][1]["round"] = 5; })),
            "results file: plan[1].round: rounds must be numbered 0, 1, 2, ...");
}

TEST(ResultsJson, CommitShasMustBeFull40HexDigits) {
  EXPECT_EQ(rejection(edited([](json& j) { j["base"]["sha"] = "abc1234"; })),
            "results file: base.sha: expected a full 40-hex commit SHA");
  EXPECT_EQ(rejection(edited([](json& j) {
              j["head"]["sha"] = "`rm -rf /`89abcdef0123456789abcdef0123456789";
            })),
            "results file: head.sha: expected a full 40-hex commit SHA");
}

TEST(ResultsJson, SizesAreBounded) {
  EXPECT_EQ(rejection(edited([](json& j) { j["series"][0]["name"] = std::string(70000, 'x'); })),
            "results file: series[0].name: string too long");
  EXPECT_EQ(rejection(edited([](json& j) {
              json plan = json::array();
              for (int i = 0; i < 10001; ++i)
                plan.push_back({{"round", i}, {"warmup", false}, {"first", "base"}});
              j["plan"] = plan;
            })),
            "results file: document.plan: too many entries");
  EXPECT_EQ(
      rejection(edited([](json& j) { j["series"][0]["base"] = json(std::vector<int>(10001, 1)); })),
      "results file: series[0].base: too many rounds");
  EXPECT_EQ(rejection(edited([](json& j) { j["rounds_done"] = 4; })),
            "results file: document.rounds_done: out of range [0, 3]");
  EXPECT_EQ(rejection(edited([](json& j) { j["builds"].push_back(j["builds"][0]); })),
            "results file: document.builds: too many entries");
}

TEST(ResultsJson, UnusableValuesBecomeMissingRatherThanNumbers) {
  const Results r = results_from_string(edited([](json& j) {
    j["series"][0]["base"] = {0, -3.5, 1e-320, 7.25};
  }));
  ASSERT_EQ(r.series[0].base.size(), 4u);
  EXPECT_TRUE(is_missing(r.series[0].base[0]));  // zero
  EXPECT_TRUE(is_missing(r.series[0].base[1]));  // negative
  EXPECT_EQ(r.series[0].base[2], 1e-320);        // tiny but positive: a value
  EXPECT_EQ(r.series[0].base[3], 7.25);
}

TEST(ResultsJson, LabelsAreBoundedAndOnlyStringsKept) {
  const Results r = results_from_string(edited([](json& j) {
    json labels = json::array({1, "performance", nullptr});
    for (int i = 0; i < 500; ++i) labels.push_back("l" + std::to_string(i));
    j["pull_request"]["labels"] = labels;
  }));
  ASSERT_TRUE(r.pull_request.has_value());
  EXPECT_EQ(r.pull_request->labels.size(), 100u);
  EXPECT_EQ(r.pull_request->labels[0], "performance");
}

// Version 2 is compact: one line per top-level field and per series, no indentation of numbers,
// no per-round changes in the analysis (the series hold them), empty failures left out.
TEST(ResultsJson, VersionTwoIsCompact) {
  Results r = sample();
  r.series[0].head_failure.clear();
  const std::string text = results_to_string(r);
  EXPECT_EQ(text.rfind("{\n  \"schema_version\": 2,\n", 0), 0u) << text.substr(0, 80);
  EXPECT_NE(text.find("\"base\":[100.5,101.25,null],\"head\":[null,99,98.5]}"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("base_failure"), std::string::npos);
  EXPECT_EQ(text.find("head_failure"), std::string::npos);
  EXPECT_EQ(text.find("round_changes"), std::string::npos);
  // One line per series and per run: a file of N series has about N lines more, not N x rounds.
  std::size_t lines = 0;
  for (char ch : text) lines += ch == '\n' ? 1 : 0;
  EXPECT_LT(lines, 40u);
}

// Strings that need nothing are copied as they are; anything else is escaped, and ill-formed
// UTF-8 replaced, wherever in the string it comes (after valid multi-byte characters too).
TEST(ResultsJson, StringsAreEscapedAndMadeValidUtf8) {
  Results r = sample();
  r.series.push_back(r.series[0]);
  r.series[0].name = "BM_caf\xc3\xa9/\xe2\x82\xac";  // valid UTF-8: copied
  r.series[1].name = "BM_\xc3\xa9\n\"x\"\\\x01";     // escapes after a non-ASCII one
  r.stop.detail = "done \xc3\xa9 \xff\xfe end";      // ill-formed after a valid one
  const std::string text = results_to_string(r);
  EXPECT_NE(text.find("\"BM_caf\xc3\xa9/\xe2\x82\xac\""), std::string::npos);
  EXPECT_NE(text.find("\"BM_\xc3\xa9"
                      R"(\n\"x\"\\\u0001")"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\"done \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd end\""), std::string::npos) << text;
  const Results back = results_from_string(text);
  EXPECT_EQ(back.series[0].name, r.series[0].name);
  EXPECT_EQ(back.series[1].name, r.series[1].name);
  EXPECT_EQ(back.stop.detail, "done \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd end");
}

// Measured values are written as printf's %.10g would (the format the file documents), whatever
// their magnitude: random bit patterns and powers of two from 2^-150 to 2^50, against fmt.
TEST(ResultsJson, ValuesAreWrittenWithTenSignificantDigitsAsPrintfWould) {
  Results r = sample();
  std::mt19937_64 random(11);
  std::vector<double>& values = r.series[0].base;
  values.clear();
  while (values.size() < 100000) {
    const std::uint64_t bits = random();
    double v = 0;
    if (values.size() % 2 == 0) {
      std::memcpy(&v, &bits, sizeof v);
      if (!std::isfinite(v)) continue;
    } else {
      v = std::ldexp(static_cast<double>(bits >> 11), static_cast<int>(bits % 200) - 203);
    }
    values.push_back(v);
  }
  values.push_back(0.0001);  // where %g changes between fixed and scientific notation
  values.push_back(0.00001);
  values.push_back(9999999999.0);
  values.push_back(99999999995.0);
  std::string expected = "\"base\":[";
  for (std::size_t i = 0; i < values.size(); ++i)
    expected += (i == 0 ? "" : ",") + fmt::format("{:.10g}", values[i]);
  expected += ']';
  EXPECT_NE(results_to_string(r).find(expected), std::string::npos);
}

// write_results replaces the buffer's content: a session reuses one buffer round after round.
TEST(ResultsJson, WritingIntoAUsedBufferReplacesItsContent) {
  std::string buffer = "left over from a larger document " + std::string(10000, 'x');
  write_results(buffer, sample());
  EXPECT_EQ(buffer, results_to_string(sample()));
}

// A file written by the previous version (pretty-printed, with round_changes) is still read.
TEST(ResultsJson, VersionOneIsStillRead) {
  const Results a = sample();
  json v1 = json::parse(results_to_string(a));
  v1["schema_version"] = 1;
  v1["series"][0]["base_failure"] = "";
  v1["benchmarks"] = json::array({{{"name", "x"}, {"round_changes", {0.1, -0.2}}}});
  const Results b = results_from_string(v1.dump(2));
  EXPECT_NO_THROW(detail::scan_results(v1.dump(2)));
  EXPECT_EQ(b.schema_version, 1);
  EXPECT_EQ(results_to_string(b), results_to_string(a));
}

// The series are read straight from the text (no DOM): what that fast path reads must be what
// the DOM reader reads, for everything a series may hold.
TEST(ResultsJson, TheSeriesScannerReadsWhatTheDomReaderReads) {
  Results r = sample();
  BenchmarkSeries timed = r.series[0];
  timed.name = "BM_\u00e9/\"quoted\"\\back\tslash \xF0\x9F\x98\x80";
  timed.metric = "cpu_time";
  timed.base_cpu = timed.base;
  timed.head_cpu = timed.head;
  timed.base_real = {101.5, kMissing, 1234567.891};
  timed.head_real = {99.5, 98.25, 0.001};
  timed.base_failure = "exit code 1";
  timed.base_failure_kind = FailureKind::ExitCode;
  r.series.push_back(timed);
  json doc = json::parse(results_to_string(r));
  doc["series"][0]["extra"] = {{"nested", {1, {2, 3}, "x"}}, {"t", true}};
  doc["series"][1]["unit"] = nullptr;
  doc["series"][1]["base"] = "@values@";
  doc["series"][1]["real_time"]["ignored"] = "@escapes@";
  for (std::string text : {doc.dump(), doc.dump(2), doc.dump(-1, ' ', true)}) {
    // What a JSON library would not write: numbers past a double, a raw integer, escapes.
    const auto put = [&text](const std::string& marker, const std::string& raw) {
      text.replace(text.find(marker), marker.size(), raw);
    };
    put("\"@values@\"", "[1e-400, -0.0, 12, 1.5e-3, null, 18446744073709551616, 1e-320]");
    put("@escapes@", "\\ud83d\\ude00 \\u0007 \\/");
    const Results scanned = detail::scan_results(text);
    const Results dom = results_from_json(json::parse(text));
    EXPECT_EQ(results_to_string(scanned), results_to_string(dom));
    ASSERT_EQ(scanned.series.size(), 2u);
    EXPECT_EQ(scanned.series[1].name, timed.name);
    EXPECT_EQ(scanned.series[1].base_real[2], 1234567.891);
    EXPECT_EQ(scanned.series[1].head_cpu[2], 98.5);
    EXPECT_TRUE(is_missing(scanned.series[1].base[0]));  // too small for a double: 0
    EXPECT_EQ(scanned.series[1].base[2], 12.0);
    EXPECT_EQ(scanned.series[1].base[6], 1e-320);
  }
}

// A file that is not JSON is refused as such; a file wrong in its header and its series is
// refused for the header, the first in the order of the checks, as it always was.
TEST(ResultsJson, TheSeriesScannerLeavesErrorsToTheDomReader) {
  const std::string text = results_to_string(sample());
  EXPECT_THROW(detail::scan_results(text.substr(0, text.size() - 3)), JsonSyntaxError);
  json no_version = json::parse(results_to_string(sample()));
  no_version.erase("schema_version");
  no_version["series"] = 5;  // the scanner meets this first; the header check comes first
  EXPECT_EQ(rejection(no_version.dump()),
            "results file: schema_version: missing (this file was not written by benchpr)");
  for (const char* bad : {"\"\\udc00\"", "\"\\ud800x\"", "\"a\x01\"", "\"\xC0\xAF\"", "01", "1.",
                          "-", "[1,]", "{\"a\":1,}", "nul", "1e999"}) {
    json doc = json::parse(results_to_string(sample()));
    std::string with = doc.dump();
    with.insert(with.size() - 1, std::string(",\"benchmarks\":") + bad);
    EXPECT_THROW(detail::scan_results(with), JsonSyntaxError) << bad;
    EXPECT_EQ(rejection(with), "results file: document: not valid JSON (truncated or corrupted?)")
        << bad;
  }
}

// A results file is untrusted: what the reader does not read is passed over without a DOM (an
// unknown key of 100,000 nested arrays costs nothing), and what it does read is bounded in depth
// and in values before anything checks its fields.
TEST(ResultsJson, UnknownFieldsArePassedOverAndReadFieldsAreBounded) {
  const std::string text = results_to_string(sample());
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  std::string with_unknown = text;
  with_unknown.insert(with_unknown.rfind('}'), ",\"x-future\":" + nested);
  EXPECT_EQ(results_to_string(results_from_string(with_unknown)), text);

  json deep = json::parse(results_to_string(sample()));
  json value = 1;
  for (int i = 0; i < 40; ++i) value = json::array({value});
  deep["config"]["x-nested"] = value;
  EXPECT_EQ(rejection(deep.dump()), "results file: document: nested deeper than 32 levels");

  // Wide rather than deep: 4,000,001 values in a field the reader reads.
  std::string wide = text;
  std::string many = "[";
  for (int i = 0; i < 4'000'001; ++i) many += i ? ",0" : "0";
  many += "]";
  wide.insert(wide.rfind('}'), ",\"machine\":{\"x\":" + many + "}");
  EXPECT_EQ(rejection(wide), "results file: document: more than 4000000 values outside the series");
}

}  // namespace
}  // namespace benchpr

namespace benchpr {
namespace {

TEST(ResultsJson, HowInstructionsCameToBeCountedSurvivesTheFile) {
  for (const auto& [counting, read_back] :
       {std::pair{InstructionCounting::On, InstructionCounting::On},
        std::pair{InstructionCounting::ByDefault, InstructionCounting::ByDefault},
        std::pair{InstructionCounting::Off, InstructionCounting::Off},
        // Decided before a session starts: a file never holds "not said"; read as off.
        std::pair{InstructionCounting::Auto, InstructionCounting::Off}}) {
    Results r = sample();
    r.config.instructions = counting;
    const std::string text = results_to_string(r);
    EXPECT_EQ(results_from_string(text).config.instructions, read_back) << text.substr(0, 400);
  }
}

}  // namespace
}  // namespace benchpr
