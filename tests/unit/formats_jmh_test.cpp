// The JMH parser on a result file in JMH's documented JSON shape (tests/data/jmh/README.md).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/formats/format.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::formats {
namespace {

using ::testing::ElementsAre;

std::string data(const std::string& name) {
  return testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/jmh/" + name);
}

ParsedRun parse(std::string_view content, std::string metric = "",
                std::optional<Better> better = std::nullopt) {
  return make_jmh_format(std::move(metric), better)->parse(content);
}

const Measurement& measurement(const ParsedRun& run, const std::string& name) {
  for (const auto& m : run.measurements) {
    if (m.name == name) return m;
  }
  throw std::runtime_error("no measurement " + name);
}

std::vector<std::string> names(const ParsedRun& run) {
  std::vector<std::string> out;
  for (const auto& m : run.measurements) out.push_back(m.name);
  return out;
}

std::string parse_error(std::string_view text) {
  try {
    parse(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* kPrefix = "org.example.tls.TlsBenchmark.";

TEST(JmhFormat, NamesCarrySortedParams) {
  const ParsedRun run = parse(data("tls_benchmark.json"));
  EXPECT_TRUE(run.failures.empty());
  // resume's params are written payload first; the name sorts them.
  EXPECT_THAT(names(run),
              ElementsAre(std::string(kPrefix) + "warmRoundTrip:payload=256",
                          std::string(kPrefix) + "warmRoundTrip:payload=4096",
                          std::string(kPrefix) + "resume:cipher=chacha20:payload=1024",
                          std::string(kPrefix) + "handshake", std::string(kPrefix) + "coldStart"));
}

TEST(JmhFormat, ThroughputIsTheMedianOfAllForksAndHigherIsBetter) {
  const ParsedRun run = parse(data("tls_benchmark.json"));
  // Forks [1200.5, 1180, 1210] and [1190, 1250, 1170]: sorted 1170 1180 1190 | 1200.5 1210 1250.
  const Measurement& small = measurement(run, std::string(kPrefix) + "warmRoundTrip:payload=256");
  EXPECT_DOUBLE_EQ(small.value, 1195.25);
  EXPECT_EQ(small.unit, "ops/ms");
  EXPECT_EQ(small.better, Better::Higher);
  // 300 305 310 | 312 315 320.
  EXPECT_DOUBLE_EQ(measurement(run, std::string(kPrefix) + "warmRoundTrip:payload=4096").value,
                   311);
}

TEST(JmhFormat, AverageSampleAndSingleShotAreLowerIsBetter) {
  const ParsedRun run = parse(data("tls_benchmark.json"));
  const Measurement& avgt = measurement(run, std::string(kPrefix) + "handshake");
  EXPECT_DOUBLE_EQ(avgt.value, 45.2);  // 44.8 45.0 [45.2] 45.5 46.0
  EXPECT_EQ(avgt.unit, "us/op");
  EXPECT_EQ(avgt.better, Better::Lower);
  // Histogram 10 x3, 12 x1 | 11 x2: samples 10 10 10 11 11 12 -> (10 + 11) / 2.
  const Measurement& sample =
      measurement(run, std::string(kPrefix) + "resume:cipher=chacha20:payload=1024");
  EXPECT_DOUBLE_EQ(sample.value, 10.5);
  EXPECT_EQ(sample.better, Better::Lower);
  const Measurement& ss = measurement(run, std::string(kPrefix) + "coldStart");
  EXPECT_DOUBLE_EQ(ss.value, 13);  // forks of one shot each: 12, 14, 13
  EXPECT_EQ(ss.unit, "ms/op");
  EXPECT_EQ(ss.better, Better::Lower);
}

TEST(JmhFormat, SecondaryMetricBySuiteMetric) {
  const ParsedRun run = parse(data("tls_benchmark.json"), "gc.alloc.rate.norm");
  const Measurement& alloc = measurement(run, std::string(kPrefix) + "handshake");
  EXPECT_DOUBLE_EQ(alloc.value, 1024);  // 1024 1024 1024 1024 1032
  EXPECT_EQ(alloc.unit, "B/op");
  EXPECT_EQ(alloc.better, Better::Lower);
  // The other benchmarks ran without the GC profiler.
  ASSERT_EQ(run.failures.size(), 4u);
  EXPECT_EQ(run.failures[0].reason, "no secondary metric 'gc.alloc.rate.norm'");
  // The exact key, with JMH's middle dot, works too.
  EXPECT_EQ(parse(data("tls_benchmark.json"), "\u00b7gc.alloc.rate.norm").measurements.size(), 1u);
}

TEST(JmhFormat, BetterOverridesTheMode) {
  const ParsedRun run = parse(data("tls_benchmark.json"), "", Better::Lower);
  EXPECT_EQ(measurement(run, std::string(kPrefix) + "warmRoundTrip:payload=256").better,
            Better::Lower);
}

TEST(JmhFormat, ModesOfOneBenchmarkGetDistinctNames) {
  // `-bm all` writes the same benchmark once per mode.
  const ParsedRun run = parse(R"([
    {"benchmark": "a.B.m", "mode": "thrpt", "primaryMetric": {"score": 5, "scoreUnit": "ops/s", "rawData": [[4, 5, 6]]}},
    {"benchmark": "a.B.m", "mode": "avgt", "primaryMetric": {"score": 0.2, "scoreUnit": "s/op", "rawData": [[0.2]]}},
    {"benchmark": "a.B.n", "mode": "avgt", "params": {"size": 10}, "primaryMetric": {"score": 3, "scoreUnit": "ns/op"}}
  ])");
  EXPECT_THAT(names(run), ElementsAre("a.B.m:mode=thrpt", "a.B.m:mode=avgt", "a.B.n:size=10"));
  EXPECT_EQ(run.measurements[0].better, Better::Higher);
  EXPECT_EQ(run.measurements[1].better, Better::Lower);
  // Without rawData the score is all there is.
  EXPECT_DOUBLE_EQ(run.measurements[2].value, 3);
}

TEST(JmhFormat, UnusableScoresAreFailures) {
  // JMH writes non-finite scores as strings.
  const ParsedRun run = parse(R"([
    {"benchmark": "a.B.nan", "mode": "avgt", "primaryMetric": {"score": "NaN", "scoreUnit": "ns/op"}},
    {"benchmark": "a.B.raw", "mode": "avgt", "primaryMetric": {"score": 1, "scoreUnit": "ns/op", "rawData": [[1, "NaN", 2]]}},
    {"benchmark": "a.B.zero", "mode": "thrpt", "primaryMetric": {"score": 0, "scoreUnit": "ops/s", "rawData": [[0, 0]]}},
    {"benchmark": "a.B.text", "mode": "avgt", "primaryMetric": {"score": "fast", "scoreUnit": "ns/op"}},
    {"benchmark": "a.B.none", "mode": "avgt"},
    {"benchmark": "a.B.empty", "mode": "avgt", "primaryMetric": {"scoreUnit": "ns/op"}}
  ])");
  EXPECT_TRUE(run.measurements.empty());
  ASSERT_EQ(run.failures.size(), 6u);
  EXPECT_EQ(run.failures[0].reason, "primaryMetric is NaN");
  EXPECT_EQ(run.failures[1].reason, "primaryMetric is NaN");
  EXPECT_EQ(run.failures[2].reason, "primaryMetric is 0");
  EXPECT_EQ(run.failures[3].reason, "primaryMetric score is string, not a number");
  EXPECT_EQ(run.failures[4].reason, "no primaryMetric");
  EXPECT_EQ(run.failures[5].reason, "primaryMetric has no score and no rawData");
}

TEST(JmhFormat, WrongShapesAreParseErrors) {
  EXPECT_EQ(parse_error(R"({"benchmark": "x"})"),
            "not JMH JSON: expected an array of results, got object");
  EXPECT_EQ(parse_error("[1]"), "not JMH JSON: entry [0] is number, not an object");
  EXPECT_EQ(parse_error(R"([{"mode": "avgt"}])"),
            "not JMH JSON: entry [0] has no \"benchmark\" name");
  EXPECT_EQ(parse_error(""),
            "not JMH JSON: the file is empty (did the benchmark stop before writing its results?)");
  const std::string full = data("tls_benchmark.json");
  EXPECT_THAT(parse_error(full.substr(0, full.size() / 3)),
              ::testing::EndsWith("(is the file truncated?)"));
  EXPECT_EQ(parse(R"([])").measurements.size(), 0u);
}

TEST(JmhFormat, ExtraArgumentsAreLeftToTheUser) {
  const auto format = make_jmh_format("", std::nullopt);
  EXPECT_EQ(format->kind(), FormatKind::Jmh);
  EXPECT_EQ(format->extra_arguments("/tmp/out.json", 3), "");
}

}  // namespace
}  // namespace benchpr::formats
