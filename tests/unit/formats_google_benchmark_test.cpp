// The Google Benchmark parser on real captures of libbenchmark 1.7.1 (tests/data/google-benchmark)
// and on small hand-written documents for the cases a real run rarely produces.
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "benchpr/formats/format.hpp"
#include "benchpr/formats/google_benchmark_entries.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::formats {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string data(const std::string& name) {
  return testing::read_file(std::string(BENCHPR_TEST_DATA_DIR) + "/google-benchmark/" + name);
}

// Parsing tests read real_time, the field every entry below has; the default (auto) has its own
// tests.
ParsedRun parse(std::string_view content, std::string metric = "real_time",
                std::optional<Better> better = std::nullopt) {
  return make_google_benchmark_format(std::move(metric), better)->parse(content);
}

const Measurement& measurement(const ParsedRun& run, const std::string& name) {
  for (const auto& m : run.measurements) {
    if (m.name == name) return m;
  }
  throw std::runtime_error("no measurement " + name);
}

const BenchmarkFailure& failure(const ParsedRun& run, const std::string& name) {
  for (const auto& f : run.failures) {
    if (f.name == name) return f;
  }
  throw std::runtime_error("no failure " + name);
}

std::vector<std::string> names(const ParsedRun& run) {
  std::vector<std::string> out;
  for (const auto& m : run.measurements) out.push_back(m.name);
  return out;
}

// One iteration entry, as the library writes it.
std::string iteration(const std::string& name, const std::string& fields) {
  return fmt::format(R"({{"name": "{0}", "run_name": "{0}", "run_type": "iteration", {1}}})", name,
                     fields);
}

std::string aggregate(const std::string& name, const std::string& aggregate_name,
                      const std::string& fields) {
  return fmt::format(
      R"({{"name": "{0}_{1}", "run_name": "{0}", "run_type": "aggregate", "aggregate_name": "{1}", {2}}})",
      name, aggregate_name, fields);
}

std::string document(const std::vector<std::string>& entries) {
  return fmt::format(R"({{"context": {{"num_cpus": 2}}, "benchmarks": [{}]}})",
                     fmt::join(entries, ", "));
}

TEST(GoogleBenchmarkFormat, RealRepetitionsGiveTheMeanTimeInNanosecondsAndKeepTheLeast) {
  const ParsedRun run = parse(data("repetitions.json"));
  EXPECT_THAT(names(run), ::testing::ElementsAre("BM_Checksum", "BM_Copy/64", "BM_Copy/1024",
                                                 "BM_Spin/threads:2"));
  // real_time of the three repetitions: 317.826..., 314.659..., 313.740... -> their mean, the
  // least kept beside.
  const Measurement& checksum = measurement(run, "BM_Checksum");
  EXPECT_NEAR(checksum.value, 315.40855909897522, 1e-9);
  EXPECT_DOUBLE_EQ(checksum.least, 313.74028418112044);
  EXPECT_EQ(checksum.unit, "ns");
  EXPECT_EQ(checksum.better, Better::Lower);
  // Reported in us: 0.0026298..., 0.0026596..., 0.0027109... -> mean 0.0026668 us.
  EXPECT_NEAR(measurement(run, "BM_Copy/64").value, 2.6667940910281538, 1e-12);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Copy/64").least, 0.0026298089212425883 * 1e3);
  // 0.0097847..., 0.0096968..., 0.0095686... -> mean 0.0096834 us.
  EXPECT_NEAR(measurement(run, "BM_Copy/1024").value, 9.6834157444257514, 1e-12);
  EXPECT_NEAR(measurement(run, "BM_Spin/threads:2").value, 22.005824583834471, 1e-12);
  // The times kept beside are the mean of each: CPU time 317.135..., 314.664..., 313.746....
  EXPECT_NEAR(checksum.real_time, 315.40855909897522, 1e-9);
  EXPECT_NEAR(checksum.cpu_time, 315.18203557520263, 1e-9);
}

TEST(GoogleBenchmarkFormat, TheRepetitionsSpreadIsTheWithinProcessNoise) {
  // Real times 100, 110 and 121 ns: logs ln 100 + {0, ln 1.1, 2 ln 1.1}, sample variance
  // (ln 1.1)^2 = 0.0090840...; one repetition has none.
  const ParsedRun run =
      parse(document({iteration("BM_A", R"("real_time": 100, "time_unit": "ns")"),
                      iteration("BM_A", R"("real_time": 110, "time_unit": "ns")"),
                      iteration("BM_A", R"("real_time": 121, "time_unit": "ns")"),
                      iteration("BM_B", R"("real_time": 5, "time_unit": "ns")")}));
  EXPECT_NEAR(measurement(run, "BM_A").repetition_log_variance, std::log(1.1) * std::log(1.1),
              1e-12);
  EXPECT_TRUE(is_missing(measurement(run, "BM_B").repetition_log_variance));
}

