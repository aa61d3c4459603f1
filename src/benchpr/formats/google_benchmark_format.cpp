// Google Benchmark's JSON (--benchmark_out=FILE --benchmark_out_format=json). One run of a suite
// holds k repetitions per benchmark; the run's value is the mean time among them (the rate of
// the mean time), or the median of a user counter; the least time is kept beside it. See
// summarise().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/formats/format.hpp"
#include "benchpr/formats/google_benchmark_entries.hpp"

namespace benchpr::formats {
namespace {

constexpr std::string_view kTitle = "Google Benchmark";

// How a run's repetitions make its value. What a user pays is the mean time, so the mean is
// the value every verdict is about. The least time moves less from one process to the next on
// a shared machine (a burst only ever adds time: 5.3% against 11.8% per round on cctz,
// docs/method.md, "The run's value"), but it is blind to what a PR's own code can add to some
// repetitions and not others (a stall, a rehash, a flush, a wider spread): a PR whose
// repetitions stall 30% of the time for 20% longer costs 6% and leaves the least time where it
// was. The least is therefore kept beside the mean (Measurement::least), where the analysis
// reads how the two part between the sides, and never replaces it. A rate from the time (bytes
// or items per second) takes the rate of the mean time (the harmonic mean of the rates). A user
// counter need not be a time (a size, a count): its median.
enum class Summary { Mean, RateOfMeanTime, Median };

struct MetricSpec {
  std::string field;  // JSON key in each benchmark entry
  std::string unit;
  Better better = Better::Lower;
  bool is_time = false;  // scaled by time_unit to nanoseconds
  Summary summary = Summary::Median;
};

// `metric: auto` (the default): see auto_time_field.
constexpr std::string_view kAuto = "auto";

MetricSpec metric_spec(const std::string& metric) {
  if (metric.empty() || metric == kAuto)
    return {std::string(kAuto), "ns", Better::Lower, true, Summary::Mean};
  if (metric == "real_time") return {"real_time", "ns", Better::Lower, true, Summary::Mean};
  if (metric == "cpu_time") return {"cpu_time", "ns", Better::Lower, true, Summary::Mean};
  if (metric == "bytes_per_second")
    return {"bytes_per_second", "B/s", Better::Higher, false, Summary::RateOfMeanTime};
  if (metric == "items_per_second")
    return {"items_per_second", "items/s", Better::Higher, false, Summary::RateOfMeanTime};
  // A user counter: most are rates or amounts of work done, so higher is better unless the suite
  // says otherwise; its name is the most honest unit we have.
  return {metric, metric, Better::Higher, false, Summary::Median};
}

double summarise(Summary summary, std::vector<double> values) {
  const auto n = static_cast<double>(values.size());
  if (summary == Summary::Mean) {
    double sum = 0;
    for (double v : values) sum += v;
    return sum / n;
  }
  if (summary == Summary::RateOfMeanTime) {
    double inverse = 0;
    for (double v : values) inverse += 1 / v;
    return n / inverse;
  }
  return median(std::move(values));
}

// The least time of the repetitions (the highest rate); kMissing for a counter, which has none.
double least_of(Summary summary, const std::vector<double>& values) {
  if (summary == Summary::Mean) return *std::min_element(values.begin(), values.end());
  if (summary == Summary::RateOfMeanTime) return *std::max_element(values.begin(), values.end());
  return kMissing;
}

using detail::GbEntry;
using detail::GbNumber;

struct Group {
  std::string_view name;
  std::vector<const GbEntry*> iterations;
  std::vector<const GbEntry*> aggregates;
};

// A benchmark's entries as its summary reads them: its repetitions, its aggregates, and the
// aggregate that stands for it when only aggregates were written (the median, else the mean).
struct SummaryGroup : Group {
  std::string aggregate;  // "median", "mean" or ""
};

// The entries grouped by benchmark, in the file's order. Entries that are no object or have no
// name are left to parse(), which says what is wrong with them.
std::vector<SummaryGroup> summary_groups(const detail::GbDocument& document) {
  std::vector<SummaryGroup> groups;
  std::unordered_map<std::string_view, std::size_t> index;
  for (const GbEntry& e : document.entries) {
    const std::string_view key = e.run_name.empty() ? e.name : e.run_name;
    if (!e.not_object.empty() || key.empty()) continue;
    const auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) groups.push_back({{key, {}, {}}, ""});
    SummaryGroup& g = groups[it->second];
    if (e.run_type != "aggregate") {
      g.iterations.push_back(&e);
      continue;
    }
    g.aggregates.push_back(&e);
    if (e.aggregate_name == "median" || (e.aggregate_name == "mean" && g.aggregate.empty()))
      g.aggregate = e.aggregate_name;
  }
  return groups;
}

// On a shared machine a neighbour's load costs a benchmark wall time, not CPU time; a
// single-threaded benchmark that measures its own work is therefore compared on CPU time. Real
// time stays the measure where CPU time would miss the work: several threads (the library
// reports the main thread's CPU time only), UseRealTime and UseManualTime (the name then ends in
// /real_time or /manual_time, the benchmark author's own choice).
std::string auto_time_field(std::string_view name, const GbEntry& entry) {
  if (name.find("/real_time") != std::string::npos ||
      name.find("/manual_time") != std::string::npos)
    return "real_time";
  if (const auto pos = name.find("/threads:"); pos != std::string::npos) {
    const std::string_view count = name.substr(pos + 9, name.find('/', pos + 1) - (pos + 9));
    if (count != "1") return "real_time";
  }
  if (entry.threads && *entry.threads != 1) return "real_time";
  return "cpu_time";
}

class GoogleBenchmarkFormat final : public Format {
 public:
  GoogleBenchmarkFormat(std::string metric, std::optional<Better> better)
      : spec_(metric_spec(metric)), better_(detail::resolve_better(spec_.better, better)) {}

