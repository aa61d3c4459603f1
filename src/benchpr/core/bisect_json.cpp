#include "benchpr/core/bisect_json.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "benchpr/core/results_json.hpp"

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

std::string text(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_string()) fail(where + "." + key, "expected a string");
  std::string s = it->get<std::string>();
  if (s.size() > kMaxText) fail(where + "." + key, "string too long");
  return s;
}

double number(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nan("");
  if (!it->is_number()) fail(where + "." + key, "expected a number");
  return it->get<double>();
}

bool flag(const json& j, const char* key, const std::string& where) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return false;
  if (!it->is_boolean()) fail(where + "." + key, "expected true or false");
  return it->get<bool>();
}

int index(const json& j, const char* key, const std::string& where, std::size_t commits) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) fail(where + "." + key, "expected an integer");
  const long long v = it->get<long long>();
  if (v < 0 || v >= static_cast<long long>(commits))
    fail(where + "." + key, fmt::format("expected a commit index in [0, {}]", commits - 1));
  return static_cast<int>(v);
}

double interval_end(const json& j, std::size_t i, const std::string& where) {
  const auto it = j.find("ci");
  if (it == j.end() || it->is_null()) return std::nan("");
  if (!it->is_array() || it->size() != 2) fail(where + ".ci", "expected [low, high]");
  if ((*it)[i].is_null()) return std::nan("");
  if (!(*it)[i].is_number()) fail(where + ".ci", "expected numbers");
  return (*it)[i].get<double>();
}

}  // namespace

json bisection_to_json(const Bisection& b) {
  json commits = json::array();
  for (const BisectCommit& c : b.commits) {
    json j = {{"sha", c.sha}, {"subject", c.subject}};
    if (c.skipped) {
      j["skipped"] = true;
      j["skip_reason"] = c.skip_reason;
    }
    commits.push_back(std::move(j));
  }
  json targets = json::array();
  for (const BisectTarget& t : b.targets)
    targets.push_back({{"suite", t.suite},
                       {"name", t.name},
                       {"change", number_or_null(t.change)},
                       {"threshold", t.threshold},
                       {"exact", t.exact}});
  json pairs = json::array();
  for (const BisectPair& p : b.pairs) {
    json values = json::array();
    for (const BisectValue& v : p.values) {
      json j = {{"suite", v.suite},
                {"name", v.name},
                {"from_value", number_or_null(v.from_value)},
                {"to_value", number_or_null(v.to_value)},
                {"change", number_or_null(v.change)},
                {"rounds", v.rounds}};
      if (std::isfinite(v.ci_low) || std::isfinite(v.ci_high))
        j["ci"] = json::array({number_or_null(v.ci_low), number_or_null(v.ci_high)});
      values.push_back(std::move(j));
    }
    json j = {{"from", p.from}, {"to", p.to}, {"seconds", p.seconds}, {"values", values}};
    if (!p.failure.empty()) j["failure"] = p.failure;
    pairs.push_back(std::move(j));
  }
  return {{"method", b.method},
          {"commits", commits},
          {"targets", targets},
          {"pairs", pairs},
          {"budget_seconds", b.budget_seconds},
          {"seconds", b.seconds},
          {"complete", b.complete},
          {"stop_reason", b.stop_reason}};
}

Bisection bisection_from_json(const json& j) {
  const std::string w = "bisect";
  object(j, w);
  Bisection b;
  b.method = text(j, "method", w);
  if (b.method != "time" && b.method != "instructions")
    fail(w + ".method", "expected time or instructions");
  const json& commits = array(j, "commits", w, kMaxCommits);
  if (commits.size() < 2) fail(w + ".commits", "expected the base and at least one commit");
  for (std::size_t i = 0; i < commits.size(); ++i) {
    const std::string cw = fmt::format("{}.commits[{}]", w, i);
    BisectCommit c;
    c.sha = text(object(commits[i], cw), "sha", cw);
    if (c.sha.size() != 40 || c.sha.find_first_not_of("0123456789abcdef") != std::string::npos)
      fail(cw + ".sha", "expected a full 40-hex commit SHA");
    c.subject = text(commits[i], "subject", cw);
    c.skipped = flag(commits[i], "skipped", cw);
    c.skip_reason = text(commits[i], "skip_reason", cw);
    b.commits.push_back(std::move(c));
  }
  const json& targets = array(j, "targets", w, kMaxTargets);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const std::string tw = fmt::format("{}.targets[{}]", w, i);
    BisectTarget t;
    t.suite = text(object(targets[i], tw), "suite", tw);
    t.name = text(targets[i], "name", tw);
    t.change = number(targets[i], "change", tw);
    t.threshold = number(targets[i], "threshold", tw);
    if (!(t.threshold > 0 && t.threshold < 1))
      fail(tw + ".threshold", "expected a fraction in (0, 1)");
    t.exact = flag(targets[i], "exact", tw);
    b.targets.push_back(std::move(t));
  }
  const json& pairs = array(j, "pairs", w, kMaxPairs);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const std::string pw = fmt::format("{}.pairs[{}]", w, i);
    BisectPair p;
    p.from = index(object(pairs[i], pw), "from", pw, b.commits.size());
    p.to = index(pairs[i], "to", pw, b.commits.size());
    if (p.from >= p.to) fail(pw, "expected from < to");
    p.seconds = number(pairs[i], "seconds", pw);
    p.failure = text(pairs[i], "failure", pw);
    const json& values = array(pairs[i], "values", pw, kMaxTargets);
    for (std::size_t k = 0; k < values.size(); ++k) {
      const std::string vw = fmt::format("{}.values[{}]", pw, k);
      BisectValue v;
      v.suite = text(object(values[k], vw), "suite", vw);
      v.name = text(values[k], "name", vw);
      v.from_value = number(values[k], "from_value", vw);
      v.to_value = number(values[k], "to_value", vw);
      v.change = number(values[k], "change", vw);
      v.ci_low = interval_end(values[k], 0, vw);
      v.ci_high = interval_end(values[k], 1, vw);
      const double rounds = number(values[k], "rounds", vw);
      v.rounds =
          std::isfinite(rounds) && rounds >= 0 && rounds < 1e6 ? static_cast<int>(rounds) : 0;
      p.values.push_back(std::move(v));
    }
    b.pairs.push_back(std::move(p));
  }
  b.budget_seconds = number(j, "budget_seconds", w);
  if (!std::isfinite(b.budget_seconds)) b.budget_seconds = 0;
  b.seconds = number(j, "seconds", w);
  if (!std::isfinite(b.seconds)) b.seconds = 0;
  b.complete = flag(j, "complete", w);
  b.stop_reason = text(j, "stop_reason", w);
  return b;
}

}  // namespace benchpr