TEST(GoogleBenchmarkFormat, RealErrorOccurredIsAFailureWithTheMessage) {
  const ParsedRun run = parse(data("repetitions.json"));
  ASSERT_EQ(run.failures.size(), 1u);
  EXPECT_EQ(run.failures[0].name, "BM_Broken");
  EXPECT_EQ(run.failures[0].reason, "error: could not open fixture file");
}

TEST(GoogleBenchmarkFormat, RealAggregatesOnlyUsesTheMedianAggregate) {
  const ParsedRun run = parse(data("aggregates_only.json"));
  EXPECT_THAT(names(run), ::testing::ElementsAre("BM_Checksum", "BM_Copy/64", "BM_Copy/1024",
                                                 "BM_Spin/threads:2"));
  // The median aggregates (the means are 438.99, 0.0030425 us, ...).
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Checksum").value, 452.09827619995303);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Copy/64").value, 0.0030242334324803548 * 1e3);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Spin/threads:2").value, 38.465486900372646);
  EXPECT_EQ(failure(run, "BM_Broken").reason, "error: could not open fixture file");
}

TEST(GoogleBenchmarkFormat, RealRandomInterleavingKeepsFirstAppearanceOrder) {
  const ParsedRun run = parse(data("random_interleaving.json"));
  EXPECT_THAT(names(run), ::testing::ElementsAre("BM_Checksum", "BM_Copy/64", "BM_Spin/threads:2",
                                                 "BM_Copy/1024"));
  // 0.0026525..., 0.0047169..., 0.0027700... -> mean 0.0033798 us: the second one's stall is
  // paid, the least time 0.0026525 us kept beside.
  EXPECT_NEAR(measurement(run, "BM_Copy/64").value, 3.3798406971730093, 1e-12);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Copy/64").least, 0.0026525135035604342 * 1e3);
  // 24.3218..., 20.1959..., 17.9557... -> mean 20.8245.
  EXPECT_NEAR(measurement(run, "BM_Spin/threads:2").value, 20.824544687286025, 1e-12);
}

TEST(GoogleBenchmarkFormat, RealSingleRunUsesItsOnlyIteration) {
  const ParsedRun run = parse(data("single_run.json"));
  ASSERT_EQ(run.measurements.size(), 2u);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Copy/64").value, 0.0026142387740941495 * 1e3);
  EXPECT_EQ(failure(run, "BM_Broken").reason, "error: could not open fixture file");
}

TEST(GoogleBenchmarkFormat, MetricCpuTime) {
  const ParsedRun run = parse(data("repetitions.json"), "cpu_time");
  // cpu_time of BM_Spin/threads:2 sums both threads: 43.9257..., 43.9761..., 43.7316...
  EXPECT_NEAR(measurement(run, "BM_Spin/threads:2").value, 43.877864898819915, 1e-12);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Spin/threads:2").least, 43.73163952079683);
  EXPECT_NEAR(measurement(run, "BM_Copy/64").value, 2.6650023484736849, 1e-12);
  EXPECT_EQ(measurement(run, "BM_Copy/64").better, Better::Lower);
}

TEST(GoogleBenchmarkFormat, MetricBytesPerSecondIsHigherIsBetter) {
  const ParsedRun run = parse(data("repetitions.json"), "bytes_per_second");
  // 12915631503.72, 13017048598.83, 13055115275.82 -> the rate of the mean time (their
  // harmonic mean), the highest kept beside.
  const Measurement& m = measurement(run, "BM_Checksum");
  EXPECT_NEAR(m.value, 12995664529.308783, 1e-3);
  EXPECT_DOUBLE_EQ(m.least, 13055115275.819925);
  EXPECT_EQ(m.unit, "B/s");
  EXPECT_EQ(m.better, Better::Higher);
  // BM_Spin reports no bytes: a failure that says which values it has.
  EXPECT_EQ(failure(run, "BM_Spin/threads:2").reason,
            "no counter 'bytes_per_second' (the benchmark reports only real_time and cpu_time)");
}

