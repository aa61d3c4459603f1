// hyperfine's `--export-json FILE`: one result per command, with every run's wall time in
// seconds. The run's value is the median of those times, in nanoseconds.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/formats/format.hpp"

namespace benchpr::formats {
namespace {

using nlohmann::json;

constexpr std::string_view kTitle = "hyperfine";
constexpr double kNanosecondsPerSecond = 1e9;

// "" when every run exited with 0; else "exit code 3 in 3 of 3 runs" or "killed by a signal in
// 1 of 5 runs" (hyperfine writes null when a command had no exit code).
std::string exit_problem(const json& result) {
  const auto codes = result.find("exit_codes");
  if (codes == result.end() || !codes->is_array()) return {};
  std::size_t failed = 0;
  std::string first;
  for (const json& code : *codes) {
    std::string problem;
    if (code.is_null()) {
      problem = "killed by a signal";
    } else if (code.is_number_integer()) {
      if (code.get<std::int64_t>() != 0)
        problem = fmt::format("exit code {}", code.get<std::int64_t>());
    } else {
      problem =
          fmt::format("exit code {}", code.dump(-1, ' ', false, json::error_handler_t::replace));
    }
    if (problem.empty()) continue;
    if (failed++ == 0) first = problem;
  }
  if (failed == 0) return {};
  return fmt::format("{} in {} of {} runs", first, failed, codes->size());
}

class HyperfineFormat final : public Format {
 public:
  HyperfineFormat(std::string metric, std::optional<Better> better)
      : metric_(std::move(metric)), better_(detail::resolve_better(Better::Lower, better)) {}

  std::string_view name() const override { return "hyperfine"; }

  std::string extra_arguments(const std::string&, int) const override { return ""; }

  ParsedRun parse(std::string_view content) const override {
    const json document = detail::load_json(content, kTitle);
    const json* results = nullptr;
    if (document.is_object()) {
      const auto it = document.find("results");
      if (it != document.end() && it->is_array()) results = &*it;
    }
    if (!results) throw ParseError(fmt::format("not {} JSON: no \"results\" array", kTitle));
    if (results->size() > kMaxBenchmarks) {
      throw ParseError(
          fmt::format("not {} JSON: more than {} commands in one file", kTitle, kMaxBenchmarks));
    }

    ParsedRun run;
    for (std::size_t i = 0; i < results->size(); ++i) {
      const json& result = (*results)[i];
      if (!result.is_object()) {
        throw ParseError(fmt::format("not {} JSON: results[{}] is {}, not an object", kTitle, i,
                                     result.type_name()));
      }
      const auto command = result.find("command");
      if (command == result.end() || !command->is_string()) {
        throw ParseError(fmt::format("not {} JSON: results[{}] has no command", kTitle, i));
      }
      // With --command-name, hyperfine writes the name in "command".
      const std::string name = command->get<std::string>();
      if (std::string problem = exit_problem(result); !problem.empty()) {
        run.failures.push_back({name, problem});
        continue;
      }
      std::string problem;
      const double seconds = value_seconds(result, problem);
      if (!problem.empty()) {
        run.failures.push_back({name, problem});
        continue;
      }
      run.measurements.push_back({name, "ns", better_, seconds * kNanosecondsPerSecond});
    }
    return run;
  }

 private:
  double value_seconds(const json& result, std::string& problem) const {
    std::string field = metric_.empty() || metric_ == "time" ? "times" : metric_;
    if (field != "times" && field != "user" && field != "system" && field != "mean" &&
        field != "median" && field != "min" && field != "max") {
      problem = fmt::format(
          "unknown metric '{}' (hyperfine reports time, user, system, mean, "
          "median, min, max)",
          metric_);
      return 0;
    }
    if (field == "times") {
      const auto times = result.find("times");
      if (times != result.end() && times->is_array() && !times->empty()) {
        std::vector<double> values;
        for (const json& t : *times) {
          const auto v = detail::json_number(t);
          if (!v) {
            problem = fmt::format("times holds {}, not a number", t.type_name());
            return 0;
          }
          if (problem = detail::value_problem("time", *v); !problem.empty()) return 0;
          values.push_back(*v);
        }
        return median(std::move(values));
      }
      field = "median";  // files written without per-run times
    }
    const auto it = result.find(field);
    if (it == result.end()) {
      problem = fmt::format("{} is missing", field);
      return 0;
    }
    const auto v = detail::json_number(*it);
    if (!v) {
      problem = fmt::format("{} is {}, not a number", field, it->type_name());
      return 0;
    }
    problem = detail::value_problem(field, *v);
    return *v;
  }

  std::string metric_;
  Better better_;
};

}  // namespace

std::unique_ptr<Format> make_hyperfine_format(std::string metric, std::optional<Better> better) {
  return std::make_unique<HyperfineFormat>(std::move(metric), better);
}

}  // namespace benchpr::formats
