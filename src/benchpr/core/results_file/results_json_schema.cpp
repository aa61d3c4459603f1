#include "benchpr/core/results_file/results_json_schema.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "benchpr/core/results_file/results_json.hpp"

namespace benchpr::results_schema {

bool read_outside_the_series(std::string_view key) {
  const auto in = [key](const auto& fields) {
    return std::find(fields.begin(), fields.end(), key) != fields.end();
  };
  return in(kHeaderFields) || in(kTrailerFields);
}

void fail(const std::string& where, const std::string& what) {
  throw ResultsFormatError(fmt::format("results file: {}: {}", where, what));
}

std::optional<std::string>* SeriesFields::text(std::string_view key) {
  if (key == "suite") return &suite;
  if (key == "name") return &name;
  if (key == "unit") return &unit;
  if (key == "better") return &better;
  if (key == "metric") return &metric;
  if (key == "base_failure") return &base_failure;
  if (key == "head_failure") return &head_failure;
  if (key == "base_failure_kind") return &base_failure_kind;
  if (key == "head_failure_kind") return &head_failure_kind;
  return nullptr;
}

std::optional<std::vector<double>>* SeriesFields::values(std::string_view key) {
  if (key == "base") return &base;
  if (key == "head") return &head;
  return nullptr;
}

SeriesFields::Times* SeriesFields::times(std::string_view key) {
  if (key == "real_time") return &real_time;
  if (key == "cpu_time") return &cpu_time;
  if (key == "least") return &least;
  return nullptr;
}

std::map<std::string, SeriesFields::Times>* SeriesFields::event_times(std::string_view key) {
  return key == "events" ? &events : nullptr;
}

double series_value(double x) { return std::isfinite(x) && x > 0 ? x : kMissing; }

double event_value(double x) { return std::isfinite(x) ? x : kMissing; }

bool known_event(std::string_view name) {
  constexpr std::array<std::string_view, 12> kEvents = {
      "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim"};
  return std::find(kEvents.begin(), kEvents.end(), name) != kEvents.end();
}

namespace {

std::string required(std::optional<std::string>& field, const std::string& where) {
  if (!field) fail(where, "missing");
  return std::move(*field);
}

// A failure's kind; written only beside a failure, so files from before kinds were recorded
// (and kinds this version does not know) read as Other when there is a failure.
FailureKind failure_kind(const std::optional<std::string>& kind, const std::string& failure) {
  if (failure.empty()) return FailureKind::None;
  return failure_kind_from_string(kind.value_or("")).value_or(FailureKind::Other);
}

// The compared time is base/head; the file holds only the other one (`time`, when it is not the
// series' metric).
void take_time(const BenchmarkSeries& s, std::string_view time, SeriesFields::Times& read,
               std::vector<double>& base, std::vector<double>& head) {
  if (s.metric == time) {
    base = s.base;
    head = s.head;
  } else {
    base = std::move(read.base);
    head = std::move(read.head);
  }
}

}  // namespace

BenchmarkSeries finish_series(SeriesFields&& f, const std::string& w) {
  BenchmarkSeries s;
  s.suite = required(f.suite, w + ".suite");
  s.name = required(f.name, w + ".name");
  const auto better = better_from_string(required(f.better, w + ".better"));
  if (!better) fail(w + ".better", "expected \"lower\" or \"higher\"");
  s.better = *better;
  if (!f.base) fail(w + ".base", "missing");
  if (!f.head) fail(w + ".head", "missing");
  s.base = std::move(*f.base);
  s.head = std::move(*f.head);
  s.unit = f.unit.value_or("");
  s.metric = f.metric.value_or("");
  s.base_failure = f.base_failure.value_or("");
  s.head_failure = f.head_failure.value_or("");
  s.base_failure_kind = failure_kind(f.base_failure_kind, s.base_failure);
  s.head_failure_kind = failure_kind(f.head_failure_kind, s.head_failure);
  take_time(s, "real_time", f.real_time, s.base_real, s.head_real);
  take_time(s, "cpu_time", f.cpu_time, s.base_cpu, s.head_cpu);
  s.base_least = std::move(f.least.base);
  s.head_least = std::move(f.least.head);
  for (auto& [event, times] : f.events) {
    if (!times.base.empty()) s.base_events[event] = std::move(times.base);
    if (!times.head.empty()) s.head_events[event] = std::move(times.head);
  }
  return s;
}

}  // namespace benchpr::results_schema