TEST(GoogleBenchmarkFormat, MetricItemsPerSecond) {
  const ParsedRun run = parse(data("repetitions.json"), "items_per_second");
  const Measurement& m = measurement(run, "BM_Checksum");
  EXPECT_NEAR(m.value, 3172769.660475777, 1e-6);  // the harmonic mean of the three
  EXPECT_DOUBLE_EQ(m.least, 3187284.002885724);   // the highest
  EXPECT_EQ(m.unit, "items/s");
  EXPECT_EQ(m.better, Better::Higher);
}

TEST(GoogleBenchmarkFormat, MetricUserCounterIsHigherIsBetterUnlessOverridden) {
  const ParsedRun run = parse(data("repetitions.json"), "checksums");
  const Measurement& m = measurement(run, "BM_Checksum");
  EXPECT_DOUBLE_EQ(m.value, 3177990.3805733286);  // a user counter: the median of the three
  EXPECT_EQ(m.unit, "checksums");
  EXPECT_EQ(m.better, Better::Higher);
  EXPECT_EQ(failure(run, "BM_Copy/64").reason,
            "no counter 'checksums' (available: real_time, cpu_time, bytes_per_second)");

  const ParsedRun lower = parse(data("repetitions.json"), "checksums", Better::Lower);
  EXPECT_EQ(measurement(lower, "BM_Checksum").better, Better::Lower);
}

TEST(GoogleBenchmarkFormat, BetterOverridesTimeDirection) {
  const ParsedRun run = parse(data("repetitions.json"), "", Better::Higher);
  EXPECT_EQ(measurement(run, "BM_Checksum").better, Better::Higher);
}

TEST(GoogleBenchmarkFormat, RealNonFiniteCountersAreReadAndRefused) {
  // The file holds bare NaN / Infinity tokens, which strict JSON parsers reject.
  const ParsedRun times = parse(data("non_finite_counters.json"));
  ASSERT_EQ(times.measurements.size(), 1u);
  EXPECT_EQ(times.measurements[0].name, "BM_NonFinite");
  EXPECT_GT(times.measurements[0].value, 0);

  EXPECT_EQ(failure(parse(data("non_finite_counters.json"), "ratio"), "BM_NonFinite").reason,
            "ratio is NaN");
  EXPECT_EQ(failure(parse(data("non_finite_counters.json"), "peak"), "BM_NonFinite").reason,
            "peak is infinite");
  EXPECT_EQ(failure(parse(data("non_finite_counters.json"), "floor"), "BM_NonFinite").reason,
            "floor is negative infinite");
}

TEST(GoogleBenchmarkFormat, TimesTakeTheMeanRatesTheRateOfTheMeanCountersTheMedian) {
  // What a user pays: the mean time of the repetitions, whichever time is compared; the least
  // kept beside.
  const ParsedRun times = parse(document({
      iteration("BM_A", R"("real_time": 10, "cpu_time": 12, "time_unit": "ns")"),
      iteration("BM_A", R"("real_time": 30, "cpu_time": 9, "time_unit": "ns")"),
      iteration("BM_A", R"("real_time": 20, "cpu_time": 20, "time_unit": "ns")"),
  }));
  EXPECT_DOUBLE_EQ(measurement(times, "BM_A").value, 20);
  EXPECT_DOUBLE_EQ(measurement(times, "BM_A").least, 10);
  EXPECT_DOUBLE_EQ(
      parse(document({
                iteration("BM_A", R"("real_time": 10, "cpu_time": 12, "time_unit": "ns")"),
                iteration("BM_A", R"("real_time": 30, "cpu_time": 9, "time_unit": "ns")"),
            }),
            "cpu_time")
          .measurements.front()
          .value,
      10.5);

  // A rate from the time: the rate of the mean time, 3 / (1/300 + 1/500 + 1/100) = 195.65...;
  // the most kept beside.
  const std::string rates = document({
      iteration("BM_R", R"("real_time": 1, "time_unit": "ns", "bytes_per_second": 300)"),
      iteration("BM_R", R"("real_time": 1, "time_unit": "ns", "bytes_per_second": 500)"),
      iteration("BM_R", R"("real_time": 1, "time_unit": "ns", "bytes_per_second": 100)"),
  });
  EXPECT_DOUBLE_EQ(measurement(parse(rates, "bytes_per_second"), "BM_R").value, 4500.0 / 23);
  EXPECT_DOUBLE_EQ(measurement(parse(rates, "bytes_per_second"), "BM_R").least, 500);

  // A user counter need not be a time: the median, odd and even.
  const ParsedRun odd =
      parse(document({
                iteration("BM_C", R"("real_time": 1, "time_unit": "ns", "peak": 10)"),
                iteration("BM_C", R"("real_time": 1, "time_unit": "ns", "peak": 30)"),
                iteration("BM_C", R"("real_time": 1, "time_unit": "ns", "peak": 20)"),
            }),
            "peak");
  EXPECT_DOUBLE_EQ(measurement(odd, "BM_C").value, 20);
  const ParsedRun even =
      parse(document({
                iteration("BM_C", R"("real_time": 1, "time_unit": "ns", "peak": 10)"),
                iteration("BM_C", R"("real_time": 1, "time_unit": "ns", "peak": 40)"),
                iteration("BM_C", R"("real_time": 1, "time_unit": "ns", "peak": 30)"),
                iteration("BM_C", R"("real_time": 1, "time_unit": "ns", "peak": 1000)"),
            }),
            "peak");
  EXPECT_DOUBLE_EQ(measurement(even, "BM_C").value, 35);  // (30 + 40) / 2
}

