#include "benchpr/core/results_json.hpp"

#include <cmath>

#include <fmt/format.h>

namespace benchpr {

using nlohmann::json;

namespace {

// Bounds for untrusted files: generous for real sessions, small enough to keep publish cheap.
constexpr std::size_t kMaxBytes = 256u << 20;
constexpr std::size_t kMaxSeries = 200000;
constexpr std::size_t kMaxRounds = 10000;
constexpr std::size_t kMaxString = 1u << 16;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json values_json(const std::vector<double>& v) {
  json a = json::array();
  for (double x : v) a.push_back(number_or_null(x));
  return a;
}

json config_json(const Config& c) {
  json suites = json::array();
  for (const auto& s : c.suites) {
    json j = {{"name", s.name}, {"run", s.run}, {"format", s.format}};
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
            {"comment", c.comment},
            {"filter", c.filter},
            {"bench_args", c.bench_args}};
  // Only with instruction counts, so files without them stay as they were.
  if (c.instructions) j["instructions"] = true;
  for (const auto& s : c.suites)
    if (c.counts_instructions(s)) j["instruction_threshold"] = c.instruction_threshold;
  j["budget_seconds"] = c.budget_seconds ? json(*c.budget_seconds) : json(nullptr);
  return j;
}

json analysis_json(const BenchmarkAnalysis& b) {
  json j = {{"suite", b.suite},
            {"name", b.name},
            {"unit", b.unit},
            {"better", to_string(b.better)},
            {"verdict", to_string(b.verdict)},
            {"reason", b.reason},
            {"threshold", b.threshold},
            {"rounds_used", b.rounds_used},
            {"base", number_or_null(b.base_value)},
            {"head", number_or_null(b.head_value)},
            {"change", number_or_null(b.change)},
            {"ci", json::array({number_or_null(b.ci_low), number_or_null(b.ci_high)})},
            {"p", number_or_null(b.p)},
            {"p_adjusted", number_or_null(b.p_adjusted)},
            {"position_effect", number_or_null(b.position_effect)},
            {"mde", number_or_null(b.mde)},
            {"rounds_needed", b.rounds_needed ? json(*b.rounds_needed) : json(nullptr)},
            {"dropped_round", b.dropped_round ? json(*b.dropped_round) : json(nullptr)},
            {"flags", b.flags},
            {"worse_rounds", b.worse_rounds},
            {"better_rounds", b.better_rounds},
            {"round_changes", values_json(b.round_changes)}};
  if (b.failure != FailureKind::None) j["failure_kind"] = to_string(b.failure);
  return j;
}

// --- reading -------------------------------------------------------------------------------

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ResultsFormatError(fmt::format("results file: {}: {}", where, what));
}

const json& field(const json& obj, const char* key, const std::string& where) {
  if (!obj.is_object()) fail(where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end()) fail(where + "." + key, "missing");
  return *it;
}

std::string get_string(const json& obj, const char* key, const std::string& where,
                       bool required = true) {
  if (!obj.is_object()) fail(where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    if (required) fail(where + "." + key, "missing");
    return {};
  }
  if (!it->is_string()) fail(where + "." + key, "expected a string");
  std::string s = it->get<std::string>();
  if (s.size() > kMaxString) fail(where + "." + key, "string too long");
  return s;
}

double get_number(const json& obj, const char* key, const std::string& where, double fallback) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_number()) fail(where + "." + key, "expected a number");
  return it->get<double>();
}

long long get_int(const json& obj, const char* key, const std::string& where, long long lo,
                  long long hi, long long fallback) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_number_integer() && !it->is_number_unsigned())
    fail(where + "." + key, "expected an integer");
  long long v = it->is_number_unsigned() ? static_cast<long long>(std::min<unsigned long long>(
                                               it->get<unsigned long long>(), 1ull << 62))
                                         : it->get<long long>();
  if (v < lo || v > hi) fail(where + "." + key, fmt::format("out of range [{}, {}]", lo, hi));
  return v;
}

