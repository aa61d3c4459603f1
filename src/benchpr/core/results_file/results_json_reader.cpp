// JSON DOM -> Results: the checked reading of every field of a results file but the series
// (results_json_scan.cpp reads those from the text), and results_from_json for a whole DOM.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/core/plan/shard_plan.hpp"
#include "benchpr/core/results_file/bisect_json.hpp"
#include "benchpr/core/results_file/results_json.hpp"
#include "benchpr/core/results_file/results_json_reader.hpp"
#include "benchpr/core/results_file/results_json_schema.hpp"

namespace benchpr {

using nlohmann::json;
using namespace results_schema;

namespace {

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
  const std::optional<Side> side = side_from_string(get_string(obj, key, where));
  if (!side) fail(where + "." + key, "expected \"base\" or \"head\"");
  return *side;
}

const json& get_array(const json& obj, const char* key, const std::string& where, std::size_t max) {
  const json& a = field(obj, key, where);
  if (!a.is_array()) fail(where + "." + key, "expected an array");
  if (a.size() > max) fail(where + "." + key, "too many entries");
  return a;
}

// The stop reason as data; a file from before the kind was recorded, or with a kind this version
// does not know, keeps its sentence as an Unknown reason's detail.
StopReason read_stop(const json& j, const std::string& where) {
  StopReason s;
  const auto it = j.find("stop");
  const std::optional<StopKind> kind =
      it != j.end() && it->is_object()
          ? kStopKindNames.parse(get_string(*it, "kind", where + ".stop", false))
          : std::nullopt;
  if (!kind) {
    s.detail = get_string(j, "stop_reason", where, false);
    return s;
  }
  s.kind = *kind;
  s.count = static_cast<int>(get_int(*it, "count", where + ".stop", 0, 1 << 30, 0));
  s.detail = get_string(*it, "detail", where + ".stop", false);
  return s;
}

// `commit`: the origin is two revisions, so the SHA must be a commit's; otherwise it is "".
RevisionInfo read_revision(const json& j, const std::string& where, bool commit) {
  RevisionInfo r{get_string(j, "spec", where, false), get_string(j, "sha", where, commit),
                 get_string(j, "subject", where, false)};
  r.merge_base = get_bool(j, "merge_base", where, false);
  if (!commit && !r.sha.empty()) fail(where + ".sha", "expected \"\" (the origin is no commit)");
  if (commit &&
      (r.sha.size() != 40 || r.sha.find_first_not_of("0123456789abcdef") != std::string::npos))
    fail(where + ".sha", "expected a full 40-hex commit SHA");
  return r;
}

double read_threshold(const json& j, const std::string& where) {
  const double t = get_number(j, "threshold", where, 0);
  if (!(t > 0 && t < 1)) fail(where + ".threshold", "expected a fraction in (0, 1)");
  return t;
}

MachineInfo read_machine(const json& j, const std::string& w) {
  MachineInfo m;
  if (!j.is_object()) return m;
  m.cpu = get_string(j, "cpu", w, false);
  m.cores = static_cast<int>(get_int(j, "cores", w, 0, 1 << 20, 0));
  m.kernel = get_string(j, "kernel", w, false);
  m.compiler = get_string(j, "compiler", w, false);
  return m;
}

ShardInfo read_shard(const json& doc, const json& j) {
  const std::string w = "shard";
  ShardInfo s;
  s.count = static_cast<int>(get_int(j, "count", w, 1, kMaxShards, 0));
  if (s.count == 0) fail(w + ".count", "missing");
  s.index = static_cast<int>(get_int(j, "index", w, 0, s.count, 0));
  s.balance = get_string(j, "balance", w, false);
  if (j.contains("shards")) {
    const json& shards = get_array(j, "shards", w, kMaxShards);
    for (std::size_t i = 0; i < shards.size(); ++i) {
      const std::string sw = fmt::format("shard.shards[{}]", i);
      ShardRecord x;
      x.index = static_cast<int>(get_int(shards[i], "index", sw, 1, s.count, 0));
      x.file = get_string(shards[i], "file", sw, false);
      if (auto m = shards[i].find("machine"); m != shards[i].end())
        x.machine = read_machine(*m, sw + ".machine");
      x.measuring_seconds = get_number(shards[i], "measuring_seconds", sw, 0);
      x.complete = get_bool(shards[i], "complete", sw, false);
      x.status = get_string(shards[i], "status", sw, false);
      x.benchmarks = static_cast<int>(get_int(shards[i], "benchmarks", sw, 0, kMaxSeries, 0));
      x.workflow_run_url = get_string(shards[i], "workflow_run_url", sw, false);
      s.shards.push_back(std::move(x));
    }
  }
  if (doc.contains("partition")) {
    const json& units = get_array(doc, "partition", "document", kMaxSeries);
    for (std::size_t i = 0; i < units.size(); ++i) {
      const std::string uw = fmt::format("partition[{}]", i);
      ShardUnit u;
      u.suite = get_string(units[i], "suite", uw);
      u.name = get_string(units[i], "name", uw, false);
      u.shard = static_cast<int>(get_int(units[i], "shard", uw, 1, s.count, 0));
      if (u.shard == 0) fail(uw + ".shard", "missing");
      s.partition.push_back(std::move(u));
    }
  }
  return s;
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
  c.instructions = get_bool(j, "instructions_by_default", w, false) ? InstructionCounting::ByDefault
                   : get_bool(j, "instructions", w, false)          ? InstructionCounting::On
                                                                    : InstructionCounting::Off;
  c.cycle_estimate = get_bool(j, "cycle_estimate", w, true);
  c.placement_control = get_bool(j, "placement_control", w, true);
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
  if (j.contains("bisect")) {
    const auto mode = bisect_mode_from_string(get_string(j, "bisect", w, false));
    if (!mode) fail(w + ".bisect", "expected auto or off");
    c.bisect = *mode;
  }
  if (j.contains("comment")) {
    const auto policy = comment_policy_from_string(get_string(j, "comment", w, false));
    if (!policy) fail(w + ".comment", "expected " + one_of(kCommentPolicies.names()));
    c.comment = *policy;
  }
  if (j.contains("suites")) {
    const json& suites = get_array(j, "suites", w, 1000);
    for (std::size_t i = 0; i < suites.size(); ++i) {
      const std::string sw = fmt::format("config.suites[{}]", i);
      SuiteConfig s;
      s.name = get_string(suites[i], "name", sw);
      s.run = get_string(suites[i], "run", sw, false);
      if (const std::string format = get_string(suites[i], "format", sw, false); !format.empty()) {
        const auto kind = format_kind_from_string(format);
        if (!kind) fail(sw + ".format", "expected " + one_of(kFormatKinds.names()));
        s.format = *kind;
      }
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

// The parts of a results file, read and checked (each error names its place, `w`).
PullRequestInfo read_pull_request(const json& j) {
  PullRequestInfo pr;
  pr.number = static_cast<int>(get_int(j, "number", "pull_request", 1, 1 << 30, 0));
  pr.repo = get_string(j, "repo", "pull_request", false);
  pr.title = get_string(j, "title", "pull_request", false);
  pr.url = get_string(j, "url", "pull_request", false);
  pr.head_sha = get_string(j, "head_sha", "pull_request", false);
  if (auto l = j.find("labels"); l != j.end() && l->is_array()) {
    for (const json& x : *l)
      if (x.is_string() && pr.labels.size() < 100 &&
          x.get_ref<const std::string&>().size() <= kMaxString)
        pr.labels.push_back(x.get<std::string>());
  }
  return pr;
}

// How a build or a run ended: the four fields both records share.
template <class Record>
void read_outcome(const json& j, const std::string& w, Record& x) {
  x.ok = get_bool(j, "ok", w, true);
  x.failure = get_string(j, "failure", w, false);
  x.failure_kind = get_failure_kind(j, "failure_kind", w, !x.ok);
  x.log_tail = get_string(j, "log_tail", w, false);
}

BuildResult read_build(const json& j, const std::string& w) {
  BuildResult b;
  b.side = get_side(j, "side", w);
  b.seconds = get_number(j, "seconds", w, 0);
  read_outcome(j, w, b);
  return b;
}

RunRecord read_run(const json& j, const std::string& w) {
  RunRecord x;
  x.round = static_cast<int>(get_int(j, "round", w, 0, kMaxRounds, 0));
  x.suite = get_string(j, "suite", w);
  x.side = get_side(j, "side", w);
  x.position = static_cast<int>(get_int(j, "position", w, 0, 1, 0));
  x.started = get_number(j, "started", w, 0);
  x.seconds = get_number(j, "seconds", w, 0);
  x.cpu_seconds = get_number(j, "cpu_seconds", w, kMissing);
  x.others_cpus = get_number(j, "others_cpus", w, kMissing);
  x.leftover_processes = static_cast<int>(get_int(j, "leftover_processes", w, 0, 1'000'000, 0));
  read_outcome(j, w, x);
  return x;
}

// A series' fields, by the kinds the schema gives them (results_schema::SeriesFields).
std::optional<std::string> read_text(const json& v, const std::string& where) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_string()) fail(where, "expected a string");
  std::string s = v.get<std::string>();
  if (s.size() > kMaxString) fail(where, "string too long");
  return s;
}

std::vector<double> read_values(const json& a, const std::string& where,
                                double (*as)(double) = series_value) {
  if (!a.is_array()) fail(where, "expected an array");
  if (a.size() > kMaxRounds) fail(where, "too many rounds");
  std::vector<double> out;
  out.reserve(a.size());
  for (const json& v : a) {
    if (v.is_null()) {
      out.push_back(kMissing);
    } else if (v.is_number()) {
      out.push_back(as(v.get<double>()));
    } else {
      fail(where, "expected numbers or null");
    }
  }
  return out;
}

SeriesFields::Times read_times(const json& t, const std::string& where,
                               double (*as)(double) = series_value) {
  if (t.is_null()) return {};
  return {read_values(field(t, "base", where), where + ".base", as),
          read_values(field(t, "head", where), where + ".head", as)};
}

// {"D1mr":{"base":[...],"head":[...]},...}: the events known_event names, or null.
std::map<std::string, SeriesFields::Times> read_events(const json& e, const std::string& where) {
  std::map<std::string, SeriesFields::Times> out;
  if (e.is_null()) return out;
  if (!e.is_object()) fail(where, "expected an object");
  for (auto it = e.begin(); it != e.end(); ++it)
    if (known_event(it.key()))
      out[it.key()] = read_times(it.value(), where + "." + it.key(), event_value);
  return out;
}

BenchmarkSeries read_series(const json& j, const std::string& w) {
  if (!j.is_object()) fail(w, "expected an object");
  SeriesFields f;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string where = w + "." + it.key();
    if (auto* text = f.text(it.key())) {
      *text = read_text(it.value(), where);
    } else if (auto* values = f.values(it.key())) {
      *values = read_values(it.value(), where);
    } else if (auto* times = f.times(it.key())) {
      *times = read_times(it.value(), where);
    } else if (auto* events = f.event_times(it.key())) {
      *events = read_events(it.value(), where);
    }
  }
  return finish_series(std::move(f), w);
}

// A count of a profile: finite and not negative.
double profile_count(const json& v, const std::string& where) {
  if (!v.is_number()) fail(where, "expected a number");
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < 0) fail(where, "expected a count (finite, not negative)");
  return x;
}

