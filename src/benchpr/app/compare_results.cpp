#include "benchpr/app/compare_results.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/app/user_error.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/runner/series_index.hpp"

namespace benchpr::app {

namespace {

using nlohmann::json;

constexpr std::string_view kReadable[] = {"google-benchmark", "jmh", "hyperfine"};

json load(const ResultFile& file, std::string_view title) {
  try {
    return formats::detail::load_json(file.content, title);
  } catch (const Error& e) {
    throw UserError(file.path + ": " + e.what());
  }
}

std::string names_of(const std::vector<ResultFile>& files) {
  std::string out;
  for (const ResultFile& f : files) out += (out.empty() ? "" : ", ") + f.path;
  return out;
}

}  // namespace

std::string detect_result_format(const ResultFile& file) {
  const json j = load(file, "benchmark results");
  if (j.is_object() && j.contains("benchmarks") && j["benchmarks"].is_array())
    return "google-benchmark";
  if (j.is_object() && j.contains("results") && j["results"].is_array()) return "hyperfine";
  if (j.is_array() && !j.empty() && j[0].is_object() && j[0].contains("benchmark") &&
      j[0].contains("primaryMetric"))
    return "jmh";
  throw UserError(file.path +
                  ": neither Google Benchmark JSON (--benchmark_out_format=json), JMH JSON (-rf "
                  "json) nor hyperfine JSON (--export-json); name its format with "
                  "--input-format google-benchmark|jmh|hyperfine");
}

namespace {

// hyperfine runs each command N times and keeps every time: run k holds the k-th time (and exit
// code) of each command that has one.
std::vector<std::string> hyperfine_runs(const ResultFile& file) {
  const json j = load(file, "hyperfine");
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) return {file.content};
  std::size_t n = 0;
  for (const json& result : j["results"]) {
    if (!result.is_object()) return {file.content};
    const auto times = result.find("times");
    if (times == result.end() || !times->is_array()) return {file.content};
    n = std::max(n, times->size());
  }
  if (n < 2) return {file.content};
  std::vector<std::string> runs;
  for (std::size_t k = 0; k < n; ++k) {
    json run = j;
    run["results"] = json::array();
    for (const json& result : j["results"]) {
      const json& times = result["times"];
      if (k >= times.size()) continue;  // this command ran fewer times: no value in run k
      json one = result;
      one["times"] = json::array({times[k]});
      if (const auto codes = result.find("exit_codes");
          codes != result.end() && codes->is_array() && k < codes->size())
        one["exit_codes"] = json::array({(*codes)[k]});
      run["results"].push_back(std::move(one));
    }
    runs.push_back(run.dump());
  }
  return runs;
}

}  // namespace

std::vector<std::string> runs_of(const ResultFile& file, const std::string& format,
                                 const std::string& metric) {
  if (format == "hyperfine" && (metric.empty() || metric == "time")) return hyperfine_runs(file);
  if (format != "google-benchmark") return {file.content};
  const json j = load(file, "Google Benchmark");
  if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array())
    return {file.content};  // the reader says what is wrong with it
  // The iteration entries by repetition; entries without an index belong to every run.
  std::map<long long, json> by_repetition;
  json shared = json::array();
  for (const json& entry : j["benchmarks"]) {
    if (!entry.is_object()) return {file.content};
    const std::string run_type = entry.value("run_type", std::string("iteration"));
    if (run_type == "aggregate") continue;
    const auto index = entry.find("repetition_index");
    if (index == entry.end() || !index->is_number_integer()) {
      shared.push_back(entry);
      continue;
    }
    json& list = by_repetition[index->get<long long>()];
    if (list.is_null()) list = json::array();
    list.push_back(entry);
  }
  if (by_repetition.size() < 2) return {file.content};
  std::vector<std::string> runs;
  for (auto& [index, entries] : by_repetition) {
    json run = {{"context", j.value("context", json::object())}, {"benchmarks", shared}};
    for (json& e : entries) run["benchmarks"].push_back(std::move(e));
    runs.push_back(run.dump());
  }
  return runs;
}

Results results_from_files(const CompareInput& input) {
  if (input.base.empty() || input.head.empty())
    throw UserError(
        "compare needs result files of both sides: BASE.json HEAD.json, or --base "
        "FILE... --head FILE...");
  std::string format = input.format;
  if (format == "auto") {
    format = detect_result_format(input.base.front());
    for (const auto* side : {&input.base, &input.head})
      for (const ResultFile& f : *side)
        if (const std::string other = detect_result_format(f); other != format)
          throw UserError(fmt::format("{} is {} JSON but {} is {}: compare results of one tool",
                                      f.path, other, input.base.front().path, format));
  } else if (std::find(std::begin(kReadable), std::end(kReadable), format) == std::end(kReadable)) {
    throw UserError("--input-format: expected google-benchmark, jmh or hyperfine, got '" + format +
                    "'");
  }

  Results r;
  r.tool_version = BENCHPR_VERSION;
  r.origin = Origin::ResultFiles;
  r.base.spec = names_of(input.base);
  r.head.spec = names_of(input.head);
  SuiteConfig suite;
  suite.name = format;
  suite.format = *format_kind_from_string(format);  // one of kReadable, checked above
  suite.metric = input.metric;
  const std::unique_ptr<formats::Format> reader = formats::make_format(suite);
  if (!reader) throw UserError("--input-format: no reader for " + format);
  r.config.build = "";
  r.config.suites = {suite};
  r.config.threshold = input.threshold;
  r.config.warmup_rounds = 0;

  std::vector<std::string> base_runs, head_runs;
  for (const auto& [files, runs] :
       {std::pair{&input.base, &base_runs}, std::pair{&input.head, &head_runs}}) {
    for (const ResultFile& f : *files) {
      for (std::string& run : runs_of(f, format, input.metric)) runs->push_back(std::move(run));
    }
  }
  const std::size_t rounds = std::max(base_runs.size(), head_runs.size());
  r.config.rounds = static_cast<int>(rounds);
  // One order for every round: the files do not say which side ran first (or whether the runs
  // were interleaved at all), so no position effect is fitted against a made-up order.
  for (std::size_t i = 0; i < rounds; ++i)
    r.plan.push_back({static_cast<int>(i), false, Side::Base});

  runner::SeriesIndex index;
  const auto read = [&](const std::vector<ResultFile>& files, const std::vector<std::string>& runs,
                        Side side) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      try {
        runner::record_run(r, index, suite, side, static_cast<int>(i), reader->parse(runs[i]));
      } catch (const formats::ParseError& e) {
        throw UserError(fmt::format("{} (run {} of the {} side): {}", names_of(files), i + 1,
                                    side == Side::Base ? "base" : "PR", e.what()));
      }
    }
  };
  read(input.base, base_runs, Side::Base);
  read(input.head, head_runs, Side::Head);
  // Every series as long as the plan, as a session leaves them.
  for (BenchmarkSeries& s : r.series) {
    for (auto* v : {&s.base, &s.head}) v->resize(rounds, kMissing);
    for (auto* v : {&s.base_real, &s.head_real, &s.base_cpu, &s.head_cpu})
      if (!v->empty()) v->resize(rounds, kMissing);
  }
  r.rounds_done = static_cast<int>(rounds);
  r.complete = true;
  r.stop_reason = fmt::format("read {} base and {} PR run{} from files", base_runs.size(),
                              head_runs.size(), head_runs.size() == 1 ? "" : "s");
  return r;
}

}  // namespace benchpr::app
