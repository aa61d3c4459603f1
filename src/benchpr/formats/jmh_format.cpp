// JMH's JSON result file (`-rf json -rff FILE`): an array with one entry per benchmark and
// parameter combination. The run's value is the median of the measurement iterations of all forks.
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchpr/formats/format.hpp"

namespace benchpr::formats {
namespace {

using nlohmann::json;

constexpr std::string_view kTitle = "JMH";

std::string param_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// "org.x.TlsBenchmark.warmRoundTrip" + {payload: 256, cipher: aes} ->
// "org.x.TlsBenchmark.warmRoundTrip:cipher=aes:payload=256" (keys sorted, so the name does not
// depend on the order JMH happens to write them in).
std::string benchmark_name(const json& entry, std::size_t index) {
  const auto benchmark = entry.find("benchmark");
  if (benchmark == entry.end() || !benchmark->is_string() ||
      benchmark->get_ref<const std::string&>().empty()) {
    throw ParseError(
        fmt::format("not {} JSON: entry [{}] has no \"benchmark\" name", kTitle, index));
  }
  std::string name = benchmark->get<std::string>();
  const auto params = entry.find("params");
  if (params != entry.end() && params->is_object()) {
    std::map<std::string, std::string> sorted;
    for (const auto& [key, value] : params->items()) sorted[key] = param_text(value);
    for (const auto& [key, value] : sorted) name += fmt::format(":{}={}", key, value);
  }
  return name;
}

Better direction_of(std::string_view mode, std::string_view unit) {
  if (mode == "thrpt") return Better::Higher;
  if (mode == "avgt" || mode == "sample" || mode == "ss") return Better::Lower;
  // Secondary metrics and unknown modes: JMH throughput units read "ops/<time>".
  return unit.starts_with("ops/") ? Better::Higher : Better::Lower;
}

// Median of rawData ([fork][iteration]); of rawDataHistogram ([fork][iteration][[value, count]])
// for sample mode; else the reported score.
detail::Reading metric_value(const json& metric, std::string_view label) {
  std::vector<double> values;
  const auto raw = metric.find("rawData");
  if (raw != metric.end() && raw->is_array()) {
    for (const json& fork : *raw) {
      if (!fork.is_array()) continue;
      for (const json& iteration : fork) {
        const auto v = detail::json_number(iteration);
        if (!v)
          return detail::unusable(
              fmt::format("{} rawData holds {}, not a number", label, iteration.type_name()));
        values.push_back(*v);
      }
    }
  }
  if (values.empty()) {
    const auto histogram = metric.find("rawDataHistogram");
    if (histogram != metric.end() && histogram->is_array()) {
      std::vector<std::pair<double, double>> weighted;
      for (const json& fork : *histogram) {
        if (!fork.is_array()) continue;
        for (const json& iteration : fork) {
          if (!iteration.is_array()) continue;
          for (const json& bin : iteration) {
            if (!bin.is_array() || bin.size() != 2) continue;
            const auto v = detail::json_number(bin[0]);
            const auto count = detail::json_number(bin[1]);
            if (!v || !count) continue;
            if (std::isnan(*v)) return detail::unusable(fmt::format("{} is NaN", label));
            weighted.emplace_back(*v, *count);
          }
        }
      }
      if (!weighted.empty())
        return detail::checked_reading(label, weighted_median(std::move(weighted)));
    }
  }
  if (values.empty()) {
    const auto score = metric.find("score");
    if (score == metric.end())
      return detail::unusable(fmt::format("{} has no score and no rawData", label));
    const auto v = detail::json_number(*score);
    if (!v)
      return detail::unusable(
          fmt::format("{} score is {}, not a number", label, score->type_name()));
    values.push_back(*v);
  }
  for (double v : values) {
    if (std::optional<std::string> problem = detail::value_problem(label, v))
      return detail::unusable(std::move(*problem));
  }
  return {median(std::move(values)), std::nullopt};
}

// The metric a suite compares: the primary one, or a secondary metric named by `metric`
// ("gc.alloc.rate.norm" finds JMH's "·gc.alloc.rate.norm").
const json* find_metric(const json& entry, const std::string& metric, std::string& label) {
  if (metric.empty() || metric == "primary") {
    label = "primaryMetric";
    const auto it = entry.find("primaryMetric");
    return it != entry.end() && it->is_object() ? &*it : nullptr;
  }
  label = metric;
  const auto secondary = entry.find("secondaryMetrics");
  if (secondary == entry.end() || !secondary->is_object()) return nullptr;
  for (const auto& [key, value] : secondary->items()) {
    std::string_view bare = key;
    if (bare.starts_with("\u00b7")) bare.remove_prefix(std::string_view("\u00b7").size());
    if ((key == metric || bare == metric) && value.is_object()) return &value;
  }
  return nullptr;
}

class JmhFormat final : public Format {
 public:
  JmhFormat(std::string metric, std::optional<Better> better)
      : metric_(std::move(metric)), better_(better) {}

