#include "benchpr/core/model/model.hpp"

#include <algorithm>

namespace benchpr {

std::string_view to_string(FailureKind kind) { return kFailureKinds.name(kind); }
std::optional<FailureKind> failure_kind_from_string(std::string_view s) {
  return kFailureKinds.parse(s);
}

bool BenchmarkAnalysis::has_flag(BenchmarkFlag flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}
void BenchmarkAnalysis::add_flag(BenchmarkFlag flag) {
  if (!has_flag(flag)) flags.push_back(flag);
}

std::string_view to_string(Side side) { return kSides.name(side); }
std::optional<Side> side_from_string(std::string_view s) { return kSides.parse(s); }
std::string_view to_string(Better better) { return kBetters.name(better); }
std::optional<Better> better_from_string(std::string_view s) { return kBetters.parse(s); }

Results same_comparison(const Results& r) {
  Results out;
  out.schema_version = r.schema_version;
  out.tool_version = r.tool_version;
  out.origin = r.origin;
  out.base = r.base;
  out.head = r.head;
  out.config = r.config;
  out.machine = r.machine;
  out.pull_request = r.pull_request;
  out.config_changed_by_head = r.config_changed_by_head;
  out.seed = r.seed;
  out.workflow_run_url = r.workflow_run_url;
  out.identical_suites = r.identical_suites;  // what the programs were, found after the builds
  out.placement_shifts = r.placement_shifts;  // which programs each round runs
  return out;
}

std::string_view to_string(Origin origin) { return kOrigins.name(origin); }
std::optional<Origin> origin_from_string(std::string_view s) { return kOrigins.parse(s); }

bool glob_match(std::string_view pattern, std::string_view name) {
  // Iterative matching with one backtrack point: linear in practice, no recursion to exhaust.
  std::size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
  while (n < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::optional<Better> rule_better(const SuiteConfig& suite, std::string_view name) {
  for (const BenchmarkRule& rule : suite.benchmarks)
    if (rule.better && glob_match(rule.match, name)) return rule.better;
  return std::nullopt;
}

bool excluded(const SuiteConfig& suite, std::string_view name) {
  for (const std::string& pattern : suite.exclude)
    if (glob_match(pattern, name)) return true;
  return false;
}

std::optional<Better> configured_better(const SuiteConfig& suite, std::string_view name) {
  if (auto b = rule_better(suite, name)) return b;
  return suite.better;
}

const SuiteConfig* Config::find_suite(std::string_view suite) const {
  for (const SuiteConfig& s : suites)
    if (s.name == suite) return &s;
  return nullptr;
}

double Config::threshold_for(std::string_view suite, std::string_view name) const {
  const SuiteConfig* s = find_suite(suite);
  if (!s) return threshold;
  for (const BenchmarkRule& rule : s->benchmarks)
    if (rule.threshold && glob_match(rule.match, name)) return *rule.threshold;
  return s->threshold.value_or(threshold);
}

std::string_view to_string(Verdict v) { return kVerdicts.name(v); }
int verdict_order(Verdict v) {
  switch (v) {
    case Verdict::Regression:
      return 0;
    case Verdict::Improvement:
      return 1;
    case Verdict::Slower:
      return 2;
    case Verdict::Faster:
      return 3;
    case Verdict::Inconclusive:
      return 4;
    case Verdict::Failed:
      return 5;
    case Verdict::Added:
      return 6;
    case Verdict::Removed:
      return 7;
    case Verdict::Placement:
      return 8;
    case Verdict::Unchanged:
      return 9;
  }
  return 9;
}

std::string_view to_string(CodeReading r) { return kCodeReadings.name(r); }

std::string_view to_string(RecommendationKind k) { return kRecommendations.name(k); }

std::string plain_text(const std::vector<TextPart>& parts) {
  std::string out;
  for (const TextPart& p : parts) out += p.code ? "`" + p.text + "`" : p.text;
  return out;
}

std::string Note::plain() const { return plain_text(parts); }

std::vector<std::string> plain_texts(const std::vector<Note>& notes) {
  std::vector<std::string> out;
  out.reserve(notes.size());
  for (const Note& n : notes) out.push_back(n.plain());
  return out;
}

}  // namespace benchpr
