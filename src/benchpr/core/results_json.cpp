#include "benchpr/core/results_json.hpp"

#include "benchpr/core/bisect_json.hpp"

#include <charconv>
#include <cmath>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "benchpr/core/json_scan.hpp"
#include "benchpr/core/shard_plan.hpp"
#include "benchpr/core/text.hpp"
#include "benchpr/core/valid_utf8.hpp"

namespace benchpr {

using nlohmann::json;

namespace {

// Bounds for untrusted files: generous for real sessions, small enough to keep publish cheap.
constexpr std::size_t kMaxBytes = 256u << 20;
constexpr std::size_t kMaxSeries = 200000;
constexpr std::size_t kMaxRounds = 10000;
constexpr std::size_t kMaxString = 1u << 16;
// A profile as stored keeps the functions above a small fraction of the count (runner/profiles).
constexpr std::size_t kMaxProfileFunctions = 5000;
constexpr std::size_t kMaxProfileCalls = 20000;
constexpr int kSchemaVersion = 2;  // what the writer writes; the reader takes 1 and 2

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
  if (c.instructions) j["instructions"] = true;
  for (const auto& s : c.suites)
    if (c.counts_instructions(s)) j["instruction_threshold"] = c.instruction_threshold;
  j["budget_seconds"] = c.budget_seconds ? json(*c.budget_seconds) : json(nullptr);
  if (c.bisect != "off") j["bisect"] = c.bisect;
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
  if (j.contains("bisect")) {
    c.bisect = get_string(j, "bisect", w, false);
    if (c.bisect != "auto" && c.bisect != "off") fail(w + ".bisect", "expected auto or off");
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

}  // namespace

namespace {

// The writer streams the document instead of building a DOM first: at 10,000 benchmarks x 31
// rounds the DOM and its pretty-printing were most of the 0.4 s a write took. Layout: one line
// per top-level field, one line per element of the arrays of objects, everything else compact,
// so the file stays readable and diffable without indentation on every number.
class Writer {
 public:
  std::string& out;

  explicit Writer(std::string& buffer) : out(buffer) {}

  void string(std::string_view v) {
    // Most strings (names, units, sides) need no escaping: copied as they are. Anything else
    // goes through nlohmann's serializer, which escapes and replaces ill-formed UTF-8: one
    // definition of valid JSON.
    if (needs_no_escaping(v)) {
      out += '"';
      out += v;
      out += '"';
      return;
    }
    out += json(std::string(v)).dump(-1, ' ', false, json::error_handler_t::replace);
  }
  // Shortest text that reads back to the same double.
  void number(double v) {
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    fmt::format_to(std::back_inserter(out), "{}", v);
  }
  // Derived statistics: six significant digits say more than any reader needs (publish
  // recomputes them from the raw values anyway).
  void statistic(double v) { significant(v, 6); }
  // Measured values: ten significant digits, a relative error below 1e-10, far below the
  // resolution of any timer and the noise of any benchmark; the rest of a double's 17 digits
  // was most of the file.
  void values(const std::vector<double>& v) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += ',';
      significant(v[i], 10);
    }
    out += ']';
  }
  void raw(std::string_view s) { out += s; }
  void dom(const json& j) { out += j.dump(-1, ' ', false, json::error_handler_t::replace); }
  // "key": at the start of a top-level field (after the first, preceded by a comma).
  void top(const char* key) {
    out += first_ ? "\n  \"" : ",\n  \"";
    first_ = false;
    out += key;
    out += "\": ";
  }
  void field(const char* key, bool first = false) {
    if (!first) out += ',';
    out += '"';
    out += key;
    out += "\":";
  }
  // "key":value inside an object; `first` for the object's first field.
  void string(const char* key, std::string_view v, bool first = false) {
    field(key, first);
    string(v);
  }
  void number(const char* key, double v) {
    field(key);
    number(v);
  }
  void statistic(const char* key, double v) {
    field(key);
    statistic(v);
  }
  void values(const char* key, const std::vector<double>& v) {
    field(key);
    values(v);
  }
  void integer(const char* key, long long v) {
    field(key);
    fmt::format_to(std::back_inserter(out), "{}", v);
  }
  void integer(const char* key, const std::optional<int>& v) {
    field(key);
    if (v)
      fmt::format_to(std::back_inserter(out), "{}", *v);
    else
      raw("null");
  }
  // "key":{"base":[...],"head":[...]}
  void base_and_head(const char* key, const std::vector<double>& base,
                     const std::vector<double>& head) {
    field(key);
    raw("{\"base\":");
    values(base);
    raw(",\"head\":");
    values(head);
    raw("}");
  }
  template <class T, class Fn>
  void lines(const std::vector<T>& items, Fn each) {
    if (items.empty()) {
      out += "[]";
      return;
    }
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      out += i == 0 ? "\n    " : ",\n    ";
      each(items[i]);
    }
    out += "\n  ]";
  }

