#include "benchpr/core/plan/shard_plan.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/stats/stats.hpp"

namespace benchpr {

namespace {

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

ShardSpecReading parse_shard_spec(std::string_view text) {
  const auto slash = text.find('/');
  const auto fail = [](std::string why) { return ShardSpecReading{std::nullopt, std::move(why)}; };
  if (slash == std::string_view::npos)
    return fail("expected INDEX/COUNT, such as 2/3 (the second of three shards)");
  const auto index = parse_int(text.substr(0, slash));
  const auto count = parse_int(text.substr(slash + 1));
  if (!index || !count) return fail("expected INDEX/COUNT with whole numbers, such as 2/3");
  if (*count < 1 || *count > kMaxShards)
    return fail(fmt::format("the shard count must be 1 to {}", kMaxShards));
  if (*index < 1 || *index > *count)
    return fail(fmt::format("the index counts from 1 to the shard count ({})", *count));
  return ShardSpecReading{ShardSpec{*index, *count}, ""};
}

std::vector<ShardUnit> partition_work(const std::vector<WorkItem>& items, int count) {
  std::vector<ShardUnit> units(items.size());
  if (count < 1) return units;
  std::vector<std::int64_t> cost(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    units[i].suite = items[i].suite;
    units[i].name = items[i].name;
    const double c = std::isfinite(items[i].cost) ? std::max(items[i].cost, 0.0) : 0.0;
    cost[i] = static_cast<std::int64_t>(std::llround(std::min(c, 1e9) * 1000));
  }
  // Longest processing time first; ties broken by name, never by input order, so two runners
  // that list the same benchmarks in another order still agree.
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (cost[a] != cost[b]) return cost[a] > cost[b];
    return std::tie(items[a].suite, items[a].name) < std::tie(items[b].suite, items[b].name);
  });
  std::vector<std::int64_t> load(static_cast<std::size_t>(count), 0);
  std::vector<int> assigned(static_cast<std::size_t>(count), 0);
  for (std::size_t i : order) {
    // Least loaded; among equal loads the one with fewer items (so zero-cost items spread
    // too), then the lowest index.
    std::size_t best = 0;
    for (std::size_t k = 1; k < load.size(); ++k)
      if (std::tie(load[k], assigned[k]) < std::tie(load[best], assigned[best])) best = k;
    load[best] += cost[i];
    ++assigned[best];
    units[i].shard = static_cast<int>(best) + 1;
  }
  return units;
}

std::size_t apply_costs(const Results& previous, std::vector<WorkItem>& items) {
  std::map<std::string, std::pair<double, int>> suite_time;  // seconds, runs
  for (const RunRecord& r : previous.runs) {
    if (!r.ok || !(r.seconds > 0)) continue;
    auto& t = suite_time[r.suite];
    t.first += r.seconds;
    ++t.second;
  }
  std::map<std::string, int> suite_size;
  for (const BenchmarkSeries& s : previous.series) ++suite_size[s.suite];
  std::map<std::pair<std::string, std::string>, double> per_iteration;  // seconds
  for (const BenchmarkSeries& s : previous.series) {
    // Seconds per unit for time units (what a Google Benchmark series holds); 0 otherwise.
    const double scale = nanoseconds_per(s.unit).value_or(0) * 1e-9;
    if (scale == 0) continue;
    std::vector<double> v;
    for (double x : s.base)
      if (!is_missing(x)) v.push_back(x * scale);
    for (double x : s.head)
      if (!is_missing(x)) v.push_back(x * scale);
    if (!v.empty()) per_iteration[{s.suite, s.name}] = stats::median(std::move(v));
  }
  std::size_t known = 0;
  std::map<std::string, std::vector<double>> known_costs;
  std::vector<bool> found(items.size(), false);
  for (std::size_t i = 0; i < items.size(); ++i) {
    WorkItem& item = items[i];
    const auto t = suite_time.find(item.suite);
    if (t == suite_time.end()) continue;
    const double run = t->second.first / t->second.second;
    if (item.name.empty()) {
      item.cost = run;
    } else {
      const auto it = per_iteration.find({item.suite, item.name});
      if (it == per_iteration.end()) continue;
      const int n = std::max(1, suite_size[item.suite]);
      item.cost = std::max(run / n, it->second);
    }
    found[i] = true;
    ++known;
    known_costs[item.suite].push_back(item.cost);
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (found[i]) continue;
    const auto k = known_costs.find(items[i].suite);
    items[i].cost = k == known_costs.end() ? 1.0 : stats::median(k->second);
  }
  return known;
}

}  // namespace benchpr