  FormatKind kind() const override { return FormatKind::GoogleBenchmark; }

  std::string extra_arguments(const std::string& out_path, int repetitions) const override {
    // Results go to the file as JSON; the console keeps the human-readable table, so the tail
    // of a failed run's log shows what a person needs to see.
    return fmt::format(
        " --benchmark_format=console --benchmark_out={} --benchmark_out_format=json"
        " --benchmark_repetitions={} --benchmark_enable_random_interleaving=true",
        shell_quote(out_path), repetitions);
  }

  bool recognises(const nlohmann::json& document) const override {
    if (!document.is_object()) return false;
    const auto benchmarks = document.find("benchmarks");
    return benchmarks != document.end() && benchmarks->is_array();
  }

  std::vector<RepetitionSummary> repetition_summaries(std::string_view content) const override {
    const detail::GbDocument document = detail::read_gb_document(content, kTitle, "");
    std::vector<RepetitionSummary> out;
    for (const SummaryGroup& g : summary_groups(document)) {
      if (const auto problem = detail::gb_duplicate_problem(g.iterations, g.aggregates))
        throw ParseError(fmt::format("{}: {}", g.name, detail::gb_duplicate_reason(*problem)));
      if (!g.iterations.empty()) {
        out.push_back(
            {std::string(g.name), g.iterations.size() == 1
                                      ? "1 repetition"
                                      : fmt::format("{} repetitions", g.iterations.size())});
      } else if (!g.aggregate.empty()) {
        out.push_back({std::string(g.name), "only the " + g.aggregate + " aggregate"});
      }
      // Otherwise complexity fits, or nothing the reader can compare.
    }
    return out;
  }