 private:
  bool first_ = true;

  static bool needs_no_escaping(std::string_view v) {
    bool ascii = true;
    for (const char c : v) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || c == '"' || c == '\\') return false;
      ascii = ascii && u < 0x80;
    }
    return ascii || is_valid_utf8(v);
  }
  // printf's %.{digits}g. std::to_chars, not fmt: with a precision fmt falls back to an exact
  // big-number algorithm, and the values of 100,000 benchmarks' series were about 40% of each
  // round's write (4.4 million values: 84 ns each with fmt, 52 ns with to_chars, measured by
  // bench/session_round_bench's BM_FormatValues).
  void significant(double v, int digits) {
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
    out.append(buf, end.ptr);
  }
};

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

void write_document(Writer& w, const Results& r, const Analysis* analysis) {
  w.raw("{");
  w.top("schema_version");
  fmt::format_to(std::back_inserter(w.out), "{}", kSchemaVersion);
  w.top("tool");
  w.dom({{"name", "benchpr"}, {"version", r.tool_version}});
  if (r.origin != Origin::Revisions) {  // absent: two revisions, as in every older file
    w.top("origin");
    w.string(to_string(r.origin));
  }
  auto rev = [](const RevisionInfo& x) {
    json j = {{"spec", x.spec}, {"sha", x.sha}, {"subject", x.subject}};
    if (x.merge_base) j["merge_base"] = true;
    return j;
  };
  w.top("base");
  w.dom(rev(r.base));
  w.top("head");
  w.dom(rev(r.head));
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
  if (r.shard) {
    w.top("shard");
    w.dom(shard_json(*r.shard));
    w.top("partition");
    w.lines(r.shard->partition, [&w](const ShardUnit& u) {
      w.dom({{"suite", u.suite}, {"name", u.name}, {"shard", u.shard}});
    });
  }
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
      w.dom({{"rounds", l.rounds},
             {"information", l.information},
             {"alpha", l.alpha},
             {"equivalence_alpha", l.equivalence_alpha}});
    });
  }
  if (!r.profiles.empty()) {
    w.top("profiles");
    w.lines(r.profiles, [&w](const BenchmarkProfile& b) { w.dom(benchmark_profile_json(b)); });
  }
  w.top("rounds_done");
  fmt::format_to(std::back_inserter(w.out), "{}", r.rounds_done);
  w.top("complete");
  w.raw(r.complete ? "true" : "false");
  w.top("stop_reason");
  w.string(r.stop_reason);
  w.top("measuring_seconds");
  w.number(r.measuring_seconds);
  w.top("overhead_seconds");
  w.number(r.overhead_seconds);
  w.top("workflow_run_url");
  w.string(r.workflow_run_url);
  if (r.bisect) {
    w.top("bisect");
    w.dom(bisection_to_json(*r.bisect));
  }
  if (analysis) {
    w.top("benchmarks");
    w.lines(analysis->benchmarks, [&w](const BenchmarkAnalysis& b) { write_benchmark(w, b); });
    w.top("suites");
    w.lines(analysis->suites, [&w](const SuiteSummary& s) {
      w.dom({{"suite", s.suite},
             {"benchmarks", s.benchmarks},
             {"change", number_or_null(s.change)},
             {"ci", json::array({number_or_null(s.ci_low), number_or_null(s.ci_high)})}});
    });
    w.top("analysed_rounds");
    fmt::format_to(std::back_inserter(w.out), "{}", analysis->analysed_rounds);
    w.top("mde");
    w.number(analysis->run_mde);
    w.top("notes");
    w.dom(json(plain_texts(analysis->notes)));
    w.top("recommendation");
    w.dom({{"verdict", to_string(analysis->recommendation.kind)},
           {"reason", analysis->recommendation.reason}});
  }
  w.raw("\n}\n");
}

}  // namespace