TEST(GoogleBenchmarkFormat, TimeUnitsConvertToNanoseconds) {
  const ParsedRun run = parse(document({
      iteration("BM_ns", R"("real_time": 7, "time_unit": "ns")"),
      iteration("BM_us", R"("real_time": 1.5, "time_unit": "us")"),
      iteration("BM_ms", R"("real_time": 2.25, "time_unit": "ms")"),
      iteration("BM_s", R"("real_time": 3, "time_unit": "s")"),
      iteration("BM_default", R"("real_time": 4)"),
      iteration("BM_weird", R"("real_time": 4, "time_unit": "fortnights")"),
  }));
  EXPECT_DOUBLE_EQ(measurement(run, "BM_ns").value, 7);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_us").value, 1500);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_ms").value, 2250000);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_s").value, 3e9);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_default").value, 4);
  EXPECT_EQ(failure(run, "BM_weird").reason,
            "unknown time_unit 'fortnights' (expected ns, us, ms or s)");
}

TEST(GoogleBenchmarkFormat, UnusableValuesAreFailuresWithAReason) {
  const ParsedRun run = parse(document({
      iteration("BM_zero", R"("real_time": 0, "time_unit": "ns")"),
      iteration("BM_negative", R"("real_time": -3, "time_unit": "ns")"),
      iteration("BM_nan", R"("real_time": NaN, "time_unit": "ns")"),
      iteration("BM_missing", R"("cpu_time": 5, "time_unit": "ns")"),
      iteration("BM_text", R"("real_time": "fast", "time_unit": "ns")"),
      iteration("BM_null", R"("real_time": null, "time_unit": "ns")"),
      // One bad repetition spoils the run: its median would hide a broken measurement.
      iteration("BM_one_bad", R"("real_time": 5, "time_unit": "ns")"),
      iteration("BM_one_bad", R"("real_time": 0, "time_unit": "ns")"),
      iteration("BM_fine", R"("real_time": 5, "time_unit": "ns")"),
  }));
  EXPECT_EQ(failure(run, "BM_zero").reason, "real_time is 0");
  EXPECT_EQ(failure(run, "BM_negative").reason, "real_time is negative (-3)");
  EXPECT_EQ(failure(run, "BM_nan").reason, "real_time is NaN");
  EXPECT_EQ(failure(run, "BM_missing").reason, "real_time is missing");
  EXPECT_EQ(failure(run, "BM_text").reason, "real_time is string, not a number");
  EXPECT_EQ(failure(run, "BM_null").reason, "real_time is null, not a number");
  EXPECT_EQ(failure(run, "BM_one_bad").reason, "real_time is 0");
  EXPECT_EQ(run.failures.size(), 7u);
  EXPECT_THAT(names(run), ::testing::ElementsAre("BM_fine"));
}

TEST(GoogleBenchmarkFormat, ErrorOccurredWinsOverValues) {
  const ParsedRun run = parse(document({
      iteration("BM_E", R"("real_time": 5, "time_unit": "ns")"),
      iteration("BM_E", R"("real_time": 5, "time_unit": "ns", "error_occurred": true,
                           "error_message": "out of memory")"),
      iteration("BM_Silent", R"("real_time": 0, "time_unit": "ns", "error_occurred": true)"),
      iteration("BM_False", R"("real_time": 5, "time_unit": "ns", "error_occurred": false)"),
  }));
  EXPECT_EQ(failure(run, "BM_E").reason, "error: out of memory");
  EXPECT_EQ(failure(run, "BM_Silent").reason, "error: (no message)");
  EXPECT_DOUBLE_EQ(measurement(run, "BM_False").value, 5);
}