std::string profile_name(const json& v, const std::string& where) {
  if (!v.is_string()) fail(where, "expected a string");
  std::string s = v.get<std::string>();
  if (s.size() > kMaxString) fail(where, "string too long");
  return s;
}

FunctionProfile read_function_profile(const json& j, const std::string& w) {
  FunctionProfile p;
  p.total = profile_count(field(j, "total", w), w + ".total");
  const json& functions = get_array(j, "functions", w, kMaxProfileFunctions);
  for (std::size_t i = 0; i < functions.size(); ++i) {
    const std::string fw = fmt::format("{}.functions[{}]", w, i);
    const json& f = functions[i];
    if (!f.is_array() || f.size() != 3) fail(fw, "expected [name, self, inclusive]");
    p.functions.push_back(
        {profile_name(f[0], fw), profile_count(f[1], fw), profile_count(f[2], fw)});
  }
  const json& calls = get_array(j, "calls", w, kMaxProfileCalls);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::string cw = fmt::format("{}.calls[{}]", w, i);
    const json& c = calls[i];
    if (!c.is_array() || c.size() != 3) fail(cw, "expected [caller, callee, inclusive]");
    p.calls.push_back({profile_name(c[0], cw), profile_name(c[1], cw), profile_count(c[2], cw)});
  }
  return p;
}

