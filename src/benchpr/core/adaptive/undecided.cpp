#include "benchpr/core/adaptive/undecided.hpp"

#include "benchpr/core/adaptive/adaptive.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/stats/stats.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

constexpr std::size_t kNamedAtMost = 5;
constexpr double kZ975 = 1.959964;  // the normal 97.5% quantile

// Without rounds_needed the analysis found no count up to 1,000 rounds that would settle it.
bool too_noisy(const BenchmarkAnalysis& b) {
  return b.verdict == Verdict::Inconclusive && b.no_signal && b.rounds_used > 0 &&
         (!b.rounds_needed || *b.rounds_needed >= 2 * b.rounds_used);
}

}  // namespace

bool cannot_settle(const BenchmarkAnalysis& b, int reachable_rounds) {
  const bool size_open = size_open_slowdown(b);
  if ((b.verdict != Verdict::Inconclusive && !size_open) || b.rounds_used < 6) return false;
  if (!std::isfinite(b.ci_low) || !std::isfinite(b.ci_high) || !std::isfinite(b.change) ||
      b.ci_low <= -1 || b.change <= -1 || !(b.threshold > 0))
    return false;
  // The interval of few rounds is wide partly for its t quantile, which more rounds bring down
  // to the normal one: read at z (1.96) rather than t(rounds − 2), the width left is the noise's.
  // (A variance prior adds degrees of freedom, so this if anything overstates the t.)
  const double t = stats::t_quantile(0.975, b.rounds_used - 2);
  const double half =
      (std::log1p(b.ci_high) - std::log1p(b.ci_low)) / 2 * (kZ975 / std::max(t, kZ975));
  // Its own best case: no change (within ±threshold then needs a half-width of the threshold),
  // or the change it reads, where that is beyond the threshold (leaving out 0 needs that much).
  // Its estimate wanders as rounds come in, so neither the harder middle ground nor its present
  // distance from the threshold is held against it.
  // A slowdown whose size is open settles as a regression once its interval leaves out half the
  // threshold: at best (the change it reads) the half-width must shrink to the distance between
  // the two. (It may also settle by its estimate falling below the threshold, which no
  // half-width predicts; as for an inconclusive one, where its estimate wanders is not guessed.)
  const double target = size_open
                            ? std::fabs(std::log1p(b.change)) - std::log1p(b.threshold) / 2
                            : std::max(std::log1p(b.threshold), std::fabs(std::log1p(b.change)));
  if (!(half > 0) || !(target > 0)) return false;
  const double needed = b.rounds_used * (half / target) * (half / target);
  return needed > reachable_rounds;
}

double round_noise(const BenchmarkAnalysis& b) {
  std::vector<double> logs;
  for (double c : b.round_changes)
    if (std::isfinite(c) && c > -1) logs.push_back(std::log1p(c));
  if (logs.size() < 3) return NAN;
  double mean = 0;
  for (double x : logs) mean += x;
  mean /= static_cast<double>(logs.size());
  double ss = 0;
  for (double x : logs) ss += (x - mean) * (x - mean);
  return std::expm1(std::sqrt(ss / static_cast<double>(logs.size() - 1)));
}

void name_too_noisy(const Results& results, Analysis& analysis) {
  if (!results.config.budget_seconds || !results.complete) return;
  std::vector<BenchmarkAnalysis*> noisy;
  for (BenchmarkAnalysis& b : analysis.benchmarks)
    if (too_noisy(b)) noisy.push_back(&b);
  if (noisy.empty()) return;
  bool own = false;
  for (const BenchmarkAnalysis* b : noisy) own |= b->threshold != results.config.threshold;
  std::vector<TextPart> parts;
  parts.push_back({fmt::format("Too noisy to settle {} within the {} budget: ",
                               own ? std::string("their thresholds")
                                   : "±" + format_percent(results.config.threshold),
                               format_duration(*results.config.budget_seconds)),
                   false});
  for (std::size_t i = 0; i < noisy.size() && i < kNamedAtMost; ++i) {
    const BenchmarkAnalysis& b = *noisy[i];
    if (i > 0) parts.push_back({", ", false});
    parts.push_back({b.name, true});
    const double noise = round_noise(b);
    parts.push_back(
        {fmt::format(" (rounds vary by {} SD, {}; {})",
                     std::isfinite(noise) ? format_percent(noise) : "?", no_change_beyond(b),
                     b.rounds_needed ? fmt::format("≈ {} rounds would settle it", *b.rounds_needed)
                                     : std::string("more than 1,000 rounds would settle it")),
         false});
  }
  if (noisy.size() > kNamedAtMost)
    parts.push_back({fmt::format(" and {} more", noisy.size() - kNamedAtMost), false});
  parts.push_back({fmt::format(". A threshold of {} own in .benchpr.yml (a suite's ",
                               noisy.size() == 1 ? "its" : "their"),
                   false});
  parts.push_back({"benchmarks:", true});
  parts.push_back({" rule with ", false});
  parts.push_back({"threshold:", true});
  parts.push_back({") or a longer ", false});
  parts.push_back({"budget:", true});
  parts.push_back({fmt::format(" would settle {}.", noisy.size() == 1 ? "it" : "them"), false});
  analysis.notes.emplace_back(NoteKind::Other, std::move(parts));
  for (BenchmarkAnalysis* b : noisy) b->rounds_needed.reset();
}

}  // namespace benchpr