// A failure's kind; written only beside a failure, so files from before kinds were recorded
// (and kinds this version does not know) read as Other when there is a failure.
FailureKind get_failure_kind(const json& obj, const char* key, const std::string& where,
                             bool failed) {
  const std::string s = get_string(obj, key, where, false);
  if (!failed) return FailureKind::None;
  return failure_kind_from_string(s).value_or(FailureKind::Other);
}

bool get_bool(const json& obj, const char* key, const std::string& where, bool fallback) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_boolean()) fail(where + "." + key, "expected true or false");
  return it->get<bool>();
}

Side get_side(const json& obj, const char* key, const std::string& where) {
  std::string s = get_string(obj, key, where);
  if (s == "base") return Side::Base;
  if (s == "head") return Side::Head;
  fail(where + "." + key, "expected \"base\" or \"head\"");
}

std::vector<double> get_values(const json& obj, const char* key, const std::string& where) {
  const json& a = field(obj, key, where);
  if (!a.is_array()) fail(where + "." + key, "expected an array");
  if (a.size() > kMaxRounds) fail(where + "." + key, "too many rounds");
  std::vector<double> out;
  out.reserve(a.size());
  for (const json& v : a) {
    if (v.is_null()) {
      out.push_back(kMissing);
    } else if (v.is_number()) {
      double x = v.get<double>();
      out.push_back(std::isfinite(x) && x > 0 ? x : kMissing);
    } else {
      fail(where + "." + key, "expected numbers or null");
    }
  }
  return out;
}

const json& get_array(const json& obj, const char* key, const std::string& where, std::size_t max) {
  const json& a = field(obj, key, where);
  if (!a.is_array()) fail(where + "." + key, "expected an array");
  if (a.size() > max) fail(where + "." + key, "too many entries");
  return a;
}

RevisionInfo read_revision(const json& j, const std::string& where) {
  RevisionInfo r{get_string(j, "spec", where, false), get_string(j, "sha", where),
                 get_string(j, "subject", where, false)};
  r.merge_base = get_bool(j, "merge_base", where, false);
  if (r.sha.size() != 40 || r.sha.find_first_not_of("0123456789abcdef") != std::string::npos)
    fail(where + ".sha", "expected a full 40-hex commit SHA");
  return r;
}

double read_threshold(const json& j, const std::string& where) {
  const double t = get_number(j, "threshold", where, 0);
  if (!(t > 0 && t < 1)) fail(where + ".threshold", "expected a fraction in (0, 1)");
  return t;
}