std::vector<BenchmarkProfile> read_profiles(const json& j) {
  std::vector<BenchmarkProfile> out;
  if (!j.is_array()) fail("profiles", "expected an array");
  if (j.size() > kMaxSeries) fail("profiles", "too many entries");
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string w = fmt::format("profiles[{}]", i);
    BenchmarkProfile b;
    b.suite = get_string(j[i], "suite", w);
    b.name = get_string(j[i], "name", w);
    b.requested_by = get_string(j[i], "requested_by", w, false);
    b.skipped = get_string(j[i], "skipped", w, false);
    b.seconds = get_number(j[i], "seconds", w, 0);
    b.from_counts = get_bool(j[i], "from_counts", w, false);
    if (auto it = j[i].find("base"); it != j[i].end() && !it->is_null())
      b.base = read_function_profile(*it, w + ".base");
    if (auto it = j[i].find("head"); it != j[i].end() && !it->is_null())
      b.head = read_function_profile(*it, w + ".head");
    out.push_back(std::move(b));
  }
  return out;
}

double get_share(const json& obj, const char* key, const std::string& where) {
  const double x = get_number(obj, key, where, 0);
  if (!(x >= 0 && x <= 1)) fail(where + "." + key, "not in [0, 1]");
  return x;
}

std::uint64_t get_address(const json& obj, const char* key, const std::string& where) {
  return static_cast<std::uint64_t>(get_int(obj, key, where, 0, 1ll << 62, 0));
}

