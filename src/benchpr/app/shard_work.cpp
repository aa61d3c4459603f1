#include "benchpr/app/shard_work.hpp"

#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "benchpr/app/user_error.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/runner/benchmark_list.hpp"
#include "benchpr/runner/filter_match.hpp"
#include "benchpr/runner/results_store.hpp"

namespace benchpr::app {

std::optional<ShardSpec> requested_shard(const RunOptions& options) {
  std::string text = options.shard;
  std::string named = "--shard " + text;
  if (text.empty()) {
    const char* env = std::getenv("BENCHPR_SHARD");
    if (env != nullptr && *env != '\0') {
      text = env;
      named = "BENCHPR_SHARD=" + text;
    }
  }
  if (text.empty()) {
    if (!options.balance_from.empty())
      throw UserError("--balance-from balances shards: give --shard I/N too");
    return std::nullopt;
  }
  const ShardSpecReading reading = parse_shard_spec(text);
  if (!reading.spec) throw UserError(named + ": " + reading.problem);
  return reading.spec;
}

std::optional<Results> balance_results(const RunOptions& options) {
  if (options.balance_from.empty()) return std::nullopt;
  try {
    return results_from_string(runner::read_text_file(options.balance_from));
  } catch (const Error& e) {  // benchpr's own only: a bug stays internal (exit 1)
    throw UserError(fmt::format("--balance-from {}: {}", options.balance_from, e.what()));
  }
}

runner::WorkSelection select_shard_work(Results& results, const ShardWorkInputs& in,
                                        exec::ProcessRunner& processes, const Progress& progress) {
  const Config& c = results.config;
  const std::optional<std::regex> keep = runner::compile_filter(c.filter);
  std::vector<WorkItem> items;
  std::set<std::string> listed_suites;  // split by benchmark
  for (const SuiteConfig& suite : c.suites) {
    if (suite.format != FormatKind::GoogleBenchmark) {
      items.push_back({suite.name, "", 1.0});
      continue;
    }
    // Both sides: a benchmark the PR adds belongs to a shard too. Each side's listing is the
    // same on every runner, so the union is.
    std::vector<std::string> names;
    std::set<std::string> seen;
    bool any_listing = false;
    for (const std::string& dir : {in.base_dir, in.head_dir}) {
      exec::ProcessSpec spec;
      spec.cwd = dir;
      spec.timeout_seconds = c.timeout_for(suite);
      spec.scrub_env = c.scrub_env;
      std::string command = suite.run;
      if (!c.bench_args.empty()) command += " " + c.bench_args;
      const auto listed = runner::list_gbench_benchmarks(processes, spec, command);
      if (!listed) continue;
      any_listing = true;
      for (const std::string& n : *listed)
        if (runner::filter_matches(keep, n) && seen.insert(n).second) names.push_back(n);
    }
    if (!any_listing) {
      // Neither side could list it: it goes whole to one shard, whose run reports the failure.
      progress.line(fmt::format("  could not list the benchmarks of {}: one shard runs it whole",
                                suite.name));
      items.push_back({suite.name, "", 1.0});
      continue;
    }
    listed_suites.insert(suite.name);
    for (const std::string& n : names) items.push_back({suite.name, n, 1.0});
  }
  std::string balance =
      "by the benchmark listing (every benchmark and every other suite "
      "counted alike)";
  if (in.balance) {
    const std::size_t known = apply_costs(*in.balance, items);
    balance = fmt::format("by the durations in {} ({} of {} known)", in.balance_name, known,
                          items.size());
  }
  ShardInfo info;
  info.index = in.spec.index;
  info.count = in.spec.count;
  info.balance = in.balance ? "results file" : "listing";
  info.partition = partition_work(items, in.spec.count);

  runner::WorkSelection selection;
  std::size_t mine = 0;
  for (const SuiteConfig& suite : c.suites) {
    if (listed_suites.count(suite.name)) selection.benchmarks[suite.name];  // none unless listed
  }
  std::set<std::string> whole_mine;
  for (const ShardUnit& u : info.partition) {
    if (u.shard != in.spec.index) continue;
    ++mine;
    if (u.name.empty())
      whole_mine.insert(u.suite);
    else
      selection.benchmarks[u.suite].push_back(u.name);
  }
  for (const SuiteConfig& suite : c.suites)
    if (!listed_suites.count(suite.name) && !whole_mine.count(suite.name))
      selection.skipped_suites.insert(suite.name);
  results.shard = info;
  if (mine == 0) {
    selection.nothing = true;
    selection.nothing_reason = fmt::format(
        "shard {} of {} has nothing to measure: there {} only {} to share among {} "
        "shards",
        in.spec.index, in.spec.count, items.size() == 1 ? "is" : "are",
        plural(items.size(), "benchmark or suite", "benchmarks or suites"), in.spec.count);
    progress.line(selection.nothing_reason);
    return selection;
  }
  progress.line(
      fmt::format("shard {} of {}: {} of {} (benchmarks, and suites of other formats), "
                  "balanced {}",
                  in.spec.index, in.spec.count, mine, items.size(), balance));
  return selection;
}

}  // namespace benchpr::app
