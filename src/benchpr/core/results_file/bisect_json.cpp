#include "benchpr/core/results_file/bisect_json.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/json/json_text_writer.hpp"
#include "benchpr/core/results_file/results_json.hpp"

namespace benchpr {

namespace {

using nlohmann::json;

// Bounds of what a file may hold: a chain of a thousand commits, a comparison per commit and
// more, a hundred benchmarks followed.
constexpr std::size_t kMaxCommits = 1000;
constexpr std::size_t kMaxPairs = 4000;
constexpr std::size_t kMaxTargets = 100;
constexpr std::size_t kMaxText = 4096;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ResultsFormatError(fmt::format("results file: {}: {}", where, what));
}

const json& object(const json& j, const std::string& where) {
  if (!j.is_object()) fail(where, "expected an object");
  return j;
}

const json& array(const json& j, const char* key, const std::string& where, std::size_t max) {
  const auto it = object(j, where).find(key);
  if (it == j.end() || !it->is_array()) fail(where + "." + key, "expected an array");
  if (it->size() > max) fail(where + "." + key, "too many entries");
  return *it;
}

// The value at `key` when `is` accepts it, `otherwise` when the key is absent or null.
template <class T>
T field(const json& j, const char* key, const std::string& where, T otherwise,
        bool (json::*is)() const noexcept, const char* expected) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return otherwise;
  if (!((*it).*is)()) fail(where + "." + key, expected);
  return it->get<T>();
}

std::string text(const json& j, const char* key, const std::string& where) {
  std::string s = field<std::string>(j, key, where, {}, &json::is_string, "expected a string");
  if (s.size() > kMaxText) fail(where + "." + key, "string too long");
  return s;
}

double number(const json& j, const char* key, const std::string& where) {
  return field<double>(j, key, where, std::nan(""), &json::is_number, "expected a number");
}

bool flag(const json& j, const char* key, const std::string& where) {
  return field<bool>(j, key, where, false, &json::is_boolean, "expected true or false");
}

int index(const json& j, const char* key, const std::string& where, std::size_t commits) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) fail(where + "." + key, "expected an integer");
  const long long v = it->get<long long>();
  if (v < 0 || v >= static_cast<long long>(commits))
    fail(where + "." + key, fmt::format("expected a commit index in [0, {}]", commits - 1));
  return static_cast<int>(v);
}

// The reason as data; a search recorded before the kind was (or with a kind this version does
// not know) keeps its sentence as an Unknown reason's detail.
StopReason stop_from(const json& j, const std::string& where) {
  StopReason s;
  const auto it = j.find("stop");
  const std::optional<StopKind> kind =
      it != j.end() && it->is_object() ? kStopKindNames.parse(text(*it, "kind", where + ".stop"))
                                       : std::nullopt;
  if (!kind) {
    s.detail = text(j, "stop_reason", where);
    return s;
  }
  s.kind = *kind;
  const double count = number(*it, "count", where + ".stop");
  s.count = std::isfinite(count) && count >= 0 && count <= 1e9 ? static_cast<int>(count) : 0;
  s.detail = text(*it, "detail", where + ".stop");
  return s;
}

double interval_end(const json& j, std::size_t i, const std::string& where) {
  const auto it = j.find("ci");
  if (it == j.end() || it->is_null()) return std::nan("");
  if (!it->is_array() || it->size() != 2) fail(where + ".ci", "expected [low, high]");
  if ((*it)[i].is_null()) return std::nan("");
  if (!(*it)[i].is_number()) fail(where + ".ci", "expected numbers");
  return (*it)[i].get<double>();
}

// Each entry of `items` (the array at `where`), an object read by `read(entry, its where)`.
template <class Read>
auto read_each(const json& items, const std::string& where, Read read) {
  std::vector<decltype(read(items, where))> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string at = fmt::format("{}[{}]", where, i);
    out.push_back(read(object(items[i], at), at));
  }
  return out;
}

json commit_json(const BisectCommit& c) {
  json j = {{"sha", c.sha}, {"subject", c.subject}};
  if (c.skipped) {
    j["skipped"] = true;
    j["skip_reason"] = c.skip_reason;
  }
  return j;
}

BisectCommit commit_from(const json& j, const std::string& w) {
  BisectCommit c;
  c.sha = text(j, "sha", w);
  if (c.sha.size() != 40 || c.sha.find_first_not_of("0123456789abcdef") != std::string::npos)
    fail(w + ".sha", "expected a full 40-hex commit SHA");
  c.subject = text(j, "subject", w);
  c.skipped = flag(j, "skipped", w);
  c.skip_reason = text(j, "skip_reason", w);
  return c;
}