Config read_config(const json& j) {
  const std::string w = "config";
  Config c;
  c.build = get_string(j, "build", w, false);
  c.build_timeout_seconds = get_number(j, "build_timeout_seconds", w, c.build_timeout_seconds);
  c.rounds = static_cast<int>(get_int(j, "rounds", w, 1, 10000, c.rounds));
  c.warmup_rounds = static_cast<int>(get_int(j, "warmup_rounds", w, 0, 1000, c.warmup_rounds));
  c.threshold = get_number(j, "threshold", w, c.threshold);
  if (!(c.threshold > 0 && c.threshold < 1))
    fail(w + ".threshold", "expected a fraction in (0, 1)");
  c.timeout_seconds = get_number(j, "timeout_seconds", w, c.timeout_seconds);
  c.repetitions = static_cast<int>(get_int(j, "repetitions", w, 1, 1000, c.repetitions));
  c.instruction_threshold = get_number(j, "instruction_threshold", w, c.instruction_threshold);
  if (!(c.instruction_threshold > 0 && c.instruction_threshold < 1))
    fail(w + ".instruction_threshold", "expected a fraction in (0, 1)");
  c.instructions = get_bool(j, "instructions", w, false);
  c.filter = get_string(j, "filter", w, false);
  c.bench_args = get_string(j, "bench_args", w, false);
  if (auto it = j.find("scrub_env"); it != j.end() && it->is_array()) {
    for (const json& v : *it)
      if (v.is_string() && c.scrub_env.size() < 1000 &&
          v.get_ref<const std::string&>().size() < 256)
        c.scrub_env.push_back(v.get<std::string>());
  }
  if (auto it = j.find("budget_seconds"); it != j.end() && !it->is_null())
    c.budget_seconds = get_number(j, "budget_seconds", w, 0);
  if (j.contains("comment")) {
    c.comment = get_string(j, "comment", w, false);
    if (c.comment != "always" && c.comment != "on-change" && c.comment != "never")
      fail(w + ".comment", "expected always, on-change or never");
  }
  if (j.contains("suites")) {
    const json& suites = get_array(j, "suites", w, 1000);
    for (std::size_t i = 0; i < suites.size(); ++i) {
      const std::string sw = fmt::format("config.suites[{}]", i);
      SuiteConfig s;
      s.name = get_string(suites[i], "name", sw);
      s.run = get_string(suites[i], "run", sw, false);
      s.format = get_string(suites[i], "format", sw, false);
      if (s.format.empty()) s.format = "google-benchmark";
      s.metric = get_string(suites[i], "metric", sw, false);
      if (suites[i].contains("timeout_seconds"))
        s.timeout_seconds = get_number(suites[i], "timeout_seconds", sw, 0);
      if (auto b = get_string(suites[i], "better", sw, false); !b.empty())
        s.better = better_from_string(b);
      s.instructions = get_bool(suites[i], "instructions", sw, false);
      if (suites[i].contains("threshold")) s.threshold = read_threshold(suites[i], sw);
      if (suites[i].contains("benchmarks")) {
        const json& rules = get_array(suites[i], "benchmarks", sw, 1000);
        for (std::size_t k = 0; k < rules.size(); ++k) {
          const std::string rw = fmt::format("{}.benchmarks[{}]", sw, k);
          BenchmarkRule rule;
          rule.match = get_string(rules[k], "match", rw);
          if (rules[k].contains("threshold")) rule.threshold = read_threshold(rules[k], rw);
          if (auto b = get_string(rules[k], "better", rw, false); !b.empty())
            rule.better = better_from_string(b);
          s.benchmarks.push_back(std::move(rule));
        }
      }
      c.suites.push_back(std::move(s));
    }
  }
  return c;
}

}  // namespace

