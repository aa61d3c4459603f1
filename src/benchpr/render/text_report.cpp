#include "benchpr/render/text_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/base/text.hpp"
#include "benchpr/core/bisect/bisect.hpp"
#include "benchpr/core/evidence/cycle_estimate.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/notes/comment_notes.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/escape.hpp"
#include "benchpr/render/units.hpp"
#include "benchpr/render/utf8.hpp"
#include "benchpr/render/view_model.hpp"

namespace benchpr::render {

namespace {

constexpr std::size_t kNameMaxChars = 80;
constexpr std::size_t kReasonMaxChars = 160;

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kDim = "\x1b[2m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kCyan = "\x1b[36m";

std::string_view verdict_color(Verdict v) {
  switch (v) {
    case Verdict::Regression:
    case Verdict::Failed:
      return kRed;
    case Verdict::Improvement:
      return kGreen;
    case Verdict::Slower:
      return kYellow;
    case Verdict::Faster:
      return kCyan;
    case Verdict::Unchanged:
      return kDim;
    default:
      return "";
  }
}

std::string_view recommendation_color(RecommendationKind k) {
  switch (k) {
    case RecommendationKind::Merge:
      return kGreen;
    case RecommendationKind::DoNotMerge:
    case RecommendationKind::Failed:
      return kRed;
    default:
      return kYellow;
  }
}

// Terminal columns of a cleaned one-line string: one per code point (names and units are
// mostly ASCII; "µ", "…" and "−" are one column wide).
std::size_t width(std::string_view text) { return utf8::decode(text).size(); }

std::string pad_right(const std::string& text, std::size_t w) {
  const std::size_t n = width(text);
  return n >= w ? text : text + std::string(w - n, ' ');
}

std::string pad_left(const std::string& text, std::size_t w) {
  const std::size_t n = width(text);
  return n >= w ? text : std::string(w - n, ' ') + text;
}

struct Line {
  Verdict verdict;
  std::array<std::string, 6> cells;  // verdict, name, base, PR, change, CI (its level)
  std::string reason;                // after the CI: why inconclusive or failed
};

std::string painted(std::string_view color, const std::string& text, bool on) {
  if (!on || color.empty()) return text;
  return std::string(color) + text + std::string(kReset);
}

std::string reason_of(const BenchmarkAnalysis& b, double run_threshold, std::size_t family) {
  const double threshold = b.threshold;
  // Why a significant change is not a regression/improvement (the markdown's verdict cell says
  // the same); it names the threshold it was judged by.
  if (std::string why = size_note(b, family); !why.empty()) return why;
  const bool own = b.verdict != Verdict::Failed && b.verdict != Verdict::Added &&
                   b.verdict != Verdict::Removed && std::fabs(threshold - run_threshold) > 1e-12;
  const std::string own_text = own ? "threshold ±" + format_percent(threshold) : "";
  if (b.verdict != Verdict::Inconclusive && b.verdict != Verdict::Failed) return own_text;
  // "no signal: the 95% CI ... is wider than ..." repeats the columns beside it.
  // Rather, the tightest statement the data support: how large a change the CI leaves open.
  std::string why = b.no_signal ? no_change_beyond(b) : one_line(b.reason, kReasonMaxChars);
  if (why.empty()) why = "no signal";
  if (b.rounds_needed && *b.rounds_needed > 0)
    why +=
        fmt::format("; ≈ {} rounds would settle ±{}", *b.rounds_needed, format_percent(threshold));
  else if (own)
    why += "; " + own_text;
  return why;
}

// The interval that decided the row, labelled with its level, as the markdown shows it: an
// `unchanged` row's equivalence interval (90%, or an adaptive look's level), which the rule
// tested against the threshold; the 95% CI otherwise; "exact" for an instruction count.
std::string interval_cell(const BenchmarkAnalysis& b, const Analysis& analysis) {
  if (is_instruction_analysis(b) && std::isfinite(b.change)) return "exact";
  const bool equivalence =
      b.verdict == Verdict::Unchanged && std::isfinite(b.eq_low) && std::isfinite(b.eq_high);
  const double low = equivalence ? b.eq_low : b.ci_low;
  const double high = equivalence ? b.eq_high : b.ci_high;
  const std::string ci = format_ci(low, high);
  if (!std::isfinite(low) || !std::isfinite(high)) return ci;
  const double level =
      equivalence ? (std::isfinite(b.eq_level) ? b.eq_level : analysis.equivalence_level) : 0.95;
  return ci + " (" + format_level(level) + ")";
}

}  // namespace

std::string render_text_report(const Results& results, const Analysis& analysis,
                               const TextOptions& options) {
  const bool color = options.color;
  std::string out;
  const std::string headline = headline_phrase(results, analysis, false);
  out += painted(kBold, "benchpr: " + headline, color) + "\n";
  // Files and executables have no commit: what was compared is named in the note below.
  const bool commits = results.origin == Origin::Revisions;
  out += fmt::format("base {} vs PR {} · {} analysed round{} · threshold ±{}\n\n",
                     commits ? short_sha(results.base.sha) : one_line(results.base.spec, 60),
                     commits ? short_sha(results.head.sha) : one_line(results.head.spec, 60),
                     analysis.analysed_rounds, analysis.analysed_rounds == 1 ? "" : "s",
                     format_percent(results.config.threshold));

  std::vector<std::size_t> order(analysis.benchmarks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto magnitude = [&](std::size_t i) {
    const double c = analysis.benchmarks[i].change;
    return std::isfinite(c) && c > -1 ? std::fabs(std::log1p(c)) : -1.0;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const int ra = verdict_order(analysis.benchmarks[a].verdict);
    const int rb = verdict_order(analysis.benchmarks[b].verdict);
    if (ra != rb) return ra < rb;
    return magnitude(a) > magnitude(b);
  });

  const bool multi_suite = analysis.suites.size() > 1;
  std::size_t family = 0;  // benchmarks with a p value: the correction's family
  for (const BenchmarkAnalysis& b : analysis.benchmarks) family += std::isfinite(b.p) ? 1 : 0;
  std::vector<Line> lines;
  lines.push_back(
      {Verdict::Inconclusive, {"verdict", "benchmark", "base", "PR", "change", "CI (level)"}, ""});
  for (std::size_t i : order) {
    const BenchmarkAnalysis& b = analysis.benchmarks[i];
    std::string name = one_line(b.name, kNameMaxChars);
    // An instruction count sits beside the same benchmark's time: its suite tells them apart.
    const bool count = is_instruction_analysis(b);
    if (multi_suite || count) name = one_line(b.suite, 40) + " / " + name;
    // Identical programs ran no round: no change or interval, only why.
    const bool identical = decided_by_identical_programs(b);
    std::string reason = identical ? std::string() : reason_of(b, results.config.threshold, family);
    // Beside a count, Callgrind's estimate of cycles (evidence, not the verdict).
    if (const std::string cycles = count ? cycles_phrase(b) : std::string(); !cycles.empty())
      reason += (reason.empty() ? "" : " · ") + cycles;
    lines.push_back({b.verdict,
                     {std::string(to_string(b.verdict)), name, format_value(b.base_value, b.unit),
                      format_value(b.head_value, b.unit),
                      identical ? std::string("—") : format_change(b.change, b.better),
                      identical ? std::string(kIdenticalProgramsCell) : interval_cell(b, analysis)},
                     reason});
  }
  std::array<std::size_t, 6> w{};
  for (const Line& l : lines)
    for (std::size_t c = 0; c < w.size(); ++c) w[c] = std::max(w[c], width(l.cells[c]));

  for (std::size_t k = 0; k < lines.size(); ++k) {
    const Line& l = lines[k];
    const bool header = k == 0;
    std::string row = "  ";
    row += painted(header ? "" : verdict_color(l.verdict), pad_right(l.cells[0], w[0]), color);
    row += "  " + pad_right(l.cells[1], w[1]);
    for (std::size_t c = 2; c < 5; ++c) row += "  " + pad_left(l.cells[c], w[c]);
    row += "  " + (l.reason.empty() ? l.cells[5] : pad_right(l.cells[5], w[5]));
    if (!l.reason.empty()) row += "  " + painted(kDim, l.reason, color);
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += painted(header ? kBold : "", row, color) + "\n";
  }
  if (analysis.benchmarks.empty()) out += "  (no benchmarks)\n";
  if (results.bisect && results.bisect->commits.size() >= 2) {
    // Which commit each followed change came with (docs/bisect.md).
    const BisectReport report = attribute(*results.bisect);
    out += "\n" + painted(kBold, "Which commit", color) + "\n";
    for (const BisectFinding& f : report.findings)
      out +=
          "  " + one_line(f.name, kNameMaxChars) + ": " + one_line(plain_text(f.line), 400) + "\n";
    out += "  " + painted(kDim, one_line(plain_text(report.summary), 400), color) + "\n";
  }

  std::vector<std::string> notes;
  // Too few rounds for any verdict: the comment's sentence, first as there.
  if (const std::optional<Note> few = too_few_rounds_note(results, analysis))
    notes.push_back(one_line(few->plain(), 400));
  for (const Note& n : analysis.notes) notes.push_back(one_line(n.plain(), 400));
  if (!notes.empty()) out += "\n";
  for (const std::string& n : notes) out += "  " + n + "\n";

  const Recommendation& rec = analysis.recommendation;
  out += "\n" +
         painted(recommendation_color(rec.kind),
                 fmt::format("{}{}{}: {}", to_string(rec.kind),
                             rec.mixed ? " (a regression, and also an improvement)" : "",
                             rec.incomplete ? " (incomplete)" : "", one_line(rec.reason, 400)),
                 color) +
         "\n";
  return out;
}

}  // namespace benchpr::render
