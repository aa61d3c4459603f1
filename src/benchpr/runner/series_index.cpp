#include "benchpr/runner/series_index.hpp"

#include <unordered_set>

#include <fmt/format.h>

#include "benchpr/core/base/series_key.hpp"

namespace benchpr::runner {

namespace {

void set_value(std::vector<double>& values, int round, double v) {
  if (values.size() <= static_cast<std::size_t>(round))
    values.resize(static_cast<std::size_t>(round) + 1, kMissing);
  values[static_cast<std::size_t>(round)] = v;
}

}  // namespace

void SeriesIndex::rebuild(const Results& r) {
  ++rebuilds_;
  owner_ = &r;
  at_.clear();
  at_.reserve(r.series.size());
  // The first of duplicates wins, as the linear search did.
  for (std::size_t i = 0; i < r.series.size(); ++i)
    at_.emplace(series_key(r.series[i].suite, r.series[i].name), i);
  indexed_ = r.series.size();
}

BenchmarkSeries& SeriesIndex::find_or_add(Results& r, const std::string& suite,
                                          const std::string& name, const std::string& unit,
                                          Better better) {
  if (owner_ != &r || indexed_ != r.series.size()) rebuild(r);
  const std::string key = series_key(suite, name);
  auto it = at_.find(key);
  if (it != at_.end() && (it->second >= r.series.size() || r.series[it->second].suite != suite ||
                          r.series[it->second].name != name)) {
    rebuild(r);  // reordered elsewhere
    it = at_.find(key);
  }
  if (it != at_.end()) {
    BenchmarkSeries& s = r.series[it->second];
    if (s.unit.empty()) {
      s.unit = unit;
      s.better = better;
    }
    return s;
  }
  BenchmarkSeries s;
  s.suite = suite;
  s.name = name;
  s.unit = unit;
  s.better = better;
  r.series.push_back(std::move(s));
  at_.emplace(key, r.series.size() - 1);
  indexed_ = r.series.size();
  return r.series.back();
}

void record_measurement(Results& r, SeriesIndex& index, const std::string& suite, Side side,
                        int round, const Measurement& m) {
  BenchmarkSeries& s = index.find_or_add(r, suite, m.name, m.unit, m.better);
  set_value(side == Side::Base ? s.base : s.head, round, m.value);
  if (!m.metric.empty()) s.metric = m.metric;
  if (!is_missing(m.real_time))
    set_value(side == Side::Base ? s.base_real : s.head_real, round, m.real_time);
  if (!is_missing(m.cpu_time))
    set_value(side == Side::Base ? s.base_cpu : s.head_cpu, round, m.cpu_time);
  if (!is_missing(m.least))
    set_value(side == Side::Base ? s.base_least : s.head_least, round, m.least);
}

std::vector<std::string_view> duplicate_names(const ParsedRun& parsed) {
  std::unordered_map<std::string_view, int> seen;
  seen.reserve(parsed.measurements.size());
  std::vector<std::string_view> twice;
  for (const Measurement& m : parsed.measurements)
    if (++seen[m.name] == 2) twice.push_back(m.name);
  return twice;
}

std::string duplicate_reason(std::string_view name) {
  return fmt::format(
      "{} is reported twice in one results file: two benchmarks share the name, and neither "
      "can be told from the other; give each benchmark a name of its own",
      name);
}

void record_run(Results& r, SeriesIndex& index, const SuiteConfig& suite, Side side, int round,
                const ParsedRun& parsed) {
  // A name measured twice in one run is two benchmarks, not one: neither value stands for it.
  const std::vector<std::string_view> twice = duplicate_names(parsed);
  const std::unordered_set<std::string_view> ambiguous(twice.begin(), twice.end());
  for (std::string_view name : twice) {
    BenchmarkSeries& s = index.find_or_add(r, suite.name, std::string(name), "", Better::Lower);
    (side == Side::Base ? s.base_failure : s.head_failure) = duplicate_reason(name);
    (side == Side::Base ? s.base_failure_kind : s.head_failure_kind) = FailureKind::BadOutput;
  }
  for (Measurement m : parsed.measurements) {
    if (!ambiguous.empty() && ambiguous.contains(m.name)) continue;
    m.better = rule_better(suite, m.name).value_or(m.better);
    record_measurement(r, index, suite.name, side, round, m);
  }
  for (const BenchmarkFailure& f : parsed.failures) {
    BenchmarkSeries& s = index.find_or_add(r, suite.name, f.name, "", Better::Lower);
    // Why the benchmark has no value on that side (the latest reason wins).
    (side == Side::Base ? s.base_failure : s.head_failure) = f.reason;
    (side == Side::Base ? s.base_failure_kind : s.head_failure_kind) = f.kind;
  }
}

}  // namespace benchpr::runner