json results_to_json(const Results& r, const Analysis* analysis) {
  json j;
  j["schema_version"] = r.schema_version;
  j["tool"] = {{"name", "benchpr"}, {"version", r.tool_version}};
  auto rev = [](const RevisionInfo& x) {
    json j = {{"spec", x.spec}, {"sha", x.sha}, {"subject", x.subject}};
    if (x.merge_base) j["merge_base"] = true;
    return j;
  };
  j["base"] = rev(r.base);
  j["head"] = rev(r.head);
  j["config"] = config_json(r.config);
  j["machine"] = {{"cpu", r.machine.cpu},
                  {"cores", r.machine.cores},
                  {"kernel", r.machine.kernel},
                  {"compiler", r.machine.compiler}};
  if (r.pull_request) {
    const auto& pr = *r.pull_request;
    j["pull_request"] = {{"number", pr.number}, {"repo", pr.repo}, {"title", pr.title},
                         {"labels", pr.labels}, {"url", pr.url},   {"head_sha", pr.head_sha}};
  } else {
    j["pull_request"] = nullptr;
  }
  j["config_changed_by_head"] = r.config_changed_by_head;
  j["seed"] = r.seed;
  json plan = json::array();
  for (const auto& p : r.plan)
    plan.push_back({{"round", p.index},
                    {"warmup", p.warmup},
                    {"first", to_string(p.first)},
                    {"order", p.first == Side::Base ? "AB" : "BA"}});
  j["plan"] = plan;
  json builds = json::array();
  for (const auto& b : r.builds) {
    builds.push_back({{"side", to_string(b.side)},
                      {"ok", b.ok},
                      {"seconds", b.seconds},
                      {"failure", b.failure},
                      {"log_tail", b.log_tail}});
    if (b.failure_kind != FailureKind::None)
      builds.back()["failure_kind"] = to_string(b.failure_kind);
  }
  j["builds"] = builds;
  json runs = json::array();
  for (const auto& x : r.runs) {
    runs.push_back({{"round", x.round},
                    {"suite", x.suite},
                    {"side", to_string(x.side)},
                    {"position", x.position},
                    {"started", x.started},
                    {"seconds", x.seconds},
                    {"cpu_seconds", number_or_null(x.cpu_seconds)},
                    {"others_cpus", number_or_null(x.others_cpus)},
                    {"leftover_processes", x.leftover_processes},
                    {"ok", x.ok},
                    {"failure", x.failure},
                    {"log_tail", x.log_tail}});
    if (x.failure_kind != FailureKind::None)
      runs.back()["failure_kind"] = to_string(x.failure_kind);
  }
  j["runs"] = runs;
  json series = json::array();
  for (const auto& s : r.series) {
    json e = {{"suite", s.suite},
              {"name", s.name},
              {"unit", s.unit},
              {"better", to_string(s.better)},
              {"base", values_json(s.base)},
              {"head", values_json(s.head)},
              {"base_failure", s.base_failure},
              {"head_failure", s.head_failure}};
    if (!s.base_failure.empty()) e["base_failure_kind"] = to_string(s.base_failure_kind);
    if (!s.head_failure.empty()) e["head_failure_kind"] = to_string(s.head_failure_kind);
    if (!s.metric.empty()) e["metric"] = s.metric;
    // The time that was not compared (the compared one is base/head already).
    if (s.metric != "real_time" && (!s.base_real.empty() || !s.head_real.empty()))
      e["real_time"] = {{"base", values_json(s.base_real)}, {"head", values_json(s.head_real)}};
    if (s.metric != "cpu_time" && (!s.base_cpu.empty() || !s.head_cpu.empty()))
      e["cpu_time"] = {{"base", values_json(s.base_cpu)}, {"head", values_json(s.head_cpu)}};
    series.push_back(std::move(e));
  }
  j["series"] = series;
  if (r.time_plan) {
    const TimePlan& t = *r.time_plan;
    j["time_plan"] = {{"budget_seconds", t.budget_seconds},
                      {"min_time_seconds", t.min_time_seconds},
                      {"repetitions", t.repetitions},
                      {"rounds", t.rounds},
                      {"round_seconds", t.round_seconds},
                      {"spent_before", t.spent_before},
                      {"fits", t.fits},
                      {"summary", t.summary}};
  }
  j["rounds_done"] = r.rounds_done;
  j["complete"] = r.complete;
  j["stop_reason"] = r.stop_reason;
  j["measuring_seconds"] = r.measuring_seconds;
  j["overhead_seconds"] = r.overhead_seconds;
  j["workflow_run_url"] = r.workflow_run_url;
  if (analysis) {
    json benchmarks = json::array();
    for (const auto& b : analysis->benchmarks) {
      benchmarks.push_back(analysis_json(b));
      if (!b.metric.empty()) benchmarks.back()["metric"] = b.metric;
    }
    j["benchmarks"] = benchmarks;
    json suites = json::array();
    for (const auto& s : analysis->suites)
      suites.push_back(
          {{"suite", s.suite},
           {"benchmarks", s.benchmarks},
           {"change", number_or_null(s.change)},
           {"ci", json::array({number_or_null(s.ci_low), number_or_null(s.ci_high)})}});
    j["suites"] = suites;
    j["analysed_rounds"] = analysis->analysed_rounds;
    j["mde"] = number_or_null(analysis->run_mde);
    j["notes"] = analysis->notes;
    j["recommendation"] = {{"verdict", to_string(analysis->recommendation.kind)},
                           {"reason", analysis->recommendation.reason}};
  }
  return j;
}

