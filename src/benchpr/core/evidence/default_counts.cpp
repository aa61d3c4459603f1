#include "benchpr/core/evidence/default_counts.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/wording/sentence.hpp"

namespace benchpr {

namespace {

// At most this many names in the note; the rest are counted.
constexpr std::size_t kNamedAtMost = 3;

bool no_count(const std::vector<double>& values) {
  return values.empty() || is_missing(values.front());
}

}  // namespace

WithoutFailedDefaultCounts without_failed_default_counts(const Results& results) {
  WithoutFailedDefaultCounts out{results, std::nullopt};
  std::map<std::string, bool> by_default;  // instruction suite name -> counted by default
  for (const SuiteConfig& s : results.config.suites)
    by_default[instruction_suite_name(s.name)] = results.config.counts_by_default(s);
  const auto soft = [&](const std::string& suite) {
    const auto it = by_default.find(suite);
    return it != by_default.end() && it->second;
  };
  // Reasons, each with the benchmarks it kept from a count, in the order first met.
  std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
  std::size_t dropped = 0;
  std::erase_if(out.results.series, [&](const BenchmarkSeries& s) {
    if (!is_instruction_series(s) || !soft(s.suite)) return false;
    const bool base_failed = no_count(s.base) && !s.base_failure.empty();
    const bool head_failed = no_count(s.head) && !s.head_failure.empty();
    if (!base_failed && !head_failed) return false;
    const std::string& why = base_failed ? s.base_failure : s.head_failure;
    auto it =
        std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == why; });
    if (it == reasons.end()) {
      reasons.push_back({why, {}});
      it = std::prev(reasons.end());
    }
    it->second.push_back(s.name);
    ++dropped;
    return true;
  });
  std::erase_if(out.results.runs, [&](const RunRecord& run) { return !run.ok && soft(run.suite); });
  if (dropped == 0) return out;
  Sentence note;
  note.text(dropped == 1 ? "Instructions were not counted for 1 benchmark"
                         : fmt::format("Instructions were not counted for {} benchmarks", dropped));
  note.text(
      " (counting is on by default; it was not asked for, so these are judged by their "
      "time alone): ");
  for (std::size_t r = 0; r < reasons.size(); ++r) {
    const auto& [why, names] = reasons[r];
    if (r) note.text("; ");
    for (std::size_t i = 0; i < std::min(names.size(), kNamedAtMost); ++i)
      note.text(i ? ", " : "").code(names[i]);
    if (names.size() > kNamedAtMost)
      note.text(fmt::format(" and {} more", names.size() - kNamedAtMost));
    note.text(": " + why);
  }
  note.text(".");
  out.note = Note(NoteKind::CountsNotMade, std::move(note).take());
  return out;
}

}  // namespace benchpr