TEST(GoogleBenchmarkFormat, AggregatesOnlyFallsBackToMeanThenFails) {
  const ParsedRun run = parse(document({
      aggregate("BM_M", "mean", R"("real_time": 12, "time_unit": "us")"),
      aggregate("BM_M", "stddev", R"("real_time": 1, "time_unit": "us")"),
      aggregate("BM_Both", "mean", R"("real_time": 12, "time_unit": "ns")"),
      aggregate("BM_Both", "median", R"("real_time": 11, "time_unit": "ns")"),
      aggregate("BM_S", "stddev", R"("real_time": 1, "time_unit": "ns")"),
      aggregate("BM_Z", "median", R"("real_time": 0, "time_unit": "ns")"),
      // Complexity fits summarise other benchmarks and are not compared.
      aggregate("BM_Fit", "BigO", R"("cpu_coefficient": 1.5, "big_o": "N")"),
      aggregate("BM_Fit", "RMS", R"("rms": 0.1)"),
  }));
  EXPECT_DOUBLE_EQ(measurement(run, "BM_M").value, 12000);
  EXPECT_DOUBLE_EQ(measurement(run, "BM_Both").value, 11);
  EXPECT_EQ(failure(run, "BM_S").reason, "no repetitions and no median or mean aggregate");
  EXPECT_EQ(failure(run, "BM_Z").reason, "real_time is 0 (median aggregate)");
  EXPECT_EQ(run.failures.size(), 2u);
  EXPECT_EQ(run.measurements.size(), 2u);
}

// Two benchmarks registered under one name (BENCHMARK twice, ->Name()): per repetition one
// entry of each. Summarised as one benchmark's repetitions, the faster stood for both; it is a
// failure naming what to do instead, and the other benchmarks are still read.
TEST(GoogleBenchmarkFormat, ANameTwoBenchmarksShareIsAFailureNotASummary) {
  const auto rep = [](const std::string& name, int family, int index, int time) {
    return iteration(name, fmt::format(R"("family_index": {}, "per_family_instance_index": 0, )"
                                       R"("repetition_index": {}, "real_time": {}, )"
                                       R"("time_unit": "ns")",
                                       family, index, time));
  };
  const ParsedRun run =
      parse(document({rep("BM_dup", 0, 0, 200), rep("BM_dup", 1, 0, 50), rep("BM_ok", 2, 0, 10),
                      rep("BM_dup", 0, 1, 200), rep("BM_dup", 1, 1, 50), rep("BM_ok", 2, 1, 11)}));
  EXPECT_EQ(names(run), (std::vector<std::string>{"BM_ok"}));
  const BenchmarkFailure& f = failure(run, "BM_dup");
  EXPECT_THAT(f.reason, HasSubstr("reported twice in one results file"));
  EXPECT_THAT(f.reason, HasSubstr("family_index 0 and 1"));
  EXPECT_THAT(f.reason, HasSubstr("give each benchmark a name of its own"));
  EXPECT_EQ(f.kind, FailureKind::BadOutput);
  // Without family_index: the same repetition index twice.
  const ParsedRun old = parse(document(
      {iteration("BM_dup", R"("repetition_index": 0, "real_time": 200, "time_unit": "ns")"),
       iteration("BM_dup", R"("repetition_index": 0, "real_time": 50, "time_unit": "ns")")}));
  EXPECT_THAT(failure(old, "BM_dup").reason, HasSubstr("two results for repetition 0"));
  // --benchmark_report_aggregates_only: two medians of one name.
  const ParsedRun aggregates =
      parse(document({aggregate("BM_dup", "median", R"("real_time": 200)"),
                      aggregate("BM_dup", "median", R"("real_time": 50)")}));
  EXPECT_THAT(failure(aggregates, "BM_dup").reason, HasSubstr("two median aggregates"));
  // Repetitions of one benchmark are not duplicates, with or without the indexes.
  EXPECT_EQ(names(parse(document({rep("BM_ok", 2, 0, 10), rep("BM_ok", 2, 1, 11)}))),
            (std::vector<std::string>{"BM_ok"}));
  EXPECT_EQ(names(parse(document({iteration("BM_ok", R"("real_time": 10)"),
                                  iteration("BM_ok", R"("real_time": 11)")}))),
            (std::vector<std::string>{"BM_ok"}));
}

TEST(GoogleBenchmarkFormat, NameFallsBackWhenRunNameIsAbsent) {
  const ParsedRun run = parse(
      R"({"benchmarks": [{"name": "BM_Old/8", "real_time": 3, "time_unit": "ns"},
                         {"name": "BM_Old/8", "real_time": 5, "time_unit": "ns"},
                         {"name": "BM_Old/8", "real_time": 4, "time_unit": "ns"}]})");
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_EQ(run.measurements[0].name, "BM_Old/8");
  EXPECT_DOUBLE_EQ(run.measurements[0].value, 4);
  EXPECT_DOUBLE_EQ(run.measurements[0].least, 3);
}