std::vector<CodeEvidence> read_hot_code(const json& j) {
  std::vector<CodeEvidence> out;
  if (!j.is_array()) fail("hot_code", "expected an array");
  if (j.size() > kMaxSeries) fail("hot_code", "too many entries");
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string w = fmt::format("hot_code[{}]", i);
    CodeEvidence e;
    e.suite = get_string(j[i], "suite", w);
    e.name = get_string(j[i], "name", w);
    e.covered = get_share(j[i], "covered", w);
    e.missing = get_string(j[i], "missing", w, false);
    e.unrun_changed = get_string(j[i], "unrun_changed", w, false);
    const json& functions = get_array(j[i], "functions", w, kMaxHotFunctions);
    for (std::size_t k = 0; k < functions.size(); ++k) {
      const std::string fw = fmt::format("{}.functions[{}]", w, k);
      HotFunction f;
      f.name = get_string(functions[k], "name", fw);
      f.share = get_share(functions[k], "share", fw);
      f.base_address = get_address(functions[k], "base_address", fw);
      f.head_address = get_address(functions[k], "head_address", fw);
      f.base_size = get_address(functions[k], "base_size", fw);
      f.head_size = get_address(functions[k], "head_size", fw);
      f.identical = get_bool(functions[k], "identical", fw, false);
      f.outside = get_bool(functions[k], "outside", fw, false);
      f.executed_same = get_bool(functions[k], "executed_same", fw, false);
      e.functions.push_back(std::move(f));
    }
    out.push_back(std::move(e));
  }
  return out;
}

TimePlan read_time_plan(const json& j) {
  const std::string w = "time_plan";
  TimePlan t;
  t.budget_seconds = get_number(j, "budget_seconds", w, 0);
  t.min_time_seconds = get_number(j, "min_time_seconds", w, 0);
  t.repetitions = static_cast<int>(get_int(j, "repetitions", w, 0, 1000, 0));
  t.rounds = static_cast<int>(get_int(j, "rounds", w, 0, kMaxRounds, 0));
  t.round_seconds = get_number(j, "round_seconds", w, 0);
  t.spent_before = get_number(j, "spent_before", w, 0);
  t.fits = get_bool(j, "fits", w, true);
  t.summary = get_string(j, "summary", w, false);
  return t;
}