  ParsedRun parse(std::string_view content) const override {
    const detail::GbDocument document =
        detail::read_gb_document(content, kTitle, spec_.field == kAuto ? "" : spec_.field);
    if (document.type != "object") {
      throw ParseError(
          fmt::format("not {} JSON: expected an object with \"context\" and "
                      "\"benchmarks\", got {}",
                      kTitle, document.type));
    }
    if (!document.has_benchmarks_array) {
      throw ParseError(fmt::format("not {} JSON: no \"benchmarks\" array", kTitle));
    }

    // Views into `document`, which outlives them.
    std::vector<Group> groups;
    std::unordered_map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < document.entries.size(); ++i) {
      const GbEntry& entry = document.entries[i];
      if (!entry.not_object.empty()) {
        throw ParseError(fmt::format("not {} JSON: benchmarks[{}] is {}, not an object", kTitle, i,
                                     entry.not_object));
      }
      const std::string_view key = entry.run_name.empty() ? entry.name : entry.run_name;
      if (key.empty()) {
        throw ParseError(fmt::format("not {} JSON: benchmarks[{}] has no name", kTitle, i));
      }
      auto [it, inserted] = index.try_emplace(key, groups.size());
      if (inserted) {
        if (groups.size() == kMaxBenchmarks) {
          throw ParseError(fmt::format("not {} JSON: more than {} benchmarks in one file", kTitle,
                                       kMaxBenchmarks));
        }
        groups.push_back({key, {}, {}});
      }
      Group& group = groups[it->second];
      (entry.run_type == "aggregate" ? group.aggregates : group.iterations).push_back(&entry);
    }

    ParsedRun run;
    run.measurements.reserve(groups.size());
    for (const Group& group : groups) {
      // Two benchmarks under one name are not one benchmark's repetitions: neither is compared.
      if (const auto problem = detail::gb_duplicate_problem(group.iterations, group.aggregates)) {
        run.failures.push_back({std::string(group.name), detail::gb_duplicate_reason(*problem),
                                FailureKind::BadOutput});
        continue;
      }
      add_group(group, run);
    }
    return run;
  }

 private:
  void add_group(const Group& group, ParsedRun& run) const {
    for (const GbEntry* entry : group.iterations) {
      if (entry->error_occurred) {
        const std::string& message = entry->error_message;
        run.failures.push_back(
            {std::string(group.name), "error: " + (message.empty() ? "(no message)" : message)});
        return;
      }
    }

    std::vector<const GbEntry*> sources = group.iterations;
    std::string source_note;
    if (sources.empty()) {
      // --benchmark_report_aggregates_only: the median aggregate is what we would have computed.
      const GbEntry* fallback = nullptr;
      for (const char* wanted : {"median", "mean"}) {
        for (const GbEntry* entry : group.aggregates) {
          if (entry->aggregate_name == wanted) {
            fallback = entry;
            break;
          }
        }
        if (fallback) break;
      }
      if (!fallback) {
        // Complexity fits (BigO, RMS) are summaries of other benchmarks, not measurements.
        if (only_complexity(group)) return;
        run.failures.push_back(
            {std::string(group.name), "no repetitions and no median or mean aggregate"});
        return;
      }
      sources = {fallback};
      source_note = " (" + fallback->aggregate_name + " aggregate)";
    }

    MetricSpec spec = spec_;
    if (spec.field == kAuto) spec.field = auto_time_field(group.name, *sources.front());
    std::vector<double> values;
    std::vector<double> real_times;
    std::vector<double> cpu_times;
    for (const GbEntry* entry : sources) {
      const detail::Reading compared = read_value(spec, *entry);
      if (compared.problem) {
        run.failures.push_back({std::string(group.name), *compared.problem + source_note});
        return;
      }
      values.push_back(compared.value);
      // Both times are kept beside the compared value; a missing or unusable one is left out.
      if (const detail::Reading real = read_value(kRealTime, *entry); !real.problem)
        real_times.push_back(real.value);
      if (const detail::Reading cpu = read_value(kCpuTime, *entry); !cpu.problem)
        cpu_times.push_back(cpu.value);
    }
    const double spread = log_variance(values);
    // An aggregate stands for repetitions the file does not hold: it has no least of its own.
    const double least = source_note.empty() ? least_of(spec.summary, values) : kMissing;
    Measurement m{std::string(group.name), spec.unit, better_,
                  summarise(spec.summary, std::move(values))};
    m.repetition_log_variance = spread;
    m.least = least;
    if (spec.field == "real_time" || spec.field == "cpu_time") m.metric = spec.field;
    // The times kept beside (for the wall-against-CPU check) are read the way a time is.
    if (real_times.size() == sources.size())
      m.real_time = summarise(Summary::Mean, std::move(real_times));
    if (cpu_times.size() == sources.size())
      m.cpu_time = summarise(Summary::Mean, std::move(cpu_times));
    run.measurements.push_back(std::move(m));
  }

