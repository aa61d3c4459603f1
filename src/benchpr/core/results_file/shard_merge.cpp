#include "benchpr/core/results_file/shard_merge.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/base/series_key.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/results_file/results_json.hpp"

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
  if (!r.complete) return r.stop.empty() ? "stopped early" : describe(r.stop);
  return std::nullopt;
}

using SeriesName = std::pair<std::string, std::string>;  // suite, name

// Every file a shard of one comparison, none twice; sorted by shard index.
void check_shard_files(std::vector<ShardFile>& files) {
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
}

// Which shard the partition gives each benchmark (a whole suite of another format: name "");
// a benchmark's instruction counts belong to the same shard as its time.
class Owners {
 public:
  explicit Owners(const std::vector<ShardUnit>& partition) {
    for (const ShardUnit& u : partition) {
      owner_.try_emplace({u.suite, u.name}, u.shard);
      owner_.try_emplace({instruction_suite_name(u.suite), u.name}, u.shard);
    }
  }
  // 0 where the partition does not name it.
  int of(const BenchmarkSeries& s) const {
    auto it = owner_.find({s.suite, s.name});
    if (it == owner_.end()) it = owner_.find({s.suite, ""});
    return it == owner_.end() ? 0 : it->second;
  }

 private:
  std::map<SeriesName, int> owner_;
};

// Joins the shards one at a time into `out`, keeping what the later steps need: why each shard
// that did not measure its share did not, and which shard measured each benchmark.
class ShardMerger {
 public:
  ShardMerger(MergeOutcome& out, ShardInfo& info)
      : out_(out), m_(out.merged), info_(info), owners_(info.partition) {}

  void add_missing(int k) {
    ShardRecord rec;
    rec.index = k;
    rec.status = "missing";
    problems_[k] = fmt::format("shard {} of {} is missing", k, info_.count);
    out_.missing.push_back(k);
    info_.shards.push_back(rec);
  }

  void add(int k, const ShardFile& f) {
    const Results& r = f.results;
    ShardRecord rec;
    rec.index = k;
    rec.file = f.path;
    rec.machine = r.machine;
    rec.measuring_seconds = r.measuring_seconds;
    rec.workflow_run_url = r.workflow_run_url;
    const std::optional<std::string> problem = shard_problem(r);
    rec.complete = !problem;
    rec.status = problem ? *problem : describe(r.stop);
    if (problem) {
      problems_[k] = fmt::format("shard {} of {} {}", k, info_.count,
                                 r.complete ? "failed: " + *problem : "stopped: " + *problem);
      out_.warnings.push_back(
          fmt::format("{} (shard {} of {}): {}", f.path, k, info_.count, *problem));
    }
    add_builds(k, r.builds);
    add_runs_and_rounds(r);
    for (const BenchmarkSeries& s : r.series) add_series(k, f.path, s);
    rec.benchmarks = static_cast<int>(std::count_if(
        r.series.begin(), r.series.end(),
        [](const BenchmarkSeries& s) { return has_values(s.base) || has_values(s.head); }));
    info_.shards.push_back(rec);
  }

  // What a missing or failed shard should have measured and nobody did: a row each, failed
  // with the reason, so the comment lists them instead of comparing fewer benchmarks silently.
  void mark_unmeasured_shares() {
    std::set<std::string> suites_seen;
    for (const BenchmarkSeries& s : m_.series) suites_seen.insert(s.suite);
    for (const ShardUnit& u : info_.partition) {
      const auto p = problems_.find(u.shard);
      if (p == problems_.end()) continue;
      if (u.name.empty()) {  // a whole suite of another format
        if (!suites_seen.count(u.suite))
          mark_not_measured(u.suite, "(suite " + u.suite + ")", p->second);
        continue;
      }
      // A benchmark's time and, when its suite counts them, its instructions: both were the
      // missing shard's to measure.
      const SuiteConfig* suite = m_.config.find_suite(u.suite);
      if (!suite || Config::measures_time(*suite)) mark_not_measured(u.suite, u.name, p->second);
      if (suite && m_.config.counts_instructions(*suite))
        mark_not_measured(instruction_suite_name(u.suite), u.name, p->second);
    }
  }

  // Each side's build as the shards report it together.
  void keep_builds() { m_.builds = {builds_[0], builds_[1]}; }

  // "2 shards merged, all complete", or what each shard that was not lacked.
  void state_completeness() {
    m_.complete = problems_.empty();
    if (m_.complete) {
      m_.stop = {StopKind::ShardsMerged, info_.count, {}};
      return;
    }
    std::string list;
    for (const auto& [k, why] : problems_)
      list += (k == problems_.begin()->first ? "" : "; ") + why;
    m_.stop = {StopKind::ShardsMissing, 0,
               fmt::format("{}; {} benchmark{} not measured", list, out_.not_measured.size(),
                           out_.not_measured.size() == 1 ? "" : "s")};
  }

