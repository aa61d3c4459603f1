// Streams a Google Benchmark results file into flat entries (see google_benchmark_entries.hpp).
#include "benchpr/formats/google_benchmark_entries.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "benchpr/formats/format.hpp"
#include "benchpr/formats/json_events.hpp"

namespace benchpr::formats::detail {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 18> kBookkeeping = {"name",
                                                           "family_index",
                                                           "per_family_instance_index",
                                                           "run_name",
                                                           "run_type",
                                                           "repetitions",
                                                           "repetition_index",
                                                           "threads",
                                                           "iterations",
                                                           "time_unit",
                                                           "aggregate_name",
                                                           "aggregate_unit",
                                                           "error_occurred",
                                                           "error_message",
                                                           "label",
                                                           "big_o",
                                                           "rms",
                                                           "complexity_n"};

// The string spellings of non-finite numbers (see json_number in format.hpp).
std::optional<double> non_finite(std::string_view s) {
  if (s == "NaN" || s == "-NaN") return std::nan("");
  if (s == "Infinity" || s == "+Infinity") return HUGE_VAL;
  if (s == "-Infinity") return -HUGE_VAL;
  return std::nullopt;
}

// Where the value of the key being read goes.
enum class Slot {
  None,
  Name,
  RunName,
  RunType,
  AggregateName,
  ErrorMessage,
  TimeUnit,
  ErrorOccurred,
  Threads,
  FamilyIndex,
  InstanceIndex,
  RepetitionIndex,
  RealTime,
  CpuTime
};

Slot slot_of(std::string_view key) {
  if (key == "name") return Slot::Name;
  if (key == "run_name") return Slot::RunName;
  if (key == "run_type") return Slot::RunType;
  if (key == "aggregate_name") return Slot::AggregateName;
  if (key == "error_message") return Slot::ErrorMessage;
  if (key == "time_unit") return Slot::TimeUnit;
  if (key == "error_occurred") return Slot::ErrorOccurred;
  if (key == "threads") return Slot::Threads;
  if (key == "family_index") return Slot::FamilyIndex;
  if (key == "per_family_instance_index") return Slot::InstanceIndex;
  if (key == "repetition_index") return Slot::RepetitionIndex;
  if (key == "real_time") return Slot::RealTime;
  if (key == "cpu_time") return Slot::CpuTime;
  return Slot::None;
}

// Depths: 0 outside everything, 1 inside the top-level object, 2 inside "benchmarks", 3 inside
// one entry; anything deeper is skipped.
class Reader final : public JsonEvents {
 public:
  Reader(GbDocument& doc, std::string_view title, std::string_view metric_field,
         std::size_t max_entries)
      : doc_(doc), title_(title), metric_field_(metric_field), max_entries_(max_entries) {}

  void restart() override {
    doc_ = GbDocument{};
    depth_ = 0;
    awaiting_benchmarks_ = opening_benchmarks_ = in_benchmarks_ = in_entry_ = metric_ = false;
    slot_ = Slot::None;
  }

