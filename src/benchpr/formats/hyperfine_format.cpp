// hyperfine's `--export-json FILE`: one result per command, with every run's wall time in
// seconds. The run's value is the median of those times, in nanoseconds.
#include <algorithm>
#include <cstdint>
#include <optional>
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

// The "results" array of a hyperfine document, within the limits; throws ParseError otherwise.
const json& results_of(const json& document) {
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
  return *results;
}

// The name of results[i]; throws ParseError when it is no object or has no command.
std::string command_of(const json& result, std::size_t i) {
  if (!result.is_object()) {
    throw ParseError(fmt::format("not {} JSON: results[{}] is {}, not an object", kTitle, i,
                                 result.type_name()));
  }
  const auto command = result.find("command");
  if (command == result.end() || !command->is_string()) {
    throw ParseError(fmt::format("not {} JSON: results[{}] has no command", kTitle, i));
  }
  // With --command-name, hyperfine writes the name in "command".
  return command->get<std::string>();
}

// Why one exit code is a failure ("exit code 3", "killed by a signal"); "" for 0.
std::string exit_code_problem(const json& code) {
  if (code.is_null()) return "killed by a signal";
  if (code.is_number_integer()) {
    if (code.get<std::int64_t>() == 0) return "";
    return fmt::format("exit code {}", code.get<std::int64_t>());
  }
  return fmt::format("exit code {}", code.dump(-1, ' ', false, json::error_handler_t::replace));
}

// "exit code 3 in 3 of 3 runs" or "killed by a signal in 1 of 5 runs" (hyperfine writes null
// when a command had no exit code); nothing when every run exited with 0.
std::optional<std::string> exit_problem(const json& result) {
  const auto codes = result.find("exit_codes");
  if (codes == result.end() || !codes->is_array()) return std::nullopt;
  std::size_t failed = 0;
  std::string first;
  for (const json& code : *codes) {
    std::string problem = exit_code_problem(code);
    if (problem.empty()) continue;
    if (failed++ == 0) first = problem;
  }
  if (failed == 0) return std::nullopt;
  return fmt::format("{} in {} of {} runs", first, failed, codes->size());
}

// Each command's processes, from its `times` and `exit_codes`; nullopt when some command has no
// `times` array (files written without per-run times), or none ran a process.
std::optional<std::vector<BenchmarkProcesses>> command_processes(std::string_view content) {
  const json document = detail::load_json(content, kTitle);
  const json& results = results_of(document);
  std::vector<BenchmarkProcesses> out;
  out.reserve(results.size());
  std::size_t runs = 0;  // the most processes a command ran
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& result = results[i];
    BenchmarkProcesses command{command_of(result, i), "ns", {}};
    const auto times = result.find("times");
    if (times == result.end() || !times->is_array()) return std::nullopt;
    const auto codes = result.find("exit_codes");
    const json* exit_codes = codes != result.end() && codes->is_array() ? &*codes : nullptr;
    command.runs.reserve(times->size());
    for (std::size_t k = 0; k < times->size(); ++k) {
      if (exit_codes && k < exit_codes->size()) {
        if (std::string problem = exit_code_problem((*exit_codes)[k]); !problem.empty()) {
          command.runs.push_back(detail::unusable(std::move(problem)));
          continue;
        }
      }
      const json& t = (*times)[k];
      const auto v = detail::json_number(t);
      if (!v) {
        command.runs.push_back(
            detail::unusable(fmt::format("time is {}, not a number", t.type_name())));
        continue;
      }
      detail::Reading reading = detail::checked_reading("time", *v);
      reading.value *= kNanosecondsPerSecond;
      command.runs.push_back(std::move(reading));
    }
    runs = std::max(runs, command.runs.size());
    out.push_back(std::move(command));
  }
  if (runs == 0) return std::nullopt;
  return out;
}

class HyperfineFormat final : public Format {
 public:
  HyperfineFormat(std::string metric, std::optional<Better> better)
      : metric_(std::move(metric)), better_(detail::resolve_better(Better::Lower, better)) {}

  FormatKind kind() const override { return FormatKind::Hyperfine; }

  std::string extra_arguments(const std::string&, int) const override { return ""; }

  bool recognises(const json& document) const override {
    if (!document.is_object()) return false;
    const auto results = document.find("results");
    return results != document.end() && results->is_array();
  }

  // Compared on time, each time hyperfine keeps is a process of its own: a run.
  std::optional<std::vector<BenchmarkProcesses>> split_runs(
      std::string_view content) const override {
    if (!metric_.empty() && metric_ != "time") return std::nullopt;
    return command_processes(content);
  }

  ParsedRun parse(std::string_view content) const override {
    const json document = detail::load_json(content, kTitle);
    const json& results = results_of(document);

    ParsedRun run;
    for (std::size_t i = 0; i < results.size(); ++i) {
      const json& result = results[i];
      const std::string name = command_of(result, i);
      if (std::optional<std::string> problem = exit_problem(result)) {
        run.failures.push_back({name, std::move(*problem)});
        continue;
      }
      const detail::Reading seconds = value_seconds(result);
      if (seconds.problem) {
        run.failures.push_back({name, *seconds.problem});
        continue;
      }
      run.measurements.push_back({name, "ns", better_, seconds.value * kNanosecondsPerSecond});
    }
    return run;
  }

 private:
  detail::Reading value_seconds(const json& result) const {
    std::string field = metric_.empty() || metric_ == "time" ? "times" : metric_;
    if (field != "times" && field != "user" && field != "system" && field != "mean" &&
        field != "median" && field != "min" && field != "max") {
      return detail::unusable(
          fmt::format("unknown metric '{}' (hyperfine reports time, user, system, mean, "
                      "median, min, max)",
                      metric_));
    }
    if (field == "times") {
      const auto times = result.find("times");
      if (times != result.end() && times->is_array() && !times->empty()) {
        std::vector<double> values;
        for (const json& t : *times) {
          const auto v = detail::json_number(t);
          if (!v)
            return detail::unusable(fmt::format("times holds {}, not a number", t.type_name()));
          if (std::optional<std::string> problem = detail::value_problem("time", *v))
            return detail::unusable(std::move(*problem));
          values.push_back(*v);
        }
        return {median(std::move(values)), std::nullopt};
      }
      field = "median";  // files written without per-run times
    }
    const auto it = result.find(field);
    if (it == result.end()) return detail::unusable(fmt::format("{} is missing", field));
    const auto v = detail::json_number(*it);
    if (!v) return detail::unusable(fmt::format("{} is {}, not a number", field, it->type_name()));
    return detail::checked_reading(field, *v);
  }

  std::string metric_;
  Better better_;
};

}  // namespace

std::unique_ptr<Format> make_hyperfine_format(std::string metric, std::optional<Better> better) {
  return std::make_unique<HyperfineFormat>(std::move(metric), better);
}

}  // namespace benchpr::formats
