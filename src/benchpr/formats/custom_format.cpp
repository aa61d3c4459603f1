// The "custom" JSON of github-action-benchmark (customSmallerIsBetter / customBiggerIsBetter):
// [{"name": ..., "unit": ..., "value": ..., "range": ..., "extra": ...}]. The file does not say
// which direction is better, so the suite's `better` decides (lower when unset).
#include <map>
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

constexpr std::string_view kTitle = "custom benchmark";

class CustomFormat final : public Format {
 public:
  explicit CustomFormat(std::optional<Better> better)
      : better_(detail::resolve_better(Better::Lower, better)) {}

  FormatKind kind() const override { return FormatKind::Custom; }

  std::string extra_arguments(const std::string&, int) const override { return ""; }

  ParsedRun parse(std::string_view content) const override {
    const json document = detail::load_json(content, kTitle);
    if (!document.is_array()) {
      throw ParseError(fmt::format(
          "not {} JSON: expected an array of {{\"name\", \"unit\", \"value\"}} objects, got {}",
          kTitle, document.type_name()));
    }
    if (document.size() > kMaxBenchmarks) {
      throw ParseError(
          fmt::format("not {} JSON: more than {} benchmarks in one file", kTitle, kMaxBenchmarks));
    }

    // A name may repeat (a tool printing one line per repetition): its value is the median.
    struct Entry {
      std::string unit;
      std::vector<double> values;
      std::optional<std::string> problem;  // the first one of its lines
    };
    std::vector<std::string> order;
    std::map<std::string, Entry> entries;
    for (std::size_t i = 0; i < document.size(); ++i) {
      const json& item = document[i];
      if (!item.is_object()) {
        throw ParseError(
            fmt::format("not {} JSON: [{}] is {}, not an object", kTitle, i, item.type_name()));
      }
      const auto name = item.find("name");
      if (name == item.end() || !name->is_string() || name->get_ref<const std::string&>().empty()) {
        throw ParseError(fmt::format("not {} JSON: [{}] has no \"name\"", kTitle, i));
      }
      auto [it, inserted] = entries.try_emplace(name->get<std::string>());
      if (inserted) order.push_back(it->first);
      Entry& entry = it->second;
      if (const auto unit = item.find("unit"); unit != item.end() && unit->is_string()) {
        if (entry.unit.empty()) entry.unit = unit->get<std::string>();
      }
      if (entry.problem) continue;
      const auto value = item.find("value");
      if (value == item.end()) {
        entry.problem = "value is missing";
        continue;
      }
      const auto number = detail::json_number(*value);
      if (!number) {
        entry.problem = fmt::format("value is {}, not a number", value->type_name());
      } else if (entry.problem = detail::value_problem("value", *number); !entry.problem) {
        entry.values.push_back(*number);
      }
    }

    ParsedRun run;
    for (const std::string& name : order) {
      Entry& entry = entries[name];
      if (entry.problem) {
        run.failures.push_back({name, *entry.problem});
      } else {
        run.measurements.push_back({name, entry.unit, better_, median(std::move(entry.values))});
      }
    }
    return run;
  }

 private:
  Better better_;
};

}  // namespace

std::unique_ptr<Format> make_custom_format(std::optional<Better> better) {
  return std::make_unique<CustomFormat>(better);
}

}  // namespace benchpr::formats
