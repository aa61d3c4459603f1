#include "benchpr/core/shard_merge.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/instruction_analysis.hpp"
#include "benchpr/core/results_json.hpp"
#include "benchpr/core/series_key.hpp"
#include "benchpr/core/text.hpp"

namespace benchpr {

namespace {

[[noreturn]] void fail(const std::string& message) { throw MergeError(message); }

// The configuration without what each shard's time plan sizes for itself (the rounds).
nlohmann::json comparable_config(const Config& c) {
  nlohmann::json j = config_to_json(c);
  j.erase("rounds");
  return j;
}

bool has_values(const std::vector<double>& v) {
  return std::any_of(v.begin(), v.end(), [](double x) { return !is_missing(x); });
}

void check_same(const ShardFile& first, const ShardFile& f) {
  const Results& a = first.results;
  const Results& b = f.results;
  const auto mismatch = [&](const std::string& what, const std::string& theirs,
                            const std::string& ours) {
    fail(
        fmt::format("{}: {} is {}, but {} in {}: all shards must come from one comparison "
                    "(`benchpr run --shard I/N` of the same revisions, seed and shard count)",
                    f.path, what, theirs, ours, first.path));
  };
  if (b.shard->count != a.shard->count)
    mismatch("the shard count", std::to_string(b.shard->count), std::to_string(a.shard->count));
  if (b.base.sha != a.base.sha)
    mismatch("the base revision", short_sha(b.base.sha), short_sha(a.base.sha));
  if (b.head.sha != a.head.sha)
    mismatch("the head revision", short_sha(b.head.sha), short_sha(a.head.sha));
  if (b.seed != a.seed) mismatch("the seed", std::to_string(b.seed), std::to_string(a.seed));
  const nlohmann::json ca = comparable_config(a.config), cb = comparable_config(b.config);
  if (ca != cb) {
    std::string key;
    for (const auto& item : cb.items())
      if (!ca.contains(item.key()) || ca[item.key()] != item.value()) {
        key = " (`" + item.key() + "`)";
        break;
      }
    fail(
        fmt::format("{}: its configuration{} differs from the one in {}: all shards must "
                    "compare with the same .benchpr.yml and options",
                    f.path, key, first.path));
  }
  const auto& pa = a.shard->partition;
  const auto& pb = b.shard->partition;
  bool same = pa.size() == pb.size();
  for (std::size_t i = 0; same && i < pa.size(); ++i)
    same = pa[i].suite == pb[i].suite && pa[i].name == pb[i].name && pa[i].shard == pb[i].shard;
  if (!same)
    fail(
        fmt::format("{}: its partition of the benchmarks differs from {}'s: give every shard "
                    "the same --balance-from file (or none)",
                    f.path, first.path));
  const std::size_t common = std::min(a.plan.size(), b.plan.size());
  for (std::size_t i = 0; i < common; ++i)
    if (a.plan[i].first != b.plan[i].first || a.plan[i].warmup != b.plan[i].warmup)
      fail(fmt::format("{}: its round plan differs from {}'s in round {}", f.path, first.path, i));
}

// Why a shard did not measure its whole share, if it did not.
std::optional<std::string> shard_problem(const Results& r) {
  for (const BuildResult& b : r.builds)
    if (!b.ok)
      return "the " + std::string(b.side == Side::Base ? "base" : "PR") + " failed to build";
  if (!r.complete) return r.stop_reason.empty() ? "stopped early" : r.stop_reason;
  return std::nullopt;
}

}  // namespace

MergeOutcome merge_shards(std::vector<ShardFile> files) {
  if (files.empty()) fail("no shard files given");
  for (const ShardFile& f : files) {
    if (!f.results.shard)
      fail(f.path + ": not a shard result (it was written by `benchpr run` without --shard)");
    if (f.results.shard->index == 0)
      fail(f.path + ": already a merged result; merge the shard files themselves");
  }
  std::stable_sort(files.begin(), files.end(), [](const ShardFile& a, const ShardFile& b) {
    return a.results.shard->index < b.results.shard->index;
  });
  for (std::size_t i = 1; i < files.size(); ++i) {
    check_same(files[0], files[i]);
    if (files[i].results.shard->index == files[i - 1].results.shard->index)
      fail(fmt::format("{} and {} are both shard {} of {}: give each shard's file once",
                       files[i - 1].path, files[i].path, files[i].results.shard->index,
                       files[i].results.shard->count));
  }

  const Results& first = files[0].results;
  const int count = first.shard->count;
  MergeOutcome out;
  Results& m = out.merged;
  m.tool_version = first.tool_version;
  m.base = first.base;
  m.head = first.head;
  m.config = first.config;
  m.machine = first.machine;
  m.pull_request = first.pull_request;
  m.config_changed_by_head = first.config_changed_by_head;
  m.seed = first.seed;
  m.workflow_run_url = first.workflow_run_url;
  ShardInfo info;
  info.index = 0;
  info.count = count;
  info.balance = first.shard->balance;
  info.partition = first.shard->partition;

  std::map<int, const ShardFile*> by_index;
  for (const ShardFile& f : files) by_index[f.results.shard->index] = &f;
  std::map<int, std::string> problems;  // shard -> why its unmeasured benchmarks are missing
  bool all_complete = true;
  BuildResult builds[2] = {{Side::Base, true, 0, "", ""}, {Side::Head, true, 0, "", ""}};
  std::map<std::pair<std::string, std::string>, std::size_t> seen;  // series -> index in m
  std::map<std::pair<std::string, std::string>, int> measured_by;
  // Which shard the partition gives each benchmark (a whole suite of another format: name "");
  // a benchmark's instruction counts belong to the same shard as its time.
  std::map<std::pair<std::string, std::string>, int> owner;
  for (const ShardUnit& u : info.partition) {
    owner.try_emplace({u.suite, u.name}, u.shard);
    owner.try_emplace({instruction_suite_name(u.suite), u.name}, u.shard);
  }
  const auto owner_of = [&owner](const BenchmarkSeries& s) {
    auto it = owner.find({s.suite, s.name});
    if (it == owner.end()) it = owner.find({s.suite, ""});
    return it == owner.end() ? 0 : it->second;
  };

  for (int k = 1; k <= count; ++k) {
    ShardRecord rec;
    rec.index = k;
    const auto it = by_index.find(k);
    if (it == by_index.end()) {
      rec.status = "missing";
      problems[k] = fmt::format("shard {} of {} is missing", k, count);
      out.missing.push_back(k);
      all_complete = false;
      info.shards.push_back(rec);
      continue;
    }
    const ShardFile& f = *it->second;
    const Results& r = f.results;
    rec.file = f.path;
    rec.machine = r.machine;
    rec.measuring_seconds = r.measuring_seconds;
    rec.workflow_run_url = r.workflow_run_url;
    const std::optional<std::string> problem = shard_problem(r);
    rec.complete = !problem;
    rec.status = problem ? *problem : r.stop_reason;
    if (problem) {
      problems[k] = fmt::format("shard {} of {} {}", k, count,
                                r.complete ? "failed: " + *problem : "stopped: " + *problem);
      all_complete = false;
      out.warnings.push_back(fmt::format("{} (shard {} of {}): {}", f.path, k, count, *problem));
    }
    for (const BuildResult& b : r.builds) {
      BuildResult& into = builds[b.side == Side::Base ? 0 : 1];
      into.seconds = std::max(into.seconds, b.seconds);
      if (!b.ok && into.ok) {
        into.ok = false;
        into.failure = fmt::format("shard {}: {}", k, b.failure);
        into.log_tail = b.log_tail;
      }
    }
    for (const RunRecord& run : r.runs) m.runs.push_back(run);
    // Each shard profiled the changes of its own share.
    for (const BenchmarkProfile& p : r.profiles) m.profiles.push_back(p);
    if (r.plan.size() > m.plan.size()) m.plan = r.plan;
    m.config.rounds = std::max(m.config.rounds, r.config.rounds);
    m.rounds_done = std::max(m.rounds_done, r.rounds_done);
    m.measuring_seconds = std::max(m.measuring_seconds, r.measuring_seconds);
    m.overhead_seconds = std::max(m.overhead_seconds, r.overhead_seconds);
    for (const BenchmarkSeries& s : r.series) {
      const auto key = std::make_pair(s.suite, s.name);
      const bool measured = has_values(s.base) || has_values(s.head);
      // A shard measures only its share: values for another shard's benchmark would stand in
      // for that shard's (or, with that shard missing, for nothing at all).
      if (const int shard = owner_of(s); measured && shard != 0 && shard != k)
        fail(fmt::format(
            "{}: benchmark {} has values, but the partition gives it to shard {}, not {}: a "
            "shard's file holds only its own share (a file from another comparison, or edited)",
            f.path, qualified_name(s.suite, s.name), shard, k));
      if (auto at = seen.find(key); at != seen.end()) {
        // The same benchmark from two shards: only a failure row (a suite that failed on both)
        // may repeat; two measured series mean the shards did not split the same way.
        BenchmarkSeries& kept = m.series[at->second];
        if (measured && (has_values(kept.base) || has_values(kept.head)))
          fail(
              fmt::format("{}: benchmark {} was also measured by shard {}: the shards did not "
                          "split the benchmarks the same way",
                          f.path, qualified_name(s.suite, s.name), measured_by[key]));
        if (measured) kept = s;
        continue;
      }
      seen[key] = m.series.size();
      if (measured) measured_by[key] = k;
      m.series.push_back(s);
    }
    rec.benchmarks = static_cast<int>(std::count_if(
        r.series.begin(), r.series.end(),
        [](const BenchmarkSeries& s) { return has_values(s.base) || has_values(s.head); }));
    info.shards.push_back(rec);
  }
  m.builds = {builds[0], builds[1]};

  // What a missing or failed shard should have measured and nobody did: a row each, failed
  // with the reason, so the comment lists them instead of comparing fewer benchmarks silently.
  std::set<std::string> suites_seen;
  for (const BenchmarkSeries& s : m.series) suites_seen.insert(s.suite);
  const auto mark_not_measured = [&](const std::string& suite, const std::string& name,
                                     const std::string& why) {
    const auto key = std::make_pair(suite, name);
    if (measured_by.count(key) > 0) return;
    if (seen.count(key)) {
      BenchmarkSeries& s = m.series[seen[key]];
      if (s.base_failure.empty()) {
        s.base_failure = "not measured: " + why;
        s.base_failure_kind = FailureKind::NotMeasured;
      }
      if (s.head_failure.empty()) {
        s.head_failure = "not measured: " + why;
        s.head_failure_kind = FailureKind::NotMeasured;
      }
    } else {
      BenchmarkSeries s;
      s.suite = suite;
      s.name = name;
      s.base_failure = "not measured: " + why;
      s.head_failure = s.base_failure;
      s.base_failure_kind = FailureKind::NotMeasured;
      s.head_failure_kind = FailureKind::NotMeasured;
      seen[key] = m.series.size();
      m.series.push_back(std::move(s));
    }
    out.not_measured.push_back(qualified_name(suite, name));
  };
  for (const ShardUnit& u : info.partition) {
    const auto p = problems.find(u.shard);
    if (p == problems.end()) continue;
    if (u.name.empty()) {  // a whole suite of another format
      if (!suites_seen.count(u.suite))
        mark_not_measured(u.suite, "(suite " + u.suite + ")", p->second);
      continue;
    }
    // A benchmark's time and, when its suite counts them, its instructions: both were the
    // missing shard's to measure.
    const SuiteConfig* suite = m.config.find_suite(u.suite);
    if (!suite || Config::measures_time(*suite)) mark_not_measured(u.suite, u.name, p->second);
    if (suite && m.config.counts_instructions(*suite))
      mark_not_measured(instruction_suite_name(u.suite), u.name, p->second);
  }

  m.complete = all_complete;
  if (all_complete) {
    m.stop_reason = fmt::format("{} shards merged, all complete", count);
  } else {
    std::vector<std::string> parts;
    for (const auto& [k, why] : problems) parts.push_back(why);
    std::string list;
    for (std::size_t i = 0; i < parts.size(); ++i) list += (i ? "; " : "") + parts[i];
    m.stop_reason = fmt::format("{}; {} benchmark{} not measured", list, out.not_measured.size(),
                                out.not_measured.size() == 1 ? "" : "s");
  }
  m.shard = std::move(info);
  return out;
}

}  // namespace benchpr