  inline static const MetricSpec kRealTime{"real_time", "ns", Better::Lower, true};
  inline static const MetricSpec kCpuTime{"cpu_time", "ns", Better::Lower, true};

  // How much the repetitions of one process differ (log scale); kMissing below two of them.
  static double log_variance(const std::vector<double>& values) {
    if (values.size() < 2) return kMissing;
    double mean = 0;
    for (double v : values) {
      if (!(v > 0)) return kMissing;
      mean += std::log(v);
    }
    mean /= static_cast<double>(values.size());
    double ss = 0;
    for (double v : values) ss += (std::log(v) - mean) * (std::log(v) - mean);
    return ss / static_cast<double>(values.size() - 1);
  }

  static bool only_complexity(const Group& group) {
    if (group.aggregates.empty()) return false;
    for (const GbEntry* entry : group.aggregates) {
      const std::string& aggregate = entry->aggregate_name;
      if (aggregate != "BigO" && aggregate != "RMS") return false;
    }
    return true;
  }

  static const GbNumber& field_of(const MetricSpec& spec, const GbEntry& entry) {
    if (spec.field == "real_time") return entry.real_time;
    if (spec.field == "cpu_time") return entry.cpu_time;
    return entry.metric;
  }

  detail::Reading read_value(const MetricSpec& spec, const GbEntry& entry) const {
    const GbNumber& field = field_of(spec, entry);
    if (!field.present) {
      return detail::unusable(spec.is_time ? fmt::format("{} is missing", spec.field)
                                           : missing_counter(entry));
    }
    if (!field.is_number) {
      return detail::unusable(fmt::format("{} is {}, not a number", spec.field, field.type));
    }
    double value = field.value;
    if (spec.is_time) {
      // The library always writes time_unit; without one the value is in its default, ns.
      const std::string time_unit = entry.time_unit.value_or("ns");
      const std::optional<double> scale = nanoseconds_per(time_unit);
      if (!scale) {
        return detail::unusable(
            fmt::format("unknown time_unit '{}' (expected ns, us, ms or s)", time_unit));
      }
      value *= *scale;
    }
    return detail::checked_reading(spec.field, value);
  }

  std::string missing_counter(const GbEntry& entry) const {
    // In key order, once each, as the file's object holds them.
    std::vector<std::string> available = entry.counters;
    std::sort(available.begin(), available.end());
    available.erase(std::unique(available.begin(), available.end()), available.end());
    if (available.empty()) {
      return fmt::format("no counter '{}' (the benchmark reports only real_time and cpu_time)",
                         spec_.field);
    }
    return fmt::format("no counter '{}' (available: real_time, cpu_time, {})", spec_.field,
                       fmt::join(available, ", "));
  }

  MetricSpec spec_;
  Better better_;
};

}  // namespace

std::unique_ptr<Format> make_google_benchmark_format(std::string metric,
                                                     std::optional<Better> better) {
  return std::make_unique<GoogleBenchmarkFormat>(std::move(metric), better);
}

}  // namespace benchpr::formats