  bool null() override {
    scalar("null");
    return true;
  }
  bool boolean(bool v) override {
    if (scalar("boolean") && slot_ == Slot::ErrorOccurred) entry().error_occurred = v;
    return true;
  }
  bool number_integer(number_integer_t v) override { return integer(v); }
  bool number_unsigned(number_unsigned_t v) override {
    // Beyond long long it is no thread count, but still a number.
    if (scalar("number")) {
      set_number(static_cast<double>(v));
      if (slot_ == Slot::Threads) {
        entry().threads = static_cast<long long>(v);
      } else if (v <= static_cast<number_unsigned_t>(std::numeric_limits<long long>::max())) {
        set_integer(static_cast<long long>(v));
      }
    }
    return true;
  }
  bool number_float(number_float_t v, const string_t&) override {
    if (scalar("number")) set_number(v);
    return true;
  }
  bool string(string_t& v) override {
    if (!scalar("string")) return true;
    if (const auto n = non_finite(v); n) set_number(*n);
    GbEntry& e = entry();
    switch (slot_) {
      case Slot::Name:
        e.name = std::move(v);
        break;
      case Slot::RunName:
        e.run_name = std::move(v);
        break;
      case Slot::RunType:
        e.run_type = std::move(v);
        break;
      case Slot::AggregateName:
        e.aggregate_name = std::move(v);
        break;
      case Slot::ErrorMessage:
        e.error_message = std::move(v);
        break;
      case Slot::TimeUnit:
        e.time_unit = std::move(v);
        break;
      default:
        break;
    }
    return true;
  }
  bool binary(binary_t&) override {
    scalar("binary");
    return true;
  }
  bool start_object(std::size_t) override {
    begin_value("object");
    if (in_benchmarks_ && depth_ == 2) in_entry_ = true;
    ++depth_;
    return true;
  }
  bool end_object() override {
    --depth_;
    if (in_entry_ && depth_ == 2) in_entry_ = false;
    return true;
  }
  bool start_array(std::size_t) override {
    begin_value("array");
    if (opening_benchmarks_) {
      opening_benchmarks_ = false;
      in_benchmarks_ = true;
    }
    ++depth_;
    return true;
  }
  bool end_array() override {
    --depth_;
    if (in_benchmarks_ && depth_ == 1) in_benchmarks_ = false;
    return true;
  }
  bool key(string_t& k) override {
    if (depth_ == 1) {
      awaiting_benchmarks_ = k == "benchmarks";
      return true;
    }
    if (!in_entry_ || depth_ != 3) return true;
    // The last of duplicate keys wins, as in a JSON tree: forget what an earlier one set.
    GbEntry& e = entry();
    slot_ = slot_of(k);
    metric_ = !metric_field_.empty() && k == metric_field_;
    if (metric_) e.metric = {};
    switch (slot_) {
      case Slot::Name:
        e.name.clear();
        break;
      case Slot::RunName:
        e.run_name.clear();
        break;
      case Slot::RunType:
        e.run_type.clear();
        break;
      case Slot::AggregateName:
        e.aggregate_name.clear();
        break;
      case Slot::ErrorMessage:
        e.error_message.clear();
        break;
      case Slot::TimeUnit:
        e.time_unit.reset();
        break;
      case Slot::ErrorOccurred:
        e.error_occurred = false;
        break;
      case Slot::Threads:
        e.threads.reset();
        break;
      case Slot::FamilyIndex:
        e.family_index.reset();
        break;
      case Slot::InstanceIndex:
        e.per_family_instance_index.reset();
        break;
      case Slot::RepetitionIndex:
        e.repetition_index.reset();
        break;
      case Slot::RealTime:
        e.real_time = {};
        break;
      case Slot::CpuTime:
        e.cpu_time = {};
        break;
      case Slot::None:
        if (!is_gb_bookkeeping_field(k)) e.counters.push_back(std::move(k));
        break;
    }
    return true;
  }

 private:
  GbEntry& entry() { return doc_.entries.back(); }

  // Every value passes here before it is read; true when it is an entry's field.
  bool scalar(const char* type) {
    begin_value(type);
    return in_entry_ && depth_ == 3;
  }

  void begin_value(const char* type) {
    if (depth_ == 0) {
      doc_.type = type;
    } else if (depth_ == 1) {
      if (!awaiting_benchmarks_) return;
      awaiting_benchmarks_ = false;
      doc_.has_benchmarks_array = std::string_view(type) == "array";
      doc_.entries.clear();
      opening_benchmarks_ = doc_.has_benchmarks_array;
    } else if (depth_ == 2 && in_benchmarks_) {
      if (doc_.entries.size() == max_entries_) {
        throw ParseError(fmt::format("not {} JSON: more than {} entries in \"benchmarks\"", title_,
                                     max_entries_));
      }
      doc_.entries.emplace_back();
      if (std::string_view(type) != "object") entry().not_object = type;
    } else if (depth_ == 3 && in_entry_) {
      GbEntry& e = entry();
      if (GbNumber* n = number_slot(e)) *n = {0, true, false, type};
      if (metric_) e.metric = {0, true, false, type};
    }
  }