void write_results(std::string& out, const Results& results, const Analysis* analysis) {
  out.clear();
  out.reserve(4096 + results.series.size() * 64 * (results.plan.size() + 4));
  Writer w(out);
  write_document(w, results, analysis);
}

std::string results_to_string(const Results& results, const Analysis* analysis) {
  std::string out;
  write_results(out, results, analysis);
  return out;
}

json config_to_json(const Config& config) { return config_json(config); }

json results_to_json(const Results& results, const Analysis* analysis) {
  // One writer: the DOM is the text read back, so the two can never disagree.
  return json::parse(results_to_string(results, analysis));
}

namespace {

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

BenchmarkSeries read_series(const json& j, const std::string& w) {
  BenchmarkSeries s;
  s.suite = get_string(j, "suite", w);
  s.name = get_string(j, "name", w);
  s.unit = get_string(j, "unit", w, false);
  auto better = better_from_string(get_string(j, "better", w));
  if (!better) fail(w + ".better", "expected \"lower\" or \"higher\"");
  s.better = *better;
  s.base = get_values(j, "base", w);
  s.head = get_values(j, "head", w);
  s.base_failure = get_string(j, "base_failure", w, false);
  s.head_failure = get_string(j, "head_failure", w, false);
  s.base_failure_kind = get_failure_kind(j, "base_failure_kind", w, !s.base_failure.empty());
  s.head_failure_kind = get_failure_kind(j, "head_failure_kind", w, !s.head_failure.empty());
  s.metric = get_string(j, "metric", w, false);
  if (s.metric == "real_time") {
    s.base_real = s.base;
    s.head_real = s.head;
  } else if (auto t = j.find("real_time"); t != j.end() && !t->is_null()) {
    s.base_real = get_values(*t, "base", w + ".real_time");
    s.head_real = get_values(*t, "head", w + ".real_time");
  }
  if (s.metric == "cpu_time") {
    s.base_cpu = s.base;
    s.head_cpu = s.head;
  } else if (auto t = j.find("cpu_time"); t != j.end() && !t->is_null()) {
    s.base_cpu = get_values(*t, "base", w + ".cpu_time");
    s.head_cpu = get_values(*t, "head", w + ".cpu_time");
  }
  return s;
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
    if (!(l.information >= 0 && l.information <= 1)) fail(w + ".information", "not in [0, 1]");
    if (!(l.alpha >= 0 && l.alpha < 0.5)) fail(w + ".alpha", "not in [0, 0.5)");
    if (!(l.equivalence_alpha >= 0 && l.equivalence_alpha < 0.5))
      fail(w + ".equivalence_alpha", "not in [0, 0.5)");
    out.push_back(l);
  }
  return out;
}

}  // namespace