TEST(GoogleBenchmarkFormat, TruncatedRealCaptureIsAParseError) {
  const std::string full = data("repetitions.json");
  const std::string half = full.substr(0, full.size() / 2);
  try {
    parse(half);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), StartsWith("not Google Benchmark JSON: "));
    EXPECT_THAT(e.what(), HasSubstr(fmt::format("at byte {}", half.size())));
    EXPECT_THAT(e.what(), HasSubstr("(is the file truncated?)"));
  }
}

TEST(GoogleBenchmarkFormat, SyntaxErrorNamesTheByte) {
  try {
    parse(R"({"benchmarks": [}])");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), StartsWith("not Google Benchmark JSON: syntax error"));
    EXPECT_THAT(e.what(), HasSubstr("at byte 17"));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("truncated")));
  }
}

TEST(GoogleBenchmarkFormat, ByteOffsetsCountTheOriginalText) {
  // The NaN before the error is rewritten internally; the offset must not move.
  try {
    parse(R"({"benchmarks": [{"x": NaN, "y": ?}]})");
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("at byte 33"));
  }
}

TEST(GoogleBenchmarkFormat, WrongShapesAreParseErrors) {
  const auto message = [](std::string_view text) -> std::string {
    try {
      parse(text);
    } catch (const ParseError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(""),
            "not Google Benchmark JSON: the file is empty (did the benchmark stop "
            "before writing its results?)");
  EXPECT_EQ(message("  \n"), message(""));
  EXPECT_EQ(message("[1, 2]"),
            "not Google Benchmark JSON: expected an object with \"context\" "
            "and \"benchmarks\", got array");
  EXPECT_EQ(message(R"({"context": {}})"), "not Google Benchmark JSON: no \"benchmarks\" array");
  EXPECT_EQ(message(R"({"benchmarks": {}})"), "not Google Benchmark JSON: no \"benchmarks\" array");
  EXPECT_EQ(message(R"({"benchmarks": [3]})"),
            "not Google Benchmark JSON: benchmarks[0] is number, not an object");
  EXPECT_EQ(message(R"({"benchmarks": [{"real_time": 3}]})"),
            "not Google Benchmark JSON: benchmarks[0] has no name");
  EXPECT_EQ(message(R"({"benchmarks": [{"name": 7}]})"),
            "not Google Benchmark JSON: benchmarks[0] has no name");
  EXPECT_THAT(message(R"({"benchmarks": [{"name": "a", "real_time": 1e999}]})"),
              StartsWith("not Google Benchmark JSON: number overflow"));
}

// The file is streamed, not built as a tree: what a tree would have said must still hold.
TEST(GoogleBenchmarkFormat, StreamedEntriesReadAsATreeWould) {
  // The last of duplicate keys wins; a nested value under a field names its type.
  const ParsedRun dup = parse(
      R"({"benchmarks": [{"name": "BM_A", "real_time": 5, "real_time": 7, "time_unit": "us"},)"
      R"( {"name": "BM_B", "real_time": {"x": [1, 2]}}, {"name": "BM_C", "real_time": [3]},)"
      R"( {"name": "BM_D", "real_time": "fast"}, {"name": "BM_E", "real_time": 2,)"
      R"( "extra": {"real_time": 99, "name": "BM_X"}}]})");
  EXPECT_DOUBLE_EQ(measurement(dup, "BM_A").value, 7000);
  EXPECT_EQ(failure(dup, "BM_B").reason, "real_time is object, not a number");
  EXPECT_EQ(failure(dup, "BM_C").reason, "real_time is array, not a number");
  EXPECT_EQ(failure(dup, "BM_D").reason, "real_time is string, not a number");
  EXPECT_DOUBLE_EQ(measurement(dup, "BM_E").value, 2);
  EXPECT_EQ(dup.measurements.size(), 2u);

  // Counters are listed in key order, once each, without the bookkeeping fields.
  const ParsedRun counters =
      parse(R"({"benchmarks": [{"name": "BM_A", "real_time": 1, "zeta": 1, "alpha": 2, "zeta": 3,)"
            R"( "iterations": 10, "label": "x"}]})",
            "missing");
  EXPECT_EQ(failure(counters, "BM_A").reason,
            "no counter 'missing' (available: real_time, cpu_time, alpha, zeta)");

  // A "benchmarks" key inside another object is not the list; the last top-level one is.
  const ParsedRun nested =
      parse(R"({"context": {"benchmarks": [{"name": "BM_Ctx", "real_time": 1}]},)"
            R"( "benchmarks": [{"name": "BM_Old", "real_time": 1}],)"
            R"( "benchmarks": [{"name": "BM_New", "real_time": 4}]})");
  ASSERT_EQ(nested.measurements.size(), 1u);
  EXPECT_EQ(nested.measurements[0].name, "BM_New");
}

// What the fast scanner leaves to nlohmann's parser (a byte-order mark, a number below double's
// range) is read again from the start, to the same measurements.
TEST(GoogleBenchmarkFormat, DocumentsTheFastScannerRefusesAreStillRead) {
  const std::string real = data("repetitions.json");
  const ParsedRun plain = parse(real);
  const ParsedRun with_bom = parse("\xEF\xBB\xBF" + real);
  ASSERT_EQ(with_bom.measurements.size(), plain.measurements.size());
  for (std::size_t i = 0; i < plain.measurements.size(); ++i) {
    EXPECT_EQ(with_bom.measurements[i].name, plain.measurements[i].name);
    EXPECT_DOUBLE_EQ(with_bom.measurements[i].value, plain.measurements[i].value);
  }
  const ParsedRun tiny = parse(
      R"({"benchmarks": [{"name": "BM_A", "real_time": 2, "cpu_time": 1e-400}]})", "real_time");
  EXPECT_DOUBLE_EQ(measurement(tiny, "BM_A").value, 2);
  EXPECT_EQ(tiny.measurements.size(), 1u);
}

TEST(GoogleBenchmarkFormat, DeepNestingIsRefusedWithoutRecursing) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  try {
    parse(deep);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "not Google Benchmark JSON: nested deeper than 64 levels at byte 65");
  }
  // Brackets inside strings do not count.
  const std::string name = std::string(100, '[');
  const ParsedRun run = parse(fmt::format(
      R"({{"benchmarks": [{{"name": "{}", "real_time": 2, "time_unit": "ns"}}]}})", name));
  EXPECT_EQ(run.measurements.at(0).name, name);
}