std::vector<LookRecord> read_look_records(const json& j) {
  std::vector<LookRecord> out;
  if (!j.is_array()) fail("looks", "expected an array");
  if (j.size() > kMaxRounds) fail("looks", "too many looks");
  int previous = 0;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string w = fmt::format("looks[{}]", i);
    LookRecord l;
    l.rounds = static_cast<int>(get_int(j[i], "rounds", w, 1, kMaxRounds, 0));
    if (l.rounds <= previous) fail(w + ".rounds", "looks must read more rounds each time");
    previous = l.rounds;
    l.information = get_number(j[i], "information", w, 0);
    l.alpha = get_number(j[i], "alpha", w, 0);
    l.equivalence_alpha = get_number(j[i], "equivalence_alpha", w, 0);
    l.horizon_share = get_number(j[i], "horizon_share", w, 1);
    if (!(l.information >= 0 && l.information <= 1)) fail(w + ".information", "not in [0, 1]");
    if (!(l.horizon_share > 0 && l.horizon_share <= 1)) fail(w + ".horizon_share", "not in (0, 1]");
    if (i > 0 && l.horizon_share != out.back().horizon_share)
      fail(w + ".horizon_share", "the first look fixes it for every look");
    l.keeps_size_open = get_bool(j[i], "keeps_size_open", w, false);
    if (i > 0 && l.keeps_size_open != out.back().keeps_size_open)
      fail(w + ".keeps_size_open", "the first look fixes it for every look");
    if (!(l.alpha >= 0 && l.alpha < 0.5)) fail(w + ".alpha", "not in [0, 0.5)");
    if (!(l.equivalence_alpha >= 0 && l.equivalence_alpha < 0.5))
      fail(w + ".equivalence_alpha", "not in [0, 0.5)");
    out.push_back(l);
  }
  return out;
}

}  // namespace

namespace results_dom {

const json& require(const json& obj, const char* key, const std::string& where) {
  return field(obj, key, where);
}

// Everything but the series, from the document's DOM (the whole file, or its small header).
Results read_header(const json& j) {
  Results r;
  if (!j.is_object()) fail("document", "expected a JSON object");
  // Versions 1 and 2 are still read: the raw part, the only part read, has the same fields in
  // every version.
  r.schema_version =
      static_cast<int>(get_int(j, "schema_version", "document", 1, kSchemaVersion, 0));
  if (r.schema_version == 0)
    fail("schema_version", "missing (this file was not written by benchpr)");
  if (auto it = j.find("tool"); it != j.end() && it->is_object())
    r.tool_version = get_string(*it, "version", "tool", false);
  if (auto it = j.find("origin"); it != j.end()) {
    const std::string origin = get_string(j, "origin", "document", false);
    const std::optional<Origin> o = origin_from_string(origin);
    if (!o) fail("origin", "expected revisions, executables or result-files");
    r.origin = *o;
  }
  const bool commits = r.origin == Origin::Revisions;
  r.base = read_revision(field(j, "base", "document"), "base", commits);
  r.head = read_revision(field(j, "head", "document"), "head", commits);
  r.config = read_config(field(j, "config", "document"));
  if (auto it = j.find("machine"); it != j.end()) r.machine = read_machine(*it, "machine");
  if (auto it = j.find("pull_request"); it != j.end() && it->is_object())
    r.pull_request = read_pull_request(*it);
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
    for (std::size_t i = 0; i < builds.size(); ++i)
      r.builds.push_back(read_build(builds[i], fmt::format("builds[{}]", i)));
  }
  if (j.contains("runs")) {
    const json& runs = get_array(j, "runs", "document", kMaxRounds * 200);
    for (std::size_t i = 0; i < runs.size(); ++i)
      r.runs.push_back(read_run(runs[i], fmt::format("runs[{}]", i)));
  }
  return r;
}