namespace {

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
  r.stop_reason = get_string(j, "stop_reason", "document", false);
  r.measuring_seconds = get_number(j, "measuring_seconds", "document", 0);
  r.overhead_seconds = get_number(j, "overhead_seconds", "document", 0);
  r.workflow_run_url = get_string(j, "workflow_run_url", "document", false);
  if (auto it = j.find("shard"); it != j.end() && !it->is_null()) r.shard = read_shard(j, *it);
  if (auto it = j.find("time_plan"); it != j.end() && it->is_object())
    r.time_plan = read_time_plan(*it);
  if (auto it = j.find("bisect"); it != j.end() && !it->is_null())
    r.bisect = bisection_from_json(*it);
  if (auto it = j.find("looks"); it != j.end() && !it->is_null()) r.looks = read_look_records(*it);
  if (auto it = j.find("profiles"); it != j.end() && !it->is_null())
    r.profiles = read_profiles(*it);
}

// --- the series without a DOM --------------------------------------------------------------
// The same fields, checks and messages as read_series, read straight from the text: the series
// are most of a large file, and a DOM of them most of the time a read took.

std::vector<double> scan_values(JsonScanner& in, const std::string& where) {
  if (in.peek() != '[') {
    in.skip_value();
    fail(where, "expected an array");
  }
  in.expect('[');
  std::vector<double> out;
  if (in.consume(']')) return out;
  do {
    if (out.size() >= kMaxRounds) fail(where, "too many rounds");
    const char c = in.peek();
    if (c == 'n') {
      in.literal("null");
      out.push_back(kMissing);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const double x = in.number();
      out.push_back(x > 0 ? x : kMissing);
    } else {
      in.skip_value();
      fail(where, "expected numbers or null");
    }
  } while (in.consume(','));
  in.expect(']');
  return out;
}

// A string field; `present` says whether it was there and not null.
std::string scan_string(JsonScanner& in, const std::string& where, bool& present) {
  const char c = in.peek();
  if (c == 'n') {
    in.literal("null");
    present = false;
    return {};
  }
  if (c != '"') {
    in.skip_value();
    fail(where, "expected a string");
  }
  present = true;
  std::string s = JsonScanner::decode(in.string_token());
  if (s.size() > kMaxString) fail(where, "string too long");
  return s;
}

// {"base":[...],"head":[...]} (other keys ignored), or null.
void scan_other_time(JsonScanner& in, const std::string& where, std::vector<double>& base,
                     std::vector<double>& head) {
  if (in.peek() == 'n') {
    in.literal("null");
    return;
  }
  if (in.peek() != '{') {
    in.skip_value();
    fail(where, "expected an object");
  }
  in.expect('{');
  bool has_base = false, has_head = false;
  if (!in.consume('}')) {
    do {
      const std::string key = JsonScanner::decode(in.string_token());
      in.expect(':');
      if (key == "base") {
        base = scan_values(in, where + ".base");
        has_base = true;
      } else if (key == "head") {
        head = scan_values(in, where + ".head");
        has_head = true;
      } else {
        in.skip_value();
      }
    } while (in.consume(','));
    in.expect('}');
  }
  if (!has_base) fail(where + ".base", "missing");
  if (!has_head) fail(where + ".head", "missing");
}