TEST(GoogleBenchmarkFormat, InputLimits) {
  // A valid document padded to the limit is read; one byte more is refused for its size alone.
  std::string at_limit = R"({"benchmarks": [{"name": "BM_A", "real_time": 1}]})";
  at_limit.resize(kMaxInputBytes, ' ');
  EXPECT_EQ(parse(at_limit).measurements.size(), 1u);
  try {
    parse(at_limit + ' ');
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "not Google Benchmark JSON: the file has 67108865 bytes, more than the limit of "
              "64 MiB");
  }

  std::string many = R"({"benchmarks": [)";
  for (std::size_t i = 0; i <= kMaxBenchmarks; ++i) {
    if (i) many += ',';
    many += fmt::format(R"({{"name": "B{}", "real_time": 1}})", i);
  }
  many += "]}";
  try {
    parse(many);
    FAIL() << "expected ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "not Google Benchmark JSON: more than 100000 benchmarks in one file");
  }
}

// Entries are counted as they are read and refused past the limit, on the fast scanner's path
// and on the parser's it falls back to (a byte-order mark sends a file there). The real limit,
// kMaxGbEntries, is 2,000,000: the same code, at a size a test can afford.
TEST(GoogleBenchmarkFormat, EntriesBeyondTheLimitAreRefused) {
  std::string tiny = R"({"benchmarks": [{})";
  for (int i = 1; i < 11; ++i) tiny += ",{}";
  tiny += "]}";
  for (const std::string& doc : {tiny, "\xEF\xBB\xBF" + tiny}) {
    EXPECT_EQ(detail::read_gb_document(doc, "Google Benchmark", "", 11).entries.size(), 11u);
    try {
      detail::read_gb_document(doc, "Google Benchmark", "", 10);
      FAIL() << "expected ParseError";
    } catch (const ParseError& e) {
      EXPECT_EQ(std::string(e.what()),
                "not Google Benchmark JSON: more than 10 entries in \"benchmarks\"");
    }
  }
}

TEST(GoogleBenchmarkFormat, ExtraArgumentsQuoteThePath) {
  const auto format = make_google_benchmark_format("", std::nullopt);
  EXPECT_EQ(format->kind(), FormatKind::GoogleBenchmark);
  EXPECT_EQ(format->extra_arguments("/tmp/run 1/it's.json", 3),
            " --benchmark_format=console --benchmark_out='/tmp/run 1/it'\\''s.json'"
            " --benchmark_out_format=json --benchmark_repetitions=3"
            " --benchmark_enable_random_interleaving=true");
}

