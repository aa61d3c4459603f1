// Reading a results file (results.json) the way the integration tests check it: a benchmark by
// name, every verdict, and whether a benchmark was compared in every round.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace benchpr::testing {

// The analysis of `name` (in any suite, or in `suite`), nullptr when the file has none.
const nlohmann::json* find_benchmark(const nlohmann::json& doc, const std::string& name);
const nlohmann::json* find_benchmark(const nlohmann::json& doc, const std::string& suite,
                                     const std::string& name);

// The analysis of `name`; throws (the test fails, naming it) when the file has none.
const nlohmann::json& benchmark_named(const nlohmann::json& doc, const std::string& name);

// A comparison's verdict: the benchmark ran on both sides and was compared (not failed, added
// or removed).
bool is_comparison_verdict(const std::string& verdict);

// Each benchmark's verdict by name.
std::map<std::string, std::string> verdicts(const nlohmann::json& doc);

// The recommendation the specified rules give for the file's benchmarks when both builds
// succeeded and no pull request claims a performance change: a regression blocks; "failed"
// when benchmarks failed and none compared; otherwise "inconclusive" when a quarter or more of
// the compared benchmarks are, or when the sign follows run order for two or more and a quarter
// of those with an estimate; else "merge", or "failed" when a benchmark failed (a failure never
// leaves a merge). For tests whose benchmarks' verdicts are left to the machine: the
// recommendation must still follow from them.
std::string recommendation_for(const nlohmann::json& doc);

// Benchmarks `failed` failed beside others that compared: the recommendation is the others'
// reading (recommendation_for), and its sentence says how many failed, naming the first three.
void expect_reading_beside_failures(const nlohmann::json& doc,
                                    const std::vector<std::string>& failed);

// The analysed rounds in which benchmark `b` was compared: those its analysis used, and a first
// round it left out as cold (on a busy machine the first round may look cold: it was still
// compared).
int rounds_compared(const nlohmann::json& b);

// `name` was compared in every one of `rounds` analysed rounds: values on both sides in each,
// and a comparison's verdict (not failed, added or removed). Which comparison verdict is left
// to the caller: the PR's binary differs, and code layout alone can move an unchanged
// benchmark's time.
void expect_compared_in_every_round(const nlohmann::json& doc, const std::string& name, int rounds);

// A live test's rounds kept for its replay: with BENCHPR_CAPTURE_ROUNDS set to a directory (such
// as tests/data/live-rounds), the results file at `path` is copied there as `name`.json, the
// per-round values a unit test then decides on deterministically (tests/data/live-rounds/README).
void capture_rounds(const std::string& path, const std::string& name);

}  // namespace benchpr::testing