 private:
  // The slower build of each side; the first failure, naming its shard.
  void add_builds(int k, const std::vector<BuildResult>& shard_builds) {
    for (const BuildResult& b : shard_builds) {
      BuildResult& into = builds_[b.side == Side::Base ? 0 : 1];
      into.seconds = std::max(into.seconds, b.seconds);
      if (!b.ok && into.ok) {
        into.ok = false;
        into.failure = fmt::format("shard {}: {}", k, b.failure);
        into.log_tail = b.log_tail;
      }
    }
  }

  // Every run and profile; the longest plan and time of any shard.
  void add_runs_and_rounds(const Results& r) {
    for (const RunRecord& run : r.runs) m_.runs.push_back(run);
    // Each shard profiled the changes of its own share.
    for (const BenchmarkProfile& p : r.profiles) m_.profiles.push_back(p);
    // Every shard builds the same revisions: a suite one found identical is (each shard decides
    // it before measuring its own share of the suite).
    for (const std::string& suite : r.identical_suites)
      if (std::find(m_.identical_suites.begin(), m_.identical_suites.end(), suite) ==
          m_.identical_suites.end())
        m_.identical_suites.push_back(suite);
    for (const CodeEvidence& e : r.hot_code) m_.hot_code.push_back(e);
    // Every shard relinks the same programs; one that could not keeps whole cycles all the same.
    if (r.placement_shifts.size() > m_.placement_shifts.size())
      m_.placement_shifts = r.placement_shifts;
    if (r.plan.size() > m_.plan.size()) m_.plan = r.plan;
    m_.config.rounds = std::max(m_.config.rounds, r.config.rounds);
    m_.rounds_done = std::max(m_.rounds_done, r.rounds_done);
    m_.measuring_seconds = std::max(m_.measuring_seconds, r.measuring_seconds);
    m_.overhead_seconds = std::max(m_.overhead_seconds, r.overhead_seconds);
    m_.counting_seconds = std::max(m_.counting_seconds, r.counting_seconds);
    m_.counting_share_seconds = std::max(m_.counting_share_seconds, r.counting_share_seconds);
  }

  void add_series(int k, const std::string& path, const BenchmarkSeries& s) {
    const SeriesName key{s.suite, s.name};
    const bool measured = has_values(s.base) || has_values(s.head);
    // A shard measures only its share: values for another shard's benchmark would stand in
    // for that shard's (or, with that shard missing, for nothing at all).
    if (const int shard = owners_.of(s); measured && shard != 0 && shard != k)
      fail(fmt::format(
          "{}: benchmark {} has values, but the partition gives it to shard {}, not {}: a "
          "shard's file holds only its own share (a file from another comparison, or edited)",
          path, qualified_name(s.suite, s.name), shard, k));
    if (auto at = seen_.find(key); at != seen_.end()) {
      // The same benchmark from two shards: only a failure row (a suite that failed on both)
      // may repeat; two measured series mean the shards did not split the same way.
      BenchmarkSeries& kept = m_.series[at->second];
      if (measured && (has_values(kept.base) || has_values(kept.head)))
        fail(
            fmt::format("{}: benchmark {} was also measured by shard {}: the shards did not "
                        "split the benchmarks the same way",
                        path, qualified_name(s.suite, s.name), measured_by_[key]));
      if (measured) kept = s;
      return;
    }
    seen_[key] = m_.series.size();
    if (measured) measured_by_[key] = k;
    m_.series.push_back(s);
  }

  void mark_not_measured(const std::string& suite, const std::string& name,
                         const std::string& why) {
    const SeriesName key{suite, name};
    if (measured_by_.count(key) > 0) return;
    if (seen_.count(key)) {
      BenchmarkSeries& s = m_.series[seen_[key]];
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
      seen_[key] = m_.series.size();
      m_.series.push_back(std::move(s));
    }
    out_.not_measured.push_back(qualified_name(suite, name));
  }

  MergeOutcome& out_;
  Results& m_;
  ShardInfo& info_;
  const Owners owners_;
  std::map<int, std::string> problems_;  // shard -> why its unmeasured benchmarks are missing
  BuildResult builds_[2] = {{Side::Base, true, 0, "", ""}, {Side::Head, true, 0, "", ""}};
  std::map<SeriesName, std::size_t> seen_;  // series -> index in m_.series
  std::map<SeriesName, int> measured_by_;
};

}  // namespace

MergeOutcome merge_shards(std::vector<ShardFile> files) {
  check_shard_files(files);
  const Results& first = files[0].results;
  MergeOutcome out;
  out.merged = same_comparison(first);  // what check_same found alike
  ShardInfo info;
  info.index = 0;
  info.count = first.shard->count;
  info.balance = first.shard->balance;
  info.partition = first.shard->partition;

  std::map<int, const ShardFile*> by_index;
  for (const ShardFile& f : files) by_index[f.results.shard->index] = &f;
  ShardMerger merger(out, info);
  for (int k = 1; k <= info.count; ++k) {
    const auto it = by_index.find(k);
    if (it == by_index.end())
      merger.add_missing(k);
    else
      merger.add(k, *it->second);
  }
  merger.keep_builds();
  merger.mark_unmeasured_shares();
  merger.state_completeness();
  out.merged.shard = std::move(info);
  return out;
}

}  // namespace benchpr