// --- metric: auto (the default) -------------------------------------------------------------

ParsedRun parse_auto(std::string_view content, std::string metric = "") {
  return make_google_benchmark_format(std::move(metric), std::nullopt)->parse(content);
}

TEST(GoogleBenchmarkFormat, AutoComparesCpuTimeOfSingleThreadedAndRealTimeOfThreaded) {
  for (const std::string metric : {"", "auto"}) {
    const ParsedRun run = parse_auto(data("repetitions.json"), metric);
    const ParsedRun real = parse(data("repetitions.json"), "real_time");
    const ParsedRun cpu = parse(data("repetitions.json"), "cpu_time");
    const Measurement& copy = measurement(run, "BM_Copy/64");
    EXPECT_EQ(copy.metric, "cpu_time");
    EXPECT_DOUBLE_EQ(copy.value, measurement(cpu, "BM_Copy/64").value);
    const Measurement& spin = measurement(run, "BM_Spin/threads:2");
    EXPECT_EQ(spin.metric, "real_time");
    EXPECT_DOUBLE_EQ(spin.value, measurement(real, "BM_Spin/threads:2").value);
    // Both times are kept, whichever was compared.
    EXPECT_DOUBLE_EQ(copy.real_time, measurement(real, "BM_Copy/64").value);
    EXPECT_DOUBLE_EQ(copy.cpu_time, measurement(cpu, "BM_Copy/64").value);
    EXPECT_DOUBLE_EQ(spin.cpu_time, measurement(cpu, "BM_Spin/threads:2").value);
  }
}

TEST(GoogleBenchmarkFormat, AutoUsesRealTimeForRealAndManualTimeAndThreads) {
  const std::string times = R"("real_time": 100, "cpu_time": 40, "time_unit": "ns")";
  const ParsedRun run = parse_auto(document({
      iteration("BM_Plain/64", times),
      iteration("BM_Real/64/real_time", times),
      iteration("BM_Manual/manual_time", times),
      iteration("BM_T/threads:1", times),
      iteration("BM_T/threads:8", times),
      iteration("BM_T/threads:16/real_time", times),
      iteration("BM_Field", R"("real_time": 100, "cpu_time": 40, "threads": 4)"),
  }));
  EXPECT_EQ(measurement(run, "BM_Plain/64").value, 40);
  EXPECT_EQ(measurement(run, "BM_Real/64/real_time").value, 100);
  EXPECT_EQ(measurement(run, "BM_Manual/manual_time").value, 100);
  EXPECT_EQ(measurement(run, "BM_T/threads:1").value, 40);
  EXPECT_EQ(measurement(run, "BM_T/threads:8").value, 100);
  EXPECT_EQ(measurement(run, "BM_T/threads:16/real_time").value, 100);
  EXPECT_EQ(measurement(run, "BM_Field").value, 100);
  EXPECT_EQ(measurement(run, "BM_Field").metric, "real_time");
}

TEST(GoogleBenchmarkFormat, ExplicitMetricWinsOverAuto) {
  const std::string times = R"("real_time": 100, "cpu_time": 40, "time_unit": "ns")";
  const std::string doc = document({iteration("BM_Plain", times)});
  EXPECT_EQ(measurement(parse_auto(doc, "real_time"), "BM_Plain").value, 100);
  EXPECT_EQ(measurement(parse_auto(doc, "real_time"), "BM_Plain").metric, "real_time");
  EXPECT_EQ(measurement(parse_auto(doc, "cpu_time"), "BM_Plain").value, 40);
}

TEST(GoogleBenchmarkFormat, AutoWithoutCpuTimeIsAFailureThatNamesTheField) {
  const ParsedRun run = parse_auto(document({iteration("BM_A", R"("real_time": 5)")}));
  ASSERT_EQ(run.failures.size(), 1u);
  EXPECT_EQ(run.failures[0].reason, "cpu_time is missing");
}

TEST(GoogleBenchmarkFormat, CounterMetricStillKeepsBothTimes) {
  const ParsedRun run = parse_auto(
      document({iteration("BM_A", R"("real_time": 5, "cpu_time": 4, "items_per_second": 9)")}),
      "items_per_second");
  const Measurement& m = measurement(run, "BM_A");
  EXPECT_EQ(m.metric, "");
  EXPECT_EQ(m.value, 9);
  EXPECT_EQ(m.real_time, 5);
  EXPECT_EQ(m.cpu_time, 4);
}

}  // namespace
}  // namespace benchpr::formats