BenchmarkSeries scan_series(JsonScanner& in, const std::string& w) {
  if (in.peek() != '{') {
    in.skip_value();
    fail(w, "expected an object");
  }
  in.expect('{');
  BenchmarkSeries s;
  std::string better, base_kind, head_kind;
  bool has_suite = false, has_name = false, has_better = false, has_base = false, has_head = false,
       present = false;
  std::vector<double> real_base, real_head, cpu_base, cpu_head;
  if (!in.consume('}')) {
    do {
      const std::string key = JsonScanner::decode(in.string_token());
      in.expect(':');
      const std::string where = w + "." + key;
      if (key == "suite") {
        s.suite = scan_string(in, where, has_suite);
      } else if (key == "name") {
        s.name = scan_string(in, where, has_name);
      } else if (key == "unit") {
        s.unit = scan_string(in, where, present);
      } else if (key == "better") {
        better = scan_string(in, where, has_better);
      } else if (key == "metric") {
        s.metric = scan_string(in, where, present);
      } else if (key == "base") {
        s.base = scan_values(in, where);
        has_base = true;
      } else if (key == "head") {
        s.head = scan_values(in, where);
        has_head = true;
      } else if (key == "base_failure") {
        s.base_failure = scan_string(in, where, present);
      } else if (key == "head_failure") {
        s.head_failure = scan_string(in, where, present);
      } else if (key == "base_failure_kind") {
        base_kind = scan_string(in, where, present);
      } else if (key == "head_failure_kind") {
        head_kind = scan_string(in, where, present);
      } else if (key == "real_time") {
        scan_other_time(in, where, real_base, real_head);
      } else if (key == "cpu_time") {
        scan_other_time(in, where, cpu_base, cpu_head);
      } else {
        in.skip_value();
      }
    } while (in.consume(','));
    in.expect('}');
  }
  if (!has_suite) fail(w + ".suite", "missing");
  if (!has_name) fail(w + ".name", "missing");
  if (!has_better) fail(w + ".better", "missing");
  const auto b = better_from_string(better);
  if (!b) fail(w + ".better", "expected \"lower\" or \"higher\"");
  s.better = *b;
  if (!has_base) fail(w + ".base", "missing");
  if (!has_head) fail(w + ".head", "missing");
  const auto kind = [](const std::string& k, const std::string& failure) {
    if (failure.empty()) return FailureKind::None;
    return failure_kind_from_string(k).value_or(FailureKind::Other);
  };
  s.base_failure_kind = kind(base_kind, s.base_failure);
  s.head_failure_kind = kind(head_kind, s.head_failure);
  if (s.metric == "real_time") {
    s.base_real = s.base;
    s.head_real = s.head;
  } else {
    s.base_real = std::move(real_base);
    s.head_real = std::move(real_head);
  }
  if (s.metric == "cpu_time") {
    s.base_cpu = s.base;
    s.head_cpu = s.head;
  } else {
    s.base_cpu = std::move(cpu_base);
    s.head_cpu = std::move(cpu_head);
  }
  return s;
}

std::vector<BenchmarkSeries> scan_series_array(JsonScanner& in) {
  if (in.peek() != '[') {
    in.skip_value();
    fail("document.series", "expected an array");
  }
  in.expect('[');
  std::vector<BenchmarkSeries> out;
  if (in.consume(']')) return out;
  do {
    if (out.size() >= kMaxSeries) fail("document.series", "too many entries");
    out.push_back(scan_series(in, fmt::format("series[{}]", out.size())));
  } while (in.consume(','));
  in.expect(']');
  return out;
}

}  // namespace

Results results_from_json(const json& j) {
  Results r = read_header(j);
  const json& series = get_array(j, "series", "document", kMaxSeries);
  for (std::size_t i = 0; i < series.size(); ++i)
    r.series.push_back(read_series(series[i], fmt::format("series[{}]", i)));
  read_trailer(j, r);
  return r;
}