  FormatKind kind() const override { return FormatKind::Jmh; }

  std::string extra_arguments(const std::string&, int) const override { return ""; }

  // An array of results, the first naming its benchmark and primary metric.
  bool recognises(const json& document) const override {
    return document.is_array() && !document.empty() && document[0].is_object() &&
           document[0].contains("benchmark") && document[0].contains("primaryMetric");
  }

  ParsedRun parse(std::string_view content) const override {
    const json document = detail::load_json(content, kTitle);
    if (!document.is_array()) {
      throw ParseError(fmt::format("not {} JSON: expected an array of results, got {}", kTitle,
                                   document.type_name()));
    }
    if (document.size() > kMaxBenchmarks) {
      throw ParseError(
          fmt::format("not {} JSON: more than {} benchmarks in one file", kTitle, kMaxBenchmarks));
    }

    struct Entry {
      std::string name;
      std::string mode;
      const json* data;
    };
    std::vector<Entry> entries;
    std::map<std::string, std::set<std::string>> modes_by_name;
    for (std::size_t i = 0; i < document.size(); ++i) {
      const json& entry = document[i];
      if (!entry.is_object()) {
        throw ParseError(fmt::format("not {} JSON: entry [{}] is {}, not an object", kTitle, i,
                                     entry.type_name()));
      }
      const auto mode = entry.find("mode");
      Entry e{benchmark_name(entry, i),
              mode != entry.end() && mode->is_string() ? mode->get<std::string>() : "", &entry};
      modes_by_name[e.name].insert(e.mode);
      entries.push_back(std::move(e));
    }

    ParsedRun run;
    for (const Entry& e : entries) {
      // `-bm all` reports one benchmark in several modes: the mode keeps their names apart.
      const std::string name =
          modes_by_name[e.name].size() > 1 ? fmt::format("{}:mode={}", e.name, e.mode) : e.name;
      std::string label;
      const json* metric = find_metric(*e.data, metric_, label);
      if (!metric) {
        run.failures.push_back({name, metric_.empty()
                                          ? "no primaryMetric"
                                          : fmt::format("no secondary metric '{}'", metric_)});
        continue;
      }
      const auto unit_it = metric->find("scoreUnit");
      const std::string unit =
          unit_it != metric->end() && unit_it->is_string() ? unit_it->get<std::string>() : "";
      const detail::Reading score = metric_value(*metric, label);
      if (score.problem) {
        run.failures.push_back({name, *score.problem});
        continue;
      }
      const Better inferred = metric_.empty() || metric_ == "primary" ? direction_of(e.mode, unit)
                                                                      : direction_of("", unit);
      run.measurements.push_back(
          {name, unit, detail::resolve_better(inferred, better_), score.value});
    }
    return run;
  }

 private:
  std::string metric_;
  std::optional<Better> better_;
};

}  // namespace

std::unique_ptr<Format> make_jmh_format(std::string metric, std::optional<Better> better) {
  return std::make_unique<JmhFormat>(std::move(metric), better);
}

}  // namespace benchpr::formats