// The fields after the series: rounds_done is bounded by the plan.
void read_trailer(const json& j, Results& r) {
  r.rounds_done = static_cast<int>(
      get_int(j, "rounds_done", "document", 0, static_cast<long long>(r.plan.size()), 0));
  r.complete = get_bool(j, "complete", "document", false);
  r.stop = read_stop(j, "document");
  r.measuring_seconds = get_number(j, "measuring_seconds", "document", 0);
  r.overhead_seconds = get_number(j, "overhead_seconds", "document", 0);
  r.counting_seconds = get_number(j, "counting_seconds", "document", 0);
  r.counting_share_seconds = get_number(j, "counting_share_seconds", "document", 0);
  if (!(r.counting_share_seconds >= 0))
    fail("document.counting_share_seconds", "expected a number of seconds, 0 or more");
  r.workflow_run_url = get_string(j, "workflow_run_url", "document", false);
  if (auto it = j.find("shard"); it != j.end() && !it->is_null()) r.shard = read_shard(j, *it);
  if (auto it = j.find("time_plan"); it != j.end() && it->is_object())
    r.time_plan = read_time_plan(*it);
  if (auto it = j.find("bisect"); it != j.end() && !it->is_null())
    r.bisect = bisection_from_json(*it);
  if (auto it = j.find("looks"); it != j.end() && !it->is_null()) r.looks = read_look_records(*it);
  if (auto it = j.find("profiles"); it != j.end() && !it->is_null())
    r.profiles = read_profiles(*it);
  if (auto it = j.find("hot_code"); it != j.end() && !it->is_null())
    r.hot_code = read_hot_code(*it);
  if (j.contains("executables")) {
    const json& exes = get_array(j, "executables", "document", kMaxExecutables);
    for (std::size_t i = 0; i < exes.size(); ++i) {
      const std::string w = fmt::format("executables[{}]", i);
      ExecutableDigest x;
      x.suite = get_string(exes[i], "suite", w);
      x.side = get_side(exes[i], "side", w);
      x.path = get_string(exes[i], "path", w);
      x.sha256 = get_string(exes[i], "sha256", w);
      if (x.sha256.size() != 64 ||
          x.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
        fail(w + ".sha256", "expected 64 hex digits");
      r.executables.push_back(std::move(x));
    }
  }
  if (j.contains("identical_suites")) {
    // At most one per configured suite (the config reads at most 1,000), each a suite's name.
    const json& names = get_array(j, "identical_suites", "document", 1000);
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string w = fmt::format("identical_suites[{}]", i);
      if (!names[i].is_string()) fail(w, "expected a string");
      std::string name = names[i].get<std::string>();
      if (!r.config.find_suite(name)) fail(w, "not a suite of the configuration");
      r.identical_suites.push_back(std::move(name));
    }
  }
  if (j.contains("placement_shifts")) {
    const json& shifts = get_array(j, "placement_shifts", "document", kMaxPlacementShifts);
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      const std::string w = fmt::format("placement_shifts[{}]", i);
      if (!shifts[i].is_number_integer()) fail(w, "expected an integer");
      const long long v = shifts[i].get<long long>();
      if (v < 0 || v > kMaxPlacementShift)
        fail(w, fmt::format("expected 0 … {}", kMaxPlacementShift));
      if (i == 0 ? v != 0 : v <= r.placement_shifts.back())
        fail(w, "expected 0 first, then larger offsets");
      r.placement_shifts.push_back(static_cast<int>(v));
    }
  }
  r.resumed_rounds =
      static_cast<int>(get_int(j, "resumed_rounds", "document", 0, r.rounds_done, 0));
}

}  // namespace results_dom

Results results_from_json(const json& j) {
  Results r = results_dom::read_header(j);
  const json& series = get_array(j, "series", "document", kMaxSeries);
  for (std::size_t i = 0; i < series.size(); ++i)
    r.series.push_back(read_series(series[i], fmt::format("series[{}]", i)));
  results_dom::read_trailer(j, r);
  return r;
}

}  // namespace benchpr