  GbNumber* number_slot(GbEntry& e) const {
    if (slot_ == Slot::RealTime) return &e.real_time;
    if (slot_ == Slot::CpuTime) return &e.cpu_time;
    return nullptr;
  }

  bool integer(long long v) {
    if (scalar("number")) {
      set_number(static_cast<double>(v));
      set_integer(v);
    }
    return true;
  }

  void set_integer(long long v) {
    GbEntry& e = entry();
    if (slot_ == Slot::Threads) e.threads = v;
    if (slot_ == Slot::FamilyIndex) e.family_index = v;
    if (slot_ == Slot::InstanceIndex) e.per_family_instance_index = v;
    if (slot_ == Slot::RepetitionIndex) e.repetition_index = v;
  }

  void set_number(double v) {
    GbEntry& e = entry();
    if (GbNumber* n = number_slot(e)) n->value = v, n->is_number = true;
    if (metric_) e.metric.value = v, e.metric.is_number = true;
  }

  GbDocument& doc_;
  std::string_view title_;
  std::string_view metric_field_;
  std::size_t max_entries_;
  int depth_ = 0;
  bool awaiting_benchmarks_ = false;
  bool opening_benchmarks_ = false;
  bool in_benchmarks_ = false;
  bool in_entry_ = false;
  Slot slot_ = Slot::None;
  bool metric_ = false;
};

}  // namespace

std::optional<std::string> gb_duplicate_problem(const std::vector<const GbEntry*>& iterations,
                                                const std::vector<const GbEntry*>& aggregates) {
  for (std::size_t i = 0; i < aggregates.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (aggregates[i]->aggregate_name == aggregates[j]->aggregate_name)
        return fmt::format("it has two {} aggregates", aggregates[i]->aggregate_name);
  if (iterations.size() < 2) return std::nullopt;
  // Registered twice: the entries name two (family, instance) pairs.
  const GbEntry* first = nullptr;
  for (const GbEntry* e : iterations) {
    if (!e->family_index) continue;
    if (!first) {
      first = e;
    } else if (*e->family_index != *first->family_index ||
               e->per_family_instance_index != first->per_family_instance_index) {
      return fmt::format("it comes from two registered benchmarks (family_index {} and {})",
                         *first->family_index, *e->family_index);
    }
  }
  // Or the same repetition written twice.
  std::map<long long, std::size_t> per_repetition;
  for (const GbEntry* e : iterations) {
    if (!e->repetition_index) continue;
    if (const std::size_t n = ++per_repetition[*e->repetition_index]; n == 2)
      return fmt::format("it has two results for repetition {}", *e->repetition_index);
  }
  return std::nullopt;
}

std::string gb_duplicate_reason(std::string_view problem) {
  return fmt::format(
      "the name is reported twice in one results file ({}): two benchmarks share it, and "
      "neither can be told from the other; give each benchmark a name of its own",
      problem);
}

bool is_gb_bookkeeping_field(std::string_view key) {
  return std::find(kBookkeeping.begin(), kBookkeeping.end(), key) != kBookkeeping.end();
}

GbDocument read_gb_document(std::string_view content, std::string_view title,
                            std::string_view metric_field, std::size_t max_entries) {
  GbDocument doc;
  if (metric_field == "real_time" || metric_field == "cpu_time") metric_field = {};
  // Reserved at a size no real entry undercuts (the library writes over 200 bytes per entry), so
  // that the entries are not moved as they grow.
  doc.entries.reserve(std::min(content.size() / 256, max_entries));
  Reader reader(doc, title, metric_field, max_entries);
  sax_json(content, title, reader);
  return doc;
}

}  // namespace benchpr::formats::detail