namespace {

// The top-level fields the reader reads (read_header, the series, read_trailer). Everything else
// (the analysis, fields of a newer version, anything a hostile file adds) is checked as JSON and
// passed over without building anything: a 60 MB array nested 30 million deep under an unknown
// key once became a DOM of 2.3 GB.
bool read_at_top_level(std::string_view key) {
  static constexpr std::string_view kKeys[] = {"schema_version",
                                               "tool",
                                               "origin",
                                               "base",
                                               "head",
                                               "config",
                                               "machine",
                                               "pull_request",
                                               "config_changed_by_head",
                                               "seed",
                                               "shard",
                                               "partition",
                                               "plan",
                                               "builds",
                                               "runs",
                                               "time_plan",
                                               "looks",
                                               "profiles",
                                               "rounds_done",
                                               "complete",
                                               "stop_reason",
                                               "measuring_seconds",
                                               "overhead_seconds",
                                               "workflow_run_url",
                                               "bisect"};
  for (std::string_view k : kKeys)
    if (k == key) return true;
  return false;
}

// Bounds of the DOM built for the fields above (every field but the series, which are scanned):
// no field the format defines nests deeper than 5, and a session of 10,000 rounds of 10 suites
// has 200,000 run records of about 13 values each. A value a DOM holds costs 16 to about 80
// bytes, so these bound the reader's memory, beyond the text, by a few hundred MB whatever the
// file holds.
constexpr int kMaxDepth = 32;
constexpr std::size_t kMaxHeaderValues = 4'000'000;

json parse_header(const std::string& text) {
  std::size_t values = 0;
  const json::parser_callback_t bounded = [&values](int depth, json::parse_event_t event, json&) {
    if (depth > kMaxDepth) fail("document", fmt::format("nested deeper than {} levels", kMaxDepth));
    if (event == json::parse_event_t::value || event == json::parse_event_t::object_start ||
        event == json::parse_event_t::array_start) {
      if (++values > kMaxHeaderValues)
        fail("document", fmt::format("more than {} values outside the series", kMaxHeaderValues));
    }
    return true;
  };
  json j = json::parse(text, bounded, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw JsonSyntaxError{};
  return j;
}

// A series was refused while read before the header: the header's checks come first.
struct SeriesReadFirst {};

// One pass over the top level checks the whole text as JSON: the fields read_header and
// read_trailer check go into a bounded DOM of their own, the series are read from the text (no
// DOM), and everything else is passed over. With `series_first` the series are read as they come
// (one pass over the bulk of the file); without, they are only checked as JSON on the way and
// read after the header, so that a file wrong in both is refused for its header, as the order of
// the checks says (header, series, trailer).
Results scan_document(std::string_view text, bool series_first) {
  JsonScanner in(text);
  std::optional<std::string_view> series_text;
  std::vector<BenchmarkSeries> series;
  bool has_series = false;
  std::string header = "{";
  in.expect('{');
  if (!in.consume('}')) {
    do {
      const std::string_view key_token = in.string_token();
      in.expect(':');
      const std::string key = JsonScanner::decode(key_token);
      if (key == "series") {
        has_series = true;
        if (series_first) {
          try {
            series = scan_series_array(in);
          } catch (const ResultsFormatError&) {
            throw SeriesReadFirst{};
          }
        } else {
          series_text = in.skip_value();
        }
        continue;
      }
      const std::string_view value = in.skip_value();
      if (!read_at_top_level(key)) continue;
      if (header.size() > 1) header += ',';
      header += key_token;
      header += ':';
      header += value;
    } while (in.consume(','));
    in.expect('}');
  }
  if (!in.at_end()) throw JsonSyntaxError{};
  header += '}';
  const json j = parse_header(header);
  Results r = read_header(j);
  if (!has_series) field(j, "series", "document");  // throws: missing
  if (series_text) {
    JsonScanner again(*series_text);
    series = scan_series_array(again);
  }
  r.series = std::move(series);
  read_trailer(j, r);
  return r;
}

}  // namespace

namespace detail {

Results scan_results(std::string_view text) {
  try {
    return scan_document(text, /*series_first=*/true);
  } catch (const SeriesReadFirst&) {
    // The header may hold the first problem: read again in the order of the checks (bounded
    // as before: nothing is built for what the reader does not read).
    return scan_document(text, /*series_first=*/false);
  }
}

}  // namespace detail

Results results_from_string(std::string_view text) {
  if (text.size() > kMaxBytes) fail("document", "larger than 256 MiB");
  if (text.empty() || JsonScanner(text).peek() != '{') {
    // Valid JSON of another kind says so; anything else is no JSON.
    JsonScanner in(text);
    try {
      in.skip_value();
      if (in.at_end()) fail("document", "expected a JSON object");
    } catch (const JsonSyntaxError&) {
    }
    fail("document", "not valid JSON (truncated or corrupted?)");
  }
  try {
    return detail::scan_results(text);
  } catch (const JsonSyntaxError&) {
    fail("document", "not valid JSON (truncated or corrupted?)");
  }
}

}  // namespace benchpr