json target_json(const BisectTarget& t) {
  return {{"suite", t.suite},
          {"name", t.name},
          {"change", number_or_null(t.change)},
          {"threshold", t.threshold},
          {"exact", t.exact}};
}

BisectTarget target_from(const json& j, const std::string& w) {
  BisectTarget t;
  t.suite = text(j, "suite", w);
  t.name = text(j, "name", w);
  t.change = number(j, "change", w);
  t.threshold = number(j, "threshold", w);
  if (!(t.threshold > 0 && t.threshold < 1))
    fail(w + ".threshold", "expected a fraction in (0, 1)");
  t.exact = flag(j, "exact", w);
  return t;
}

json value_json(const BisectValue& v) {
  json j = {{"suite", v.suite},
            {"name", v.name},
            {"from_value", number_or_null(v.from_value)},
            {"to_value", number_or_null(v.to_value)},
            {"change", number_or_null(v.change)},
            {"rounds", v.rounds}};
  if (std::isfinite(v.ci_low) || std::isfinite(v.ci_high))
    j["ci"] = json::array({number_or_null(v.ci_low), number_or_null(v.ci_high)});
  return j;
}

BisectValue value_from(const json& j, const std::string& w) {
  BisectValue v;
  v.suite = text(j, "suite", w);
  v.name = text(j, "name", w);
  v.from_value = number(j, "from_value", w);
  v.to_value = number(j, "to_value", w);
  v.change = number(j, "change", w);
  v.ci_low = interval_end(j, 0, w);
  v.ci_high = interval_end(j, 1, w);
  const double rounds = number(j, "rounds", w);
  v.rounds = std::isfinite(rounds) && rounds >= 0 && rounds < 1e6 ? static_cast<int>(rounds) : 0;
  return v;
}

json pair_json(const BisectPair& p) {
  json values = json::array();
  for (const BisectValue& v : p.values) values.push_back(value_json(v));
  json j = {{"from", p.from}, {"to", p.to}, {"seconds", p.seconds}, {"values", values}};
  if (!p.failure.empty()) j["failure"] = p.failure;
  return j;
}

BisectPair pair_from(const json& j, const std::string& w, std::size_t commits) {
  BisectPair p;
  p.from = index(j, "from", w, commits);
  p.to = index(j, "to", w, commits);
  if (p.from >= p.to) fail(w, "expected from < to");
  p.seconds = number(j, "seconds", w);
  p.failure = text(j, "failure", w);
  p.values = read_each(array(j, "values", w, kMaxTargets), w + ".values", value_from);
  return p;
}

// Every element of `items` as `to_json` writes it.
template <class T, class ToJson>
json json_array(const std::vector<T>& items, ToJson to_json) {
  json out = json::array();
  for (const T& item : items) out.push_back(to_json(item));
  return out;
}

}  // namespace

json bisection_to_json(const Bisection& b) {
  json j = {{"method", std::string(to_string(b.method))},
            {"commits", json_array(b.commits, commit_json)},
            {"targets", json_array(b.targets, target_json)},
            {"pairs", json_array(b.pairs, pair_json)},
            {"budget_seconds", b.budget_seconds},
            {"seconds", b.seconds},
            {"complete", b.complete},
            {"stop_reason", describe(b.stop)},
            {"stop",
             {{"kind", std::string(kStopKindNames.name(b.stop.kind))},
              {"count", b.stop.count},
              {"detail", b.stop.detail}}}};
  // Its reader's limit, lower than the results file's: commit subjects are untrusted text.
  JsonTextWriter::cap_strings(j, kMaxText);
  return j;
}

Bisection bisection_from_json(const json& j) {
  const std::string w = "bisect";
  object(j, w);
  Bisection b;
  const std::optional<BisectMethod> method = bisect_method_from_string(text(j, "method", w));
  if (!method) fail(w + ".method", "expected time or instructions");
  b.method = *method;
  const json& commits = array(j, "commits", w, kMaxCommits);
  if (commits.size() < 2) fail(w + ".commits", "expected the base and at least one commit");
  b.commits = read_each(commits, w + ".commits", commit_from);
  b.targets = read_each(array(j, "targets", w, kMaxTargets), w + ".targets", target_from);
  b.pairs = read_each(
      array(j, "pairs", w, kMaxPairs), w + ".pairs",
      [&b](const json& p, const std::string& pw) { return pair_from(p, pw, b.commits.size()); });
  b.budget_seconds = number(j, "budget_seconds", w);
  if (!std::isfinite(b.budget_seconds)) b.budget_seconds = 0;
  b.seconds = number(j, "seconds", w);
  if (!std::isfinite(b.seconds)) b.seconds = 0;
  b.complete = flag(j, "complete", w);
  b.stop = stop_from(j, w);
  return b;
}

}  // namespace benchpr
