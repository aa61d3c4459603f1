// Results -> JSON text: the writer of the results file (docs/results-format.md).
#include <cmath>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include "benchpr/core/json/json_text_writer.hpp"
#include "benchpr/core/results_file/bisect_json.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/results_json_schema.hpp"

namespace benchpr {

using nlohmann::json;
using Writer = JsonTextWriter;

namespace {

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json config_json(const Config& c) {
  json suites = json::array();
  for (const auto& s : c.suites) {
    json j = {{"name", s.name}, {"run", s.run}, {"format", std::string(to_string(s.format))}};
    if (s.timeout_seconds) j["timeout_seconds"] = *s.timeout_seconds;
    if (!s.metric.empty()) j["metric"] = s.metric;
    if (s.better) j["better"] = to_string(*s.better);
    if (s.instructions) j["instructions"] = true;
    if (s.threshold) j["threshold"] = *s.threshold;
    if (!s.benchmarks.empty()) {
      json rules = json::array();
      for (const BenchmarkRule& rule : s.benchmarks) {
        json jr = {{"match", rule.match}};
        if (rule.threshold) jr["threshold"] = *rule.threshold;
        if (rule.better) jr["better"] = to_string(*rule.better);
        rules.push_back(std::move(jr));
      }
      j["benchmarks"] = std::move(rules);
    }
    suites.push_back(std::move(j));
  }
  json j = {{"build", c.build},
            {"build_timeout_seconds", c.build_timeout_seconds},
            {"suites", suites},
            {"rounds", c.rounds},
            {"warmup_rounds", c.warmup_rounds},
            {"threshold", c.threshold},
            {"timeout_seconds", c.timeout_seconds},
            {"repetitions", c.repetitions},
            {"scrub_env", c.scrub_env},
            {"comment", std::string(to_string(c.comment))},
            {"filter", c.filter},
            {"bench_args", c.bench_args}};
  // Only with instruction counts, so files without them stay as they were.
  if (c.instructions == InstructionCounting::On) j["instructions"] = true;
  if (c.instructions == InstructionCounting::ByDefault) j["instructions_by_default"] = true;
  for (const auto& s : c.suites)
    if (c.counts_instructions(s)) j["instruction_threshold"] = c.instruction_threshold;
  j["budget_seconds"] = c.budget_seconds ? json(*c.budget_seconds) : json(nullptr);
  if (c.bisect != BisectMode::Off) j["bisect"] = std::string(to_string(c.bisect));
  // Only when turned off: files of counts with the estimate (the default) stay as they were.
  if (!c.cycle_estimate) j["cycle_estimate"] = false;
  if (!c.placement_control) j["placement_control"] = false;
  return j;
}

void write_series(Writer& w, const BenchmarkSeries& s) {
  w.raw("{");
  w.string("suite", s.suite, true);
  w.string("name", s.name);
  w.string("unit", s.unit);
  w.string("better", to_string(s.better));
  if (!s.metric.empty()) {
    w.string("metric", s.metric);
  }
  w.values("base", s.base);
  w.values("head", s.head);
  if (!s.base_failure.empty()) {
    w.string("base_failure", s.base_failure);
    w.string("base_failure_kind", to_string(s.base_failure_kind));
  }
  if (!s.head_failure.empty()) {
    w.string("head_failure", s.head_failure);
    w.string("head_failure_kind", to_string(s.head_failure_kind));
  }
  // The time that was not compared (the compared one is base/head already).
  if (s.metric != "real_time" && (!s.base_real.empty() || !s.head_real.empty())) {
    w.base_and_head("real_time", s.base_real, s.head_real);
  }
  if (s.metric != "cpu_time" && (!s.base_cpu.empty() || !s.head_cpu.empty())) {
    w.base_and_head("cpu_time", s.base_cpu, s.head_cpu);
  }
  if (!s.base_least.empty() || !s.head_least.empty()) {
    w.base_and_head("least", s.base_least, s.head_least);
  }
  // Callgrind's cache events per iteration beside an instruction count, each as base and head.
  if (!s.base_events.empty() || !s.head_events.empty()) {
    std::set<std::string> names;
    for (const auto& [name, v] : s.base_events) names.insert(name);
    for (const auto& [name, v] : s.head_events) names.insert(name);
    const auto side = [](const auto& events, const std::string& name) {
      const auto it = events.find(name);
      return it == events.end() ? std::vector<double>() : it->second;
    };
    w.field("events");
    w.raw("{");
    bool first = true;
    for (const std::string& name : names) {
      if (!first) w.raw(",");
      first = false;
      w.unlimited_string(name);
      w.raw(":{\"base\":");
      w.values(side(s.base_events, name));
      w.raw(",\"head\":");
      w.values(side(s.head_events, name));
      w.raw("}");
    }
    w.raw("}");
  }
  w.raw("}");
}

// The per-round changes are not written: they are the series' own ratios.
void write_benchmark(Writer& w, const BenchmarkAnalysis& b) {
  w.raw("{");
  w.string("suite", b.suite, true);
  w.string("name", b.name);
  w.string("unit", b.unit);
  w.string("better", to_string(b.better));
  if (!b.metric.empty()) {
    w.string("metric", b.metric);
  }
  w.string("verdict", to_string(b.verdict));
  w.string("reason", b.reason);
  w.statistic("threshold", b.threshold);
  w.integer("rounds_used", b.rounds_used);
  w.statistic("base", b.base_value);
  w.statistic("head", b.head_value);
  w.statistic("change", b.change);
  w.field("ci");
  w.raw("[");
  w.statistic(b.ci_low);
  w.raw(",");
  w.statistic(b.ci_high);
  w.raw("]");
  w.statistic("p", b.p);
  w.statistic("p_adjusted", b.p_adjusted);
  w.statistic("position_effect", b.position_effect);
  w.statistic("mde", b.mde);
  w.integer("rounds_needed", b.rounds_needed);
  w.integer("dropped_round", b.dropped_round);
  w.field("flags");
  w.dom(json(flag_names(b.flags)));
  w.integer("worse_rounds", b.worse_rounds);
  w.integer("better_rounds", b.better_rounds);
  if (b.failure != FailureKind::None) {
    w.string("failure_kind", to_string(b.failure));
  }
  // What the counts and the hot code made of its time (core/evidence/placement.hpp).
  if (b.code_reading != CodeReading::None) {
    w.string("code_reading", to_string(b.code_reading));
    w.string("time_verdict", to_string(b.time_verdict));
  }
  // An instruction count's estimated cycles per iteration (core/evidence/cycle_estimate.hpp).
  if (std::isfinite(b.cycles_base) || std::isfinite(b.cycles_head)) {
    w.statistic("cycles_base", b.cycles_base);
    w.statistic("cycles_head", b.cycles_head);
    w.field("cycles_moved");
    w.raw(b.cycles_moved ? "true" : "false");
  }
  w.raw("}");
}

// How a build or a run ended (the kind only beside a failure). The keys are written sorted, so
// the order they are added in does not show in the file.
template <class Record>
void add_outcome(json& j, const Record& x) {
  j["ok"] = x.ok;
  j["failure"] = x.failure;
  j["log_tail"] = x.log_tail;
  if (x.failure_kind != FailureKind::None) j["failure_kind"] = to_string(x.failure_kind);
}

json machine_json(const MachineInfo& m) {
  return {{"cpu", m.cpu}, {"cores", m.cores}, {"kernel", m.kernel}, {"compiler", m.compiler}};
}

json shard_json(const ShardInfo& s) {
  json j = {{"index", s.index}, {"count", s.count}, {"balance", s.balance}};
  json shards = json::array();
  for (const ShardRecord& x : s.shards)
    shards.push_back({{"index", x.index},
                      {"file", x.file},
                      {"machine", machine_json(x.machine)},
                      {"measuring_seconds", x.measuring_seconds},
                      {"complete", x.complete},
                      {"status", x.status},
                      {"benchmarks", x.benchmarks},
                      {"workflow_run_url", x.workflow_run_url}});
  j["shards"] = shards;
  return j;
}

json profile_json(const FunctionProfile& p) {
  json functions = json::array();
  for (const ProfiledFunction& f : p.functions)
    functions.push_back(json::array({f.name, f.self, f.inclusive}));
  json calls = json::array();
  for (const ProfiledCall& c : p.calls)
    calls.push_back(json::array({c.caller, c.callee, c.inclusive}));
  return {{"total", p.total}, {"functions", functions}, {"calls", calls}};
}

json benchmark_profile_json(const BenchmarkProfile& b) {
  json j = {{"suite", b.suite},
            {"name", b.name},
            {"requested_by", b.requested_by},
            {"seconds", b.seconds}};
  if (!b.skipped.empty()) j["skipped"] = b.skipped;
  if (b.from_counts) j["from_counts"] = true;
  if (b.base) j["base"] = profile_json(*b.base);
  if (b.head) j["head"] = profile_json(*b.head);
  return j;
}

json code_evidence_json(const CodeEvidence& e) {
  json functions = json::array();
  for (const HotFunction& f : e.functions) {
    json j = {{"name", f.name},
              {"share", f.share},
              {"base_address", f.base_address},
              {"head_address", f.head_address},
              {"base_size", f.base_size},
              {"head_size", f.head_size},
              {"identical", f.identical}};
    if (f.outside) j["outside"] = true;
    if (f.executed_same) j["executed_same"] = true;
    functions.push_back(std::move(j));
  }
  json j = {{"suite", e.suite}, {"name", e.name}, {"covered", e.covered}};
  if (!e.missing.empty()) j["missing"] = e.missing;
  if (!e.unrun_changed.empty()) j["unrun_changed"] = e.unrun_changed;
  j["functions"] = std::move(functions);
  return j;
}

json revision_json(const RevisionInfo& x) {
  json j = {{"spec", x.spec}, {"sha", x.sha}, {"subject", x.subject}};
  if (x.merge_base) j["merge_base"] = true;
  return j;
}

// What was compared, with what and where: the file's version, the tool, the origin, the two
// revisions, the configuration, the machine, the pull request and the seed.
void write_comparison(Writer& w, const Results& r) {
  w.top("schema_version");
  fmt::format_to(std::back_inserter(w.out), "{}", results_schema::kSchemaVersion);
  w.top("tool");
  w.dom({{"name", "benchpr"}, {"version", r.tool_version}});
  if (r.origin != Origin::Revisions) {  // absent: two revisions, as in every older file
    w.top("origin");
    w.string(to_string(r.origin));
  }
  w.top("base");
  w.dom(revision_json(r.base));
  w.top("head");
  w.dom(revision_json(r.head));
  w.top("config");
  w.dom(config_json(r.config));
  w.top("machine");
  w.dom(machine_json(r.machine));
  w.top("pull_request");
  if (r.pull_request) {
    const auto& pr = *r.pull_request;
    w.dom({{"number", pr.number},
           {"repo", pr.repo},
           {"title", pr.title},
           {"labels", pr.labels},
           {"url", pr.url},
           {"head_sha", pr.head_sha}});
  } else {
    w.raw("null");
  }
  w.top("config_changed_by_head");
  w.raw(r.config_changed_by_head ? "true" : "false");
  w.top("seed");
  fmt::format_to(std::back_inserter(w.out), "{}", r.seed);
}

// A shard's place among the others and the benchmarks each shard was given.
void write_shard(Writer& w, const ShardInfo& shard) {
  w.top("shard");
  w.dom(shard_json(shard));
  w.top("partition");
  w.lines(shard.partition, [&w](const ShardUnit& u) {
    w.dom({{"suite", u.suite}, {"name", u.name}, {"shard", u.shard}});
  });
}

// What was measured: the plan of rounds, the builds, every process run, and the series (a line
// each: a results file may hold 100,000 of them).
void write_measurements(Writer& w, const Results& r) {
  w.top("plan");
  w.lines(r.plan, [&w](const RoundPlan& p) {
    w.dom({{"round", p.index},
           {"warmup", p.warmup},
           {"first", to_string(p.first)},
           {"order", p.first == Side::Base ? "AB" : "BA"}});
  });
  w.top("builds");
  w.lines(r.builds, [&w](const BuildResult& b) {
    json j = {{"side", to_string(b.side)}, {"seconds", b.seconds}};
    add_outcome(j, b);
    w.dom(j);
  });
  w.top("runs");
  w.lines(r.runs, [&w](const RunRecord& x) {
    json j = {{"round", x.round},
              {"suite", x.suite},
              {"side", to_string(x.side)},
              {"position", x.position},
              {"started", x.started},
              {"seconds", x.seconds},
              {"cpu_seconds", number_or_null(x.cpu_seconds)},
              {"others_cpus", number_or_null(x.others_cpus)},
              {"leftover_processes", x.leftover_processes}};
    add_outcome(j, x);
    w.dom(j);
  });
  w.top("series");
  w.lines(r.series, [&w](const BenchmarkSeries& s) { write_series(w, s); });
}

// How the rounds were sized: the time plan and the adaptive looks, when there were any.
void write_round_design(Writer& w, const Results& r) {
  if (r.time_plan) {
    const TimePlan& t = *r.time_plan;
    w.top("time_plan");
    w.dom({{"budget_seconds", t.budget_seconds},
           {"min_time_seconds", t.min_time_seconds},
           {"repetitions", t.repetitions},
           {"rounds", t.rounds},
           {"round_seconds", t.round_seconds},
           {"spent_before", t.spent_before},
           {"fits", t.fits},
           {"summary", t.summary}});
  }
  if (!r.looks.empty()) {
    w.top("looks");
    w.lines(r.looks, [&w](const LookRecord& l) {
      json look = {{"rounds", l.rounds},
                   {"information", l.information},
                   {"alpha", l.alpha},
                   {"equivalence_alpha", l.equivalence_alpha}};
      // One-stage sessions (and files written before there were two) leave it out.
      if (l.horizon_share < 1) look["horizon_share"] = l.horizon_share;
      if (l.keeps_size_open) look["keeps_size_open"] = true;
      w.dom(look);
    });
  }
}

// What was learnt of the programs besides their times: profiles, the executables' digests, the
// suites that needed no rounds and the hot code compared; each left out when there is none.
void write_program_evidence(Writer& w, const Results& r) {
  if (!r.profiles.empty()) {
    w.top("profiles");
    w.lines(r.profiles, [&w](const BenchmarkProfile& b) { w.dom(benchmark_profile_json(b)); });
  }
  if (!r.executables.empty()) {
    w.top("executables");
    w.lines(r.executables, [&w](const ExecutableDigest& x) {
      w.dom({{"suite", x.suite},
             {"side", to_string(x.side)},
             {"path", x.path},
             {"sha256", x.sha256}});
    });
  }
  if (!r.identical_suites.empty()) {
    w.top("identical_suites");
    w.dom(r.identical_suites);
  }
  if (!r.placement_shifts.empty()) {
    w.top("placement_shifts");
    w.dom(json(r.placement_shifts));
  }
  if (!r.hot_code.empty()) {
    w.top("hot_code");
    w.lines(r.hot_code, [&w](const CodeEvidence& e) { w.dom(code_evidence_json(e)); });
  }
}

// How far the comparison got and why it stopped, what it cost, and the commit search after it.
void write_outcome(Writer& w, const Results& r) {
  if (r.resumed_rounds > 0) {
    w.top("resumed_rounds");
    fmt::format_to(std::back_inserter(w.out), "{}", r.resumed_rounds);
  }
  w.top("rounds_done");
  fmt::format_to(std::back_inserter(w.out), "{}", r.rounds_done);
  w.top("complete");
  w.raw(r.complete ? "true" : "false");
  w.top("stop_reason");
  w.string(describe(r.stop));
  // The reason as data, for the readers that decide on it; the sentence above is for people
  // and for readers older than the kind.
  w.top("stop");
  w.dom({{"kind", std::string(kStopKindNames.name(r.stop.kind))},
         {"count", r.stop.count},
         {"detail", r.stop.detail}});
  w.top("measuring_seconds");
  w.number(r.measuring_seconds);
  w.top("overhead_seconds");
  w.number(r.overhead_seconds);
  w.top("counting_seconds");
  w.number(r.counting_seconds);
  if (r.counting_share_seconds > 0) {
    w.top("counting_share_seconds");
    w.number(r.counting_share_seconds);
  }
  w.top("workflow_run_url");
  w.string(r.workflow_run_url);
  if (r.bisect) {
    w.top("bisect");
    w.dom(bisection_to_json(*r.bisect));
  }
}

// The analysis as the file keeps it: read by people and other tools, never read back (the
// analysis is made again from the measurements).
void write_analysis(Writer& w, const Analysis& analysis) {
  w.top("benchmarks");
  w.lines(analysis.benchmarks, [&w](const BenchmarkAnalysis& b) { write_benchmark(w, b); });
  w.top("suites");
  w.lines(analysis.suites, [&w](const SuiteSummary& s) {
    w.dom({{"suite", s.suite},
           {"benchmarks", s.benchmarks},
           {"change", number_or_null(s.change)},
           {"ci", json::array({number_or_null(s.ci_low), number_or_null(s.ci_high)})}});
  });
  w.top("analysed_rounds");
  fmt::format_to(std::back_inserter(w.out), "{}", analysis.analysed_rounds);
  w.top("mde");
  w.number(analysis.run_mde);
  w.top("notes");
  w.dom(json(plain_texts(analysis.notes)));
  w.top("recommendation");
  w.dom({{"verdict", to_string(analysis.recommendation.kind)},
         {"reason", analysis.recommendation.reason}});
}

// The whole file, part by part, its keys in the order they have always been written in.
void write_document(Writer& w, const Results& r, const Analysis* analysis) {
  w.raw("{");
  write_comparison(w, r);
  if (r.shard) write_shard(w, *r.shard);
  write_measurements(w, r);
  write_round_design(w, r);
  write_program_evidence(w, r);
  write_outcome(w, r);
  if (analysis) write_analysis(w, *analysis);
  w.raw("\n}\n");
}

}  // namespace

void write_results(std::string& out, const Results& results, const Analysis* analysis) {
  out.clear();
  out.reserve(4096 + results.series.size() * 64 * (results.plan.size() + 4));
  Writer w(out);
  // Every string under the readers' limit (results_json_schema.hpp): a commit subject of 1 MB
  // must not make the file unreadable to `publish`.
  w.max_string = results_schema::kMaxString;
  write_document(w, results, analysis);
}

std::string results_to_string(const Results& results, const Analysis* analysis) {
  std::string out;
  write_results(out, results, analysis);
  return out;
}

json config_to_json(const Config& config) { return config_json(config); }

}  // namespace benchpr