std::string results_to_string(const Results& results, const Analysis* analysis) {
  // Replacing rather than throwing: a stray byte that escaped the edges must not cost the file.
  return results_to_json(results, analysis)
             .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

Results results_from_json(const json& j) {
  Results r;
  if (!j.is_object()) fail("document", "expected a JSON object");
  r.schema_version = static_cast<int>(get_int(j, "schema_version", "document", 1, 1, 0));
  if (r.schema_version != 1)
    fail("schema_version", "missing (this file was not written by benchpr)");
  if (auto it = j.find("tool"); it != j.end() && it->is_object())
    r.tool_version = get_string(*it, "version", "tool", false);
  r.base = read_revision(field(j, "base", "document"), "base");
  r.head = read_revision(field(j, "head", "document"), "head");
  r.config = read_config(field(j, "config", "document"));
  if (auto it = j.find("machine"); it != j.end() && it->is_object()) {
    r.machine.cpu = get_string(*it, "cpu", "machine", false);
    r.machine.cores = static_cast<int>(get_int(*it, "cores", "machine", 0, 1 << 20, 0));
    r.machine.kernel = get_string(*it, "kernel", "machine", false);
    r.machine.compiler = get_string(*it, "compiler", "machine", false);
  }
  if (auto it = j.find("pull_request"); it != j.end() && it->is_object()) {
    PullRequestInfo pr;
    pr.number = static_cast<int>(get_int(*it, "number", "pull_request", 1, 1 << 30, 0));
    pr.repo = get_string(*it, "repo", "pull_request", false);
    pr.title = get_string(*it, "title", "pull_request", false);
    pr.url = get_string(*it, "url", "pull_request", false);
    pr.head_sha = get_string(*it, "head_sha", "pull_request", false);
    if (auto l = it->find("labels"); l != it->end() && l->is_array()) {
      for (const json& x : *l)
        if (x.is_string() && pr.labels.size() < 100 &&
            x.get_ref<const std::string&>().size() <= kMaxString)
          pr.labels.push_back(x.get<std::string>());
    }
    r.pull_request = pr;
  }
  r.config_changed_by_head = get_bool(j, "config_changed_by_head", "document", false);
  if (auto it = j.find("seed"); it != j.end() && it->is_number_unsigned())
    r.seed = it->get<std::uint64_t>();
  const json& plan = get_array(j, "plan", "document", kMaxRounds);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const std::string w = fmt::format("plan[{}]", i);
    RoundPlan p;
    p.index = static_cast<int>(get_int(plan[i], "round", w, 0, kMaxRounds, 0));
    if (p.index != static_cast<int>(i)) fail(w + ".round", "rounds must be numbered 0, 1, 2, ...");
    p.warmup = get_bool(plan[i], "warmup", w, false);
    p.first = get_side(plan[i], "first", w);
    r.plan.push_back(p);
  }
  if (j.contains("builds")) {
    const json& builds = get_array(j, "builds", "document", 2);
    for (std::size_t i = 0; i < builds.size(); ++i) {
      const std::string w = fmt::format("builds[{}]", i);
      BuildResult b;
      b.side = get_side(builds[i], "side", w);
      b.ok = get_bool(builds[i], "ok", w, true);
      b.seconds = get_number(builds[i], "seconds", w, 0);
      b.failure = get_string(builds[i], "failure", w, false);
      b.failure_kind = get_failure_kind(builds[i], "failure_kind", w, !b.ok);
      b.log_tail = get_string(builds[i], "log_tail", w, false);
      r.builds.push_back(std::move(b));
    }
  }
  if (j.contains("runs")) {
    const json& runs = get_array(j, "runs", "document", kMaxRounds * 200);
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::string w = fmt::format("runs[{}]", i);
      RunRecord x;
      x.round = static_cast<int>(get_int(runs[i], "round", w, 0, kMaxRounds, 0));
      x.suite = get_string(runs[i], "suite", w);
      x.side = get_side(runs[i], "side", w);
      x.position = static_cast<int>(get_int(runs[i], "position", w, 0, 1, 0));
      x.started = get_number(runs[i], "started", w, 0);
      x.seconds = get_number(runs[i], "seconds", w, 0);
      x.cpu_seconds = get_number(runs[i], "cpu_seconds", w, kMissing);
      x.others_cpus = get_number(runs[i], "others_cpus", w, kMissing);
      x.leftover_processes =
          static_cast<int>(get_int(runs[i], "leftover_processes", w, 0, 1'000'000, 0));
      x.ok = get_bool(runs[i], "ok", w, true);
      x.failure = get_string(runs[i], "failure", w, false);
      x.failure_kind = get_failure_kind(runs[i], "failure_kind", w, !x.ok);
      x.log_tail = get_string(runs[i], "log_tail", w, false);
      r.runs.push_back(std::move(x));
    }
  }
  const json& series = get_array(j, "series", "document", kMaxSeries);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const std::string w = fmt::format("series[{}]", i);
    BenchmarkSeries s;
    s.suite = get_string(series[i], "suite", w);
    s.name = get_string(series[i], "name", w);
    s.unit = get_string(series[i], "unit", w, false);
    auto better = better_from_string(get_string(series[i], "better", w));
    if (!better) fail(w + ".better", "expected \"lower\" or \"higher\"");
    s.better = *better;
    s.base = get_values(series[i], "base", w);
    s.head = get_values(series[i], "head", w);
    s.base_failure = get_string(series[i], "base_failure", w, false);
    s.head_failure = get_string(series[i], "head_failure", w, false);
    s.base_failure_kind =
        get_failure_kind(series[i], "base_failure_kind", w, !s.base_failure.empty());
    s.head_failure_kind =
        get_failure_kind(series[i], "head_failure_kind", w, !s.head_failure.empty());
    s.metric = get_string(series[i], "metric", w, false);
    if (s.metric == "real_time") {
      s.base_real = s.base;
      s.head_real = s.head;
    } else if (auto t = series[i].find("real_time"); t != series[i].end() && !t->is_null()) {
      s.base_real = get_values(*t, "base", w + ".real_time");
      s.head_real = get_values(*t, "head", w + ".real_time");
    }
    if (s.metric == "cpu_time") {
      s.base_cpu = s.base;
      s.head_cpu = s.head;
    } else if (auto t = series[i].find("cpu_time"); t != series[i].end() && !t->is_null()) {
      s.base_cpu = get_values(*t, "base", w + ".cpu_time");
      s.head_cpu = get_values(*t, "head", w + ".cpu_time");
    }
    r.series.push_back(std::move(s));
  }
  r.rounds_done = static_cast<int>(
      get_int(j, "rounds_done", "document", 0, static_cast<long long>(r.plan.size()), 0));
  r.complete = get_bool(j, "complete", "document", false);
  r.stop_reason = get_string(j, "stop_reason", "document", false);
  r.measuring_seconds = get_number(j, "measuring_seconds", "document", 0);
  r.overhead_seconds = get_number(j, "overhead_seconds", "document", 0);
  r.workflow_run_url = get_string(j, "workflow_run_url", "document", false);
  if (auto it = j.find("time_plan"); it != j.end() && it->is_object()) {
    const std::string w = "time_plan";
    TimePlan t;
    t.budget_seconds = get_number(*it, "budget_seconds", w, 0);
    t.min_time_seconds = get_number(*it, "min_time_seconds", w, 0);
    t.repetitions = static_cast<int>(get_int(*it, "repetitions", w, 0, 1000, 0));
    t.rounds = static_cast<int>(get_int(*it, "rounds", w, 0, kMaxRounds, 0));
    t.round_seconds = get_number(*it, "round_seconds", w, 0);
    t.spent_before = get_number(*it, "spent_before", w, 0);
    t.fits = get_bool(*it, "fits", w, true);
    t.summary = get_string(*it, "summary", w, false);
    r.time_plan = t;
  }
  return r;
}

Results results_from_string(std::string_view text) {
  if (text.size() > kMaxBytes) fail("document", "larger than 256 MiB");
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) fail("document", "not valid JSON (truncated or corrupted?)");
  return results_from_json(j);
}

}  // namespace benchpr
