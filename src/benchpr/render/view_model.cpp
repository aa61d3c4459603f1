#include "benchpr/render/view_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/evidence/cycle_estimate.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/evidence/placement.hpp"
#include "benchpr/core/model/placement_rotation.hpp"
#include "benchpr/core/notes/comment_notes.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/escape.hpp"
#include "benchpr/render/parameter_groups.hpp"
#include "benchpr/render/units.hpp"
#include "benchpr/render/why_section.hpp"

namespace benchpr::render {

namespace {

using Data = kainjow::mustache::data;

constexpr std::size_t kReasonMaxChars = 1000;
constexpr std::size_t kNoteMaxChars = 500;
// The note on instruction counts is one long sentence of benchpr's own words.
constexpr std::size_t kInstructionsNoteMaxChars = 2000;
constexpr std::size_t kCellReasonMaxChars = 120;

struct VerdictStyle {
  Verdict verdict;
  std::string_view key;  // the verdict's name in the results file and the templates' `counts`
  std::string_view emoji;
  std::string_view singular;
  std::string_view plural;
};

// Headline order: what needs attention first, then the reassuring, then the bookkeeping.
constexpr std::array<VerdictStyle, 10> kStyles{{
    {Verdict::Regression, "regression", "❌", "regression", "regressions"},
    {Verdict::Improvement, "improvement", "⚡", "improvement", "improvements"},
    {Verdict::Slower, "slower", "🐢", "slower", "slower"},
    {Verdict::Faster, "faster", "🐇", "faster", "faster"},
    {Verdict::Placement, "placement", "📐", "code placement", "code placement"},
    {Verdict::Unchanged, "unchanged", "✅", "unchanged", "unchanged"},
    {Verdict::Inconclusive, "inconclusive", "❔", "inconclusive", "inconclusive"},
    {Verdict::Added, "added", "➕", "added", "added"},
    {Verdict::Removed, "removed", "➖", "removed", "removed"},
    {Verdict::Failed, "failed", "💥", "failed", "failed"},
}};

const VerdictStyle& style(Verdict v) {
  for (const auto& s : kStyles)
    if (s.verdict == v) return s;
  return kStyles[6];
}

// "2%", "2.5%", "0.5%": the threshold as configured, without trailing zeros.
std::string threshold_text(double threshold) { return fmt::format("{:.3g}%", threshold * 100); }

std::string revision_text(const RevisionInfo& rev) {
  const std::string sha = short_sha(rev.sha);
  // --head WORKTREE: the snapshot commit is no commit of the user's; say what it is.
  if (!sha.empty() && rev.spec == "WORKTREE") return "`" + sha + "` (the working tree)";
  if (!sha.empty()) return "`" + sha + "`";
  if (!rev.spec.empty()) return code_span(rev.spec, false, 60);
  return "?";
}

// What a row's verdict needs besides its benchmark: the family the correction ran over, the
// levels used, the threshold.
struct RowContext {
  std::string threshold;  // "2%"
  double run_threshold = 0.02;
  std::size_t family = 0;  // benchmarks with a p value (the Benjamini-Hochberg family)
  double alpha = 0.05;
  double equivalence_level = 0.90;
  // The unchanged benchmarks' intervals were computed at different levels (adaptive looks):
  // each interval cell names its own.
  bool levels_differ = false;
  std::string instruction_threshold;  // "0.5%"
  // The lines under changed rows from a search for the commits behind them (core/bisect).
  const std::map<std::pair<std::string, std::string>, std::string>* bisect_lines = nullptr;
  const Results* results = nullptr;  // for the profiles that say where a change is
};

// "90%", "96.7%": the level an interval was computed at.
std::string level_text(double level) { return format_level(level); }

// The level a benchmark's equivalence interval was computed at: its own when recorded (an
// adaptive look's), else the run's.
double eq_level_of(const BenchmarkAnalysis& b, const RowContext& ctx) {
  return std::isfinite(b.eq_level) ? b.eq_level : ctx.equivalence_level;
}

std::string p_text(double p) {
  if (p < 0.001) return "< 0.001";
  return fmt::format("{:.3f}", p);
}

// A 95% CI that excludes 0 beside "inconclusive" reads as a contradiction; the reason is the
// correction over the family, so say so with both numbers.
bool lost_to_correction(const BenchmarkAnalysis& b, double alpha) {
  return std::isfinite(b.p) && std::isfinite(b.p_adjusted) && b.p <= alpha && b.p_adjusted > alpha;
}

// A benchmark judged by a threshold of its own (a suite's or a `benchmarks:` rule's).
bool own_threshold(const BenchmarkAnalysis& b, const RowContext& ctx) {
  if (is_instruction_analysis(b)) return false;  // judged by instruction_threshold, said so
  switch (b.verdict) {
    case Verdict::Added:
    case Verdict::Removed:
    case Verdict::Failed:
      return false;
    default:
      return std::fabs(b.threshold - ctx.run_threshold) > 1e-12;
  }
}

std::string inconclusive_text(const BenchmarkAnalysis& b, const RowContext& ctx) {
  const std::string threshold = threshold_text(b.threshold);
  std::string why;
  if (b.has_flag(BenchmarkFlag::Order)) {
    why = "sign follows run order";
  } else if (lost_to_correction(b, ctx.alpha)) {
    why = fmt::format("not significant after correcting for {} (p {}, corrected {})",
                      plural(ctx.family, "benchmark", "benchmarks"), p_text(b.p),
                      p_text(b.p_adjusted));
  } else if (b.reason.empty() || b.no_signal) {
    // The tightest statement the data support: how large a change the CI still leaves open.
    why = no_change_beyond(b);
    if (why.empty()) why = "no signal";
  } else {
    why = escape_inline(b.reason, kCellReasonMaxChars);
  }
  std::string text = fmt::format("{} inconclusive: {}", style(Verdict::Inconclusive).emoji, why);
  if (b.rounds_needed && *b.rounds_needed > 0) {
    text += fmt::format("; ≈ {} rounds would settle ±{}", *b.rounds_needed, threshold);
  }
  return text;
}

std::string equivalence_ci(const BenchmarkAnalysis& b) { return format_ci(b.eq_low, b.eq_high); }

// "478,887 instructions per iteration" (the same on both sides), or "478,887 → 478,901".
std::string counts_text(const BenchmarkAnalysis& b) {
  const std::string base = count_text(b.instructions_base);
  const std::string head = count_text(b.instructions_head);
  return base == head
             ? fmt::format("same instructions ({} per iteration)", base)
             : fmt::format("same instructions within {} ({} → {} per iteration)",
                           format_signed_percent(b.instructions_head / b.instructions_base - 1),
                           base, head);
}

// "+16 bytes", "−32 bytes".
std::string shift_text(std::int64_t shift) {
  return fmt::format("{}{} bytes", shift < 0 ? "−" : "+", shift < 0 ? -shift : shift);
}

// The hot functions and how far they moved: "`contains` moved by +16 bytes", or, when they
// moved by different distances, each with its own (at most kShownHot named).
std::string moved_text(const CodeEvidence& e) {
  constexpr std::size_t kShownHot = 2;
  std::vector<const HotFunction*> moved;
  for (const HotFunction& f : e.functions)
    if (!f.outside && f.shift() != 0) moved.push_back(&f);
  if (moved.empty()) return "";
  bool one_shift = true;
  for (const HotFunction* f : moved) one_shift &= f->shift() == moved.front()->shift();
  std::string names;
  for (std::size_t i = 0; i < moved.size() && i < kShownHot; ++i) {
    if (i > 0) names += ", ";
    names += code_span(moved[i]->name, true, 60);
    if (!one_shift) names += " " + shift_text(moved[i]->shift());
  }
  if (moved.size() > kShownHot) names += fmt::format(" and {} more", moved.size() - kShownHot);
  return one_shift ? fmt::format("{} moved by {}", names, shift_text(moved.front()->shift()))
                   : names + " moved";
}

// "📐 code placement: same instructions (478,887 per iteration), hot code byte-identical,
// `f` moved by +16 bytes: not the PR's change; may flip with the next commit (time alone:
// regression)".
// "hot code byte-identical", or, where a hot function changed only where the benchmark does
// not run it, "the code it runs identical (`f` changed where it does not run)".
std::string same_code_text(const CodeEvidence* e) {
  std::string changed;
  if (e != nullptr)
    for (const HotFunction& f : e->functions)
      if (f.executed_same) {
        changed = code_span(f.name, true, 60);
        break;
      }
  if (changed.empty()) return "hot code byte-identical";
  return "the code it runs identical (" + changed + " changed only where it does not run)";
}

std::string placement_text(const BenchmarkAnalysis& b, const RowContext& ctx) {
  const CodeEvidence* e =
      ctx.results != nullptr ? find_code_evidence(*ctx.results, b.suite, b.name) : nullptr;
  const std::string moved = e != nullptr ? moved_text(*e) : std::string();
  return fmt::format(
      "code placement: {}, {}{}: not the PR's change; may flip with the next commit (time "
      "alone: {})",
      counts_text(b), same_code_text(e), moved.empty() ? "" : ", " + moved,
      to_string(b.time_verdict));
}

// "same work: same instructions (23 per iteration), hot code byte-identical; time alone: no
// change beyond ±4.6%".
std::string same_work_text(const BenchmarkAnalysis& b, const RowContext& ctx) {
  const CodeEvidence* e =
      ctx.results != nullptr ? find_code_evidence(*ctx.results, b.suite, b.name) : nullptr;
  std::string bound = no_change_beyond(b);
  if (bound.empty()) bound = "inconclusive";
  return fmt::format("same work: {}, {}; time alone: {}", counts_text(b), same_code_text(e), bound);
}

// Unchanged by the counts where time alone could not settle it: shown with the changed rows.
bool read_unchanged_by_counts(const BenchmarkAnalysis& b) {
  return b.code_reading == CodeReading::SameWork || b.code_reading == CodeReading::SameCount;
}

// "`n_sec` and 1 more changed": the hot functions the PR changed (other bytes, or in one build
// only), as the evidence names them; "" without evidence.
std::string changed_code_text(const CodeEvidence* e) {
  if (e == nullptr) return "";
  constexpr std::size_t kShownHot = 2;
  std::vector<const HotFunction*> changed;
  for (const HotFunction& f : e->functions)
    if (!f.same_where_run()) changed.push_back(&f);
  std::string names;
  for (std::size_t i = 0; i < changed.size() && i < kShownHot; ++i)
    names += (i > 0 ? ", " : "") + code_span(changed[i]->name, true, 60);
  if (changed.size() > kShownHot) names += fmt::format(" and {} more", changed.size() - kShownHot);
  return names.empty() ? "" : names + " changed";
}

// "same count: same instructions (2,644 per iteration), `n_sec` changed; time alone: at most
// 1.4% slower (−4.1 … +1.4%, 99.9% CI)": the counts rule out the better side, time the worse.
std::string same_count_text(const BenchmarkAnalysis& b, const RowContext& ctx) {
  const CodeEvidence* e =
      ctx.results != nullptr ? find_code_evidence(*ctx.results, b.suite, b.name) : nullptr;
  std::string changed = changed_code_text(e);
  // Changed only where it does not run: the PR's own Callgrind output says so, and time bounds
  // the rest (core/evidence/placement.cpp).
  if (changed.empty() && e != nullptr &&
      std::any_of(e->functions.begin(), e->functions.end(),
                  [](const HotFunction& f) { return f.executed_same; }))
    changed = same_code_text(e);
  return fmt::format("same count: {}{}; time alone: at most {} {} ({}, {} CI)", counts_text(b),
                     changed.empty() ? "" : ", " + changed,
                     format_percent(std::max(0.0, worse_bound(b))), worse_word(b.better),
                     equivalence_ci(b), level_text(eq_level_of(b, ctx)));
}

// "instructions decided: +3.0% per iteration (822 → 847)".
std::string counts_decided_text(const BenchmarkAnalysis& b) {
  return fmt::format("instructions decided: {} per iteration ({} → {})",
                     format_signed_percent(b.instructions_head / b.instructions_base - 1),
                     count_text(b.instructions_base), count_text(b.instructions_head));
}

std::string verdict_text(const BenchmarkAnalysis& b, const RowContext& ctx) {
  const VerdictStyle& s = style(b.verdict);
  if (b.code_reading == CodeReading::Placement)
    return fmt::format("{} {}", s.emoji, placement_text(b, ctx));
  if (b.code_reading == CodeReading::SameWork)
    return fmt::format("{} unchanged: {}", s.emoji, same_work_text(b, ctx));
  if (b.code_reading == CodeReading::SameCount)
    return fmt::format("{} unchanged: {}", s.emoji, same_count_text(b, ctx));
  if (is_instruction_analysis(b) && b.verdict == Verdict::Unchanged)
    return fmt::format("{} unchanged: within ±{} (exact count)", s.emoji,
                       ctx.instruction_threshold);
  if (b.verdict == Verdict::Inconclusive) {
    std::string text = inconclusive_text(b, ctx);
    if (own_threshold(b, ctx) && !(b.rounds_needed && *b.rounds_needed > 0))
      text += " · threshold ±" + threshold_text(b.threshold);
    if (b.code_reading == CodeReading::CountsDecided) text += " · " + counts_decided_text(b);
    return text;
  }
  if (decided_by_identical_programs(b))
    return fmt::format("{} unchanged: the benchmark programs are byte-identical, no rounds needed",
                       s.emoji);
  if (b.verdict == Verdict::Unchanged && std::isfinite(b.eq_low) && std::isfinite(b.eq_high)) {
    // The row's CI column is the 95% one; the rule tested this narrower interval.
    return fmt::format("{} unchanged: {} CI {} inside ±{}", s.emoji,
                       level_text(eq_level_of(b, ctx)), equivalence_ci(b),
                       threshold_text(b.threshold));
  }
  if (b.verdict == Verdict::Failed) {
    return fmt::format(
        "{} failed: {}", s.emoji,
        b.reason.empty() ? std::string("no values") : escape_inline(b.reason, kCellReasonMaxChars));
  }
  // Why a significant change is not a regression/improvement, so a −4.3% `faster` beside a
  // +4.3% `regression` reads as consistent. The note names the threshold it was judged by.
  if (const std::string why = size_note(b, ctx.family); !why.empty())
    return fmt::format("{} {}: {}", s.emoji, s.singular, escape_inline(why, kCellReasonMaxChars));
  if (own_threshold(b, ctx))
    return fmt::format("{} {} · threshold ±{}", s.emoji, s.singular, threshold_text(b.threshold));
  return fmt::format("{} {}", s.emoji, s.singular);
}

TableRow make_row(const BenchmarkAnalysis& b, const RowContext& ctx) {
  TableRow row;
  row.verdict = b.verdict;
  row.suite = escape_inline(b.suite, 80);
  row.name = code_span(b.name);
  row.base = format_value(b.base_value, b.unit, UnitText::Markdown);
  row.head = format_value(b.head_value, b.unit, UnitText::Markdown);
  row.change = format_change(b.change, b.better);
  if (b.verdict == Verdict::Regression || b.verdict == Verdict::Improvement)
    row.change = "**" + row.change + "**";
  row.ci = format_ci(b.ci_low, b.ci_high);
  row.eq_ci = equivalence_ci(b);
  // A count has no interval: say why the column is empty instead of showing "+3.0 … +3.0%".
  if (is_instruction_analysis(b) && std::isfinite(b.change)) row.ci = row.eq_ci = "exact";
  if (decided_by_identical_programs(b)) {
    // No round ran: there is no change or interval to show, only why.
    row.change = "—";
    row.ci = row.eq_ci = std::string(kIdenticalProgramsCell);
  } else {
    // The unchanged list has no verdict column: its interval cell names a margin of its own.
    if (own_threshold(b, ctx)) row.eq_ci += " (inside ±" + threshold_text(b.threshold) + ")";
    if (ctx.levels_differ && b.verdict == Verdict::Unchanged && !is_instruction_analysis(b))
      row.eq_ci += " (" + level_text(eq_level_of(b, ctx)) + ")";
  }
  row.verdict_text = verdict_text(b, ctx);
  // CPU time was compared and stayed put, but the wall time moved: never let that read as a
  // plain "unchanged" (the notes give the numbers).
  if (b.has_flag(BenchmarkFlag::Waiting))
    row.verdict_text += " · ⏳ wall time moved, CPU time did not";
  // The calling thread's CPU time missed work (moved to another thread, or into waiting): the
  // row's numbers are wall time, which the notes explain.
  if (b.has_flag(BenchmarkFlag::WallTime))
    row.verdict_text += " · ⏱ wall time compared: CPU time missed work";
  if (ctx.bisect_lines != nullptr && b.verdict != Verdict::Unchanged)
    if (const auto it = ctx.bisect_lines->find({b.suite, b.name}); it != ctx.bisect_lines->end())
      row.bisect = it->second;
  if (ctx.results) row.verdict_text += why_cell_phrase(*ctx.results, b);
  // Beside a count, what Callgrind's cache simulation estimates: evidence, last, after the
  // verdict and where its instructions changed.
  if (is_instruction_analysis(b))
    if (const std::string cycles = cycles_phrase(b); !cycles.empty())
      row.verdict_text += " · " + cycles;
  return row;
}

// |ln(head/base)|, so 3× faster and 3× slower weigh the same; unknown changes sort last.
double magnitude(const BenchmarkAnalysis& b) {
  if (std::isnan(b.change) || b.change <= -1) return -1;
  return std::fabs(std::log1p(b.change));
}

std::string round_cell(double change, bool dropped) {
  if (std::isnan(change)) return "—";
  // Large per-round changes read as ratios, like the change column ("16×" not "+1536.4%").
  std::string text = change + 1 >= 2 ? format_ratio(change + 1) : format_signed_percent(change);
  return dropped ? "(" + text + ")" : text;
}

std::string partial_note(const Results& results, const Analysis& analysis) {
  if (results.complete) return "";
  return partial_results_notice(analysis.analysed_rounds, planned_rounds(results),
                                escape_inline(stopped_because(results), 200));
}

// What a suite's geometric mean summarises ("3 inconclusive, 1 regression") and, when one
// benchmark carries most of it, which one and what the others come to without it
// (core/comment_notes decides both).
void describe_suite_mean(const Analysis& analysis, const SuiteSummary& s, double threshold,
                         SuiteView& out) {
  const SuiteMeanReading reading = read_suite_mean(analysis, s, threshold);
  std::vector<std::pair<std::string, int>> counts;
  for (const VerdictStyle& st : kStyles)
    if (const auto it = reading.verdicts.find(st.verdict); it != reading.verdicts.end())
      counts.emplace_back(std::string(st.key), it->second);
  out.mix = count_phrase(counts, false);
  if (reading.driver)
    out.driver = fmt::format("mostly from {}; without it: {}", code_span(*reading.driver),
                             format_signed_percent(reading.without_driver));
}

std::string machine_text(const MachineInfo& m) {
  std::string out = escape_inline(m.cpu, 100);
  if (m.cores > 0) {
    if (!out.empty()) out += ", ";
    out += plural(static_cast<std::size_t>(m.cores), "core", "cores");
  }
  return out.empty() ? "an unknown machine" : out;
}

// "3 shards: 1 and 3 on AMD EPYC, 2 cores; 2 on Intel Xeon, 4 cores; 4 missing": shards that
// ran on alike machines are named together, so a 50-shard matrix stays one line.
std::string shard_machines(const ShardInfo& info) {
  std::vector<std::pair<std::string, std::vector<int>>> groups;
  std::vector<int> missing;
  for (const ShardRecord& s : info.shards) {
    if (s.file.empty()) {
      missing.push_back(s.index);
      continue;
    }
    const std::string m = machine_text(s.machine) + (s.complete ? "" : " (incomplete)");
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == m; });
    if (it == groups.end()) {
      groups.push_back({m, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(s.index);
  }
  const auto list = [](const std::vector<int>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += i + 1 == v.size() ? " and " : ", ";
      out += std::to_string(v[i]);
    }
    return out;
  };
  std::string out = fmt::format("{} shards: ", info.count);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (i > 0) out += "; ";
    out += list(groups[i].second) + " on " + groups[i].first;
  }
  if (!missing.empty()) out += (groups.empty() ? "" : "; ") + list(missing) + " missing";
  return out;
}

// What the run could detect, for the label that blocks a merge and for being called at all: the
// sizes found with 80% power (medians over the benchmarks). Smaller changes are still called
// when the noise allows, so the footer says that too instead of standing beside a 1.5% `slower`
// as if the run could not have seen it.
std::string detectable_text(const Analysis& analysis) {
  std::size_t with_mde = 0;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) with_mde += std::isfinite(b.mde) ? 1 : 0;
  std::string text = "changes this run finds with 80% power (median over " +
                     plural(with_mde, "benchmark", "benchmarks") + "): ";
  if (std::isfinite(analysis.run_mde_label) && analysis.run_mde_label > 0)
    text += "±" + format_percent(analysis.run_mde_label) + " as a regression or improvement, ";
  text += "±" + format_percent(analysis.run_mde) +
          " as significant; smaller ones are called when the rounds agree closely";
  return text;
}

std::string footer(const Results& results, const Analysis& analysis) {
  std::vector<std::string> parts;
  int warmups = 0;
  for (const RoundPlan& r : results.plan) warmups += r.warmup ? 1 : 0;
  if (results.plan.empty()) warmups = results.config.warmup_rounds;
  std::string rounds =
      plural(static_cast<std::size_t>(std::max(0, analysis.analysed_rounds)), "round", "rounds");
  if (warmups > 0)
    rounds += " + " + plural(static_cast<std::size_t>(warmups), "warm-up", "warm-ups");
  if (analysis.analysed_rounds <= 0 && results.rounds_done <= 0) {
    parts.push_back("no rounds ran");
  } else if (results.origin == Origin::ResultFiles) {
    parts.push_back(rounds + " paired from result files, run order unknown");
  } else {
    const std::string placements = placement_rotation_text(results.placement_shifts);
    parts.push_back(rounds + ", interleaved AB/BA" + (placements.empty() ? "" : ", " + placements));
  }
  parts.push_back(
      fmt::format("base {} vs PR {}", revision_text(results.base), revision_text(results.head)));
  std::string machine = escape_inline(results.machine.cpu, 100);
  if (results.machine.cores > 0) {
    if (!machine.empty()) machine += ", ";
    machine += plural(static_cast<std::size_t>(results.machine.cores), "core", "cores");
  }
  if (results.shard && results.shard->index == 0 && !results.shard->shards.empty()) {
    parts.push_back(shard_machines(*results.shard));
  } else {
    if (results.shard && results.shard->index > 0)
      parts.push_back(fmt::format("shard {} of {}", results.shard->index, results.shard->count));
    if (!machine.empty()) parts.push_back(machine);
  }
  if (std::isfinite(analysis.run_mde) && analysis.run_mde > 0)
    parts.push_back(detectable_text(analysis));
  if (results.measuring_seconds > 0) {
    std::string spent = measured_for(results);
    if (results.time_plan && results.time_plan->budget_seconds > 0)
      spent += " of a " + format_duration(results.time_plan->budget_seconds) + " budget";
    parts.push_back(spent);
  }
  if (const std::string url = safe_https_url(results.workflow_run_url); !url.empty()) {
    parts.push_back("[workflow run](" + url + ")");
  }
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += " · ";
    out += p;
  }
  return out;
}

// A sentence with benchmark names as code spans where core marked them; each fragment is
// escaped on its own so a name cannot escape its span.
std::string inline_parts(const std::vector<TextPart>& parts, std::size_t max_chars) {
  std::string out;
  for (const TextPart& part : parts) {
    if (out.size() > max_chars * 2) {
      out += "…";
      break;
    }
    if (part.code) {
      out += code_span(part.text, false);
      continue;
    }
    // escape_inline trims; the spaces around a fragment separate it from its neighbours.
    const bool lead = !part.text.empty() && (part.text.front() == ' ');
    const bool trail = part.text.size() > 1 && part.text.back() == ' ';
    if (lead) out += ' ';
    out += escape_inline(part.text, max_chars);
    if (trail) out += ' ';
  }
  return out;
}

std::string recommendation_reason(const Recommendation& rec) {
  if (rec.reason_parts.empty()) return escape_inline(rec.reason, kReasonMaxChars);
  return inline_parts(rec.reason_parts, kReasonMaxChars);
}

Data strings(const std::vector<std::string>& items, std::size_t limit = ViewLimits::kAll) {
  Data list(Data::type::list);
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) list.push_back(Data(items[i]));
  return list;
}

Data row_data(const TableRow& r) {
  Data d;
  d["suite"] = Data(r.suite);
  d["name"] = Data(r.name);
  d["base"] = Data(r.base);
  d["head"] = Data(r.head);
  d["change"] = Data(r.change);
  d["ci"] = Data(r.ci);
  d["eq_ci"] = Data(r.eq_ci);
  d["verdict"] = Data(r.verdict_text);
  return d;
}

// The first `shown` changed rows, split into their tables (a table whose rows are all left out
// disappears; one cut short keeps its header).
Data tables_data(const CommentView& v, std::size_t shown) {
  Data tables(Data::type::list);
  std::size_t i = 0;
  while (i < shown) {
    const std::size_t t = v.changed[i].table;
    const ChangedTable& table = v.changed_tables.at(t);
    Data item;
    item["grouped"] = Data(table.grouped);
    item["title"] = Data(table.title);
    Data headers(Data::type::list);
    for (std::size_t k = 0; k < table.param_headers.size(); ++k) {
      Data h;
      h["name"] = Data(table.param_headers[k]);
      h["align"] = Data(std::string(table.param_numeric[k] ? "--:" : ":--"));
      headers.push_back(h);
    }
    item["param_headers"] = std::move(headers);
    Data rows(Data::type::list);
    for (; i < shown && v.changed[i].table == t; ++i) {
      Data row = row_data(v.changed[i]);
      row["params"] = strings(v.changed[i].params);
      // The line under the row fills its first cell; the others stay empty.
      const std::size_t cells =
          (table.grouped ? v.changed[i].params.size() : (v.multi_suite ? 2 : 1)) + 5;
      row["bisect"] = v.changed[i].bisect.empty() ? Data(false) : Data(v.changed[i].bisect);
      std::string pad;
      for (std::size_t k = 1; k < cells; ++k) pad += " |";
      row["bisect_pad"] = Data(pad);
      rows.push_back(row);
    }
    item["rows"] = std::move(rows);
    tables.push_back(item);
  }
  return tables;
}

// "… and 1234 more benchmarks (800 inconclusive, 434 added)".
std::string more_rows_text(const std::vector<TableRow>& rows, std::size_t shown) {
  std::vector<std::pair<std::string, int>> counts;
  for (const VerdictStyle& s : kStyles) {
    int n = 0;
    for (std::size_t i = shown; i < rows.size(); ++i) n += rows[i].verdict == s.verdict;
    if (n > 0) counts.emplace_back(std::string(s.key), n);
  }
  return fmt::format("… and {} ({})",
                     plural(rows.size() - shown, "more benchmark", "more benchmarks"),
                     count_phrase(counts, false));
}

// The changed section as tables. Benchmarks that differ only by parameters get a table of their
// own, with every member (unchanged ones too, so a size sweep reads complete) ordered by the
// parameters, placed where its most pressing member would be. Within one verdict rank the
// plain rows come first, then the parameter tables; consecutive plain rows share one table.
void lay_out_changed(const Analysis& analysis, const std::vector<std::size_t>& order,
                     bool multi_suite, const RowContext& ctx, CommentView& v) {
  const auto& benches = analysis.benchmarks;
  std::vector<ParameterGroup> groups = find_parameter_groups(benches);
  std::erase_if(groups, [&](const ParameterGroup& g) {
    return std::all_of(g.members.begin(), g.members.end(),
                       [&](std::size_t i) { return benches[i].verdict == Verdict::Unchanged; });
  });
  std::vector<int> group_of(benches.size(), -1);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t i : groups[g].members) group_of[i] = static_cast<int>(g);

  struct Block {
    int rank;
    int group;  // -1: a plain row
    std::size_t index;
  };
  std::vector<Block> blocks;
  std::vector<bool> placed(groups.size(), false);
  for (std::size_t i : order) {
    const int g = group_of[i];
    if (g >= 0 && placed[static_cast<std::size_t>(g)]) continue;
    if (g >= 0) placed[static_cast<std::size_t>(g)] = true;
    blocks.push_back({verdict_order(benches[i].verdict), g, i});
  }
  std::stable_sort(blocks.begin(), blocks.end(), [](const Block& a, const Block& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    return (a.group >= 0) < (b.group >= 0);
  });

  for (const Block& block : blocks) {
    if (block.group < 0) {
      if (v.changed_tables.empty() || v.changed_tables.back().grouped)
        v.changed_tables.emplace_back();
      TableRow row = make_row(benches[block.index], ctx);
      row.table = v.changed_tables.size() - 1;
      v.changed.push_back(std::move(row));
      continue;
    }
    const ParameterGroup& g = groups[static_cast<std::size_t>(block.group)];
    ChangedTable table;
    table.grouped = true;
    table.title = "**" + code_span(g.base, false) + "**";
    if (multi_suite) table.title += " in suite " + escape_inline(g.suite, 80);
    for (const std::string& key : g.keys) table.param_headers.push_back(escape_inline(key, 40));
    table.param_numeric = g.numeric;
    v.changed_tables.push_back(std::move(table));
    for (std::size_t m = 0; m < g.members.size(); ++m) {
      TableRow row = make_row(benches[g.members[m]], ctx);
      row.table = v.changed_tables.size() - 1;
      for (const std::string& value : g.values[m]) row.params.push_back(escape_inline(value, 60));
      v.changed.push_back(std::move(row));
    }
  }
  for (std::size_t i = 0; i < benches.size(); ++i) {
    if (benches[i].verdict != Verdict::Unchanged) continue;
    if (group_of[i] < 0 && read_unchanged_by_counts(benches[i])) continue;
    if (group_of[i] >= 0) {
      ++v.unchanged_in_tables;
    } else {
      v.unchanged.push_back(make_row(benches[i], ctx));
    }
  }
}

}  // namespace

std::string recommendation_title(const Recommendation& rec) {
  // The words say what the kind and the exit code say: a regression makes it "don't merge",
  // the improvement beside it does not make it a neutral "mixed".
  if (rec.mixed && rec.kind == RecommendationKind::DoNotMerge)
    return "Don't merge as is: it has a regression (and also an improvement).";
  // Benchmarks failed beside others that compared and read as a merge.
  if (rec.incomplete && rec.kind == RecommendationKind::Failed)
    return "Incomplete: no regression in what could be compared.";
  switch (rec.kind) {
    case RecommendationKind::Merge:
      return "Looks good to merge.";
    case RecommendationKind::DoNotMerge:
      return "Don't merge as is.";
    case RecommendationKind::Inconclusive:
      return "No clear answer yet.";
    case RecommendationKind::Failed:
      return "Could not compare.";
  }
  return "No clear answer yet.";
}

std::vector<std::pair<std::string, int>> count_verdicts(const Analysis& analysis) {
  std::vector<std::pair<std::string, int>> counts;
  for (const VerdictStyle& s : kStyles) {
    int n = 0;
    for (const BenchmarkAnalysis& b : analysis.benchmarks) n += b.verdict == s.verdict;
    counts.emplace_back(std::string(s.key), n);
  }
  return counts;
}

std::string count_phrase(const std::vector<std::pair<std::string, int>>& counts, bool emoji) {
  std::string out;
  for (const auto& [name, n] : counts) {
    if (n == 0) continue;
    const VerdictStyle* s = nullptr;
    for (const auto& st : kStyles)
      if (st.key == name) s = &st;
    if (!s) continue;
    if (!out.empty()) out += emoji ? " · " : ", ";
    if (emoji) out += fmt::format("{} ", s->emoji);
    out += plural(static_cast<std::size_t>(n), s->singular, s->plural);
  }
  return out;
}

std::string measured_for(const Results& results) {
  // The search for the commit runs after the comparison, inside what was left of its budget:
  // the wall time stated is the whole job's, the search's share named.
  const double bisecting = results.bisect ? std::max(0.0, results.bisect->seconds) : 0.0;
  std::string out = "measured for " + format_duration(results.measuring_seconds + bisecting);
  if (bisecting > 0) out += " (the commit search " + format_duration(bisecting) + " of it)";
  return out;
}

std::string headline_phrase(const Results& results, const Analysis& analysis, bool emoji) {
  if (analysis.benchmarks.empty()) return "nothing was compared";
  const bool none_measured =
      !results.complete && std::all_of(analysis.benchmarks.begin(), analysis.benchmarks.end(),
                                       [](const BenchmarkAnalysis& b) {
                                         return b.verdict == Verdict::Failed &&
                                                b.failure == FailureKind::NotMeasured;
                                       });
  if (none_measured)
    return fmt::format("{}stopped before any round finished ({} not measured)",
                       emoji ? "⏹️ " : "", analysis.benchmarks.size());
  return count_phrase(count_verdicts(analysis), emoji);
}

// "regression/improvement: ..." under the changed table, when a row has one of the four
// significant labels: the 95% CI column is uncorrected, while the labels are decided after the
// correction over the family, so the rule is stated where the reader compares the two.
std::string label_rule(const Analysis& analysis, std::size_t family) {
  const bool any = std::any_of(
      analysis.benchmarks.begin(), analysis.benchmarks.end(), [](const BenchmarkAnalysis& b) {
        return !is_instruction_analysis(b) &&
               (b.verdict == Verdict::Regression || b.verdict == Verdict::Improvement ||
                b.verdict == Verdict::Slower || b.verdict == Verdict::Faster);
      });
  if (!any) return "";
  return fmt::format(
      "Labels{}: regression/improvement when the change is significant, its estimate at least "
      "the threshold and the change shown beyond half of it; slower/faster when it is "
      "significant but not both.",
      family > 1 ? fmt::format(" after correcting for {} benchmarks", family) : std::string());
}

namespace {

// The comment's top: the marker, the verdict counts and headline, the recommendation, and the
// notices and notes above the tables (core/comment_notes decides which notes, in which order).
void lay_out_heading(const Results& results, const Analysis& analysis, const RenderOptions& options,
                     CommentView& v) {
  v.marker = sticky_marker(options.key);
  v.counts = count_verdicts(analysis);
  v.headline = headline_phrase(results, analysis, true);
  v.recommendation_kind = std::string(to_string(analysis.recommendation.kind));
  v.recommendation_title = recommendation_title(analysis.recommendation);
  v.recommendation_reason = recommendation_reason(analysis.recommendation);
  v.partial_note = partial_note(results, analysis);
  v.order_warning = analysis.order_warning;
  v.config_changed = results.config_changed_by_head;
  for (const Note& note : comment_notes(results, analysis))
    v.notes.push_back(inline_parts(note.parts, kNoteMaxChars));
}

// Each build that failed: its side, its reason without a closing full stop (the template adds
// its own), its time and its log's tail.
std::vector<BuildFailureView> build_failure_views(const Results& results) {
  std::vector<BuildFailureView> out;
  for (const BuildResult& b : results.builds) {
    if (b.ok) continue;
    BuildFailureView f;
    f.side = b.side == Side::Base ? "base" : "PR";
    f.failure = b.failure.empty() ? "no reason given" : escape_inline(b.failure, 200);
    while (!f.failure.empty() && f.failure.back() == '.') f.failure.pop_back();
    f.seconds = b.seconds > 0 ? format_duration(b.seconds) : "";
    if (!b.log_tail.empty()) f.log_block = escape_code_block(b.log_tail);
    out.push_back(std::move(f));
  }
  return out;
}

bool several_suites(const Analysis& analysis) {
  std::vector<std::string> suites;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    if (std::find(suites.begin(), suites.end(), b.suite) == suites.end()) suites.push_back(b.suite);
  }
  return suites.size() > 1;
}

// The benchmarks of the changed section, grouped by verdict, then by size of the change. Rows
// "unchanged: same work" and "same count" are shown with the changed ones: time alone did not
// settle them.
std::vector<std::size_t> changed_order(const Analysis& analysis) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < analysis.benchmarks.size(); ++i) {
    if (analysis.benchmarks[i].verdict != Verdict::Unchanged ||
        read_unchanged_by_counts(analysis.benchmarks[i]))
      order.push_back(i);
  }
  std::vector<double> mags(analysis.benchmarks.size());
  for (std::size_t i = 0; i < mags.size(); ++i) mags[i] = magnitude(analysis.benchmarks[i]);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const int ra = verdict_order(analysis.benchmarks[a].verdict);
    const int rb = verdict_order(analysis.benchmarks[b].verdict);
    if (ra != rb) return ra < rb;
    return mags[a] > mags[b];
  });
  return order;
}

// What every row's verdict needs: the run's thresholds and levels, and the size of the family
// the correction ran over.
RowContext row_context(const Results& results, const Analysis& analysis) {
  RowContext ctx;
  ctx.results = &results;
  ctx.threshold = threshold_text(results.config.threshold);
  ctx.run_threshold = results.config.threshold;
  ctx.alpha = analysis.alpha;
  ctx.equivalence_level = analysis.equivalence_level;
  ctx.instruction_threshold = threshold_text(results.config.instruction_threshold);
  for (const BenchmarkAnalysis& b : analysis.benchmarks) ctx.family += std::isfinite(b.p) ? 1 : 0;
  return ctx;
}

// The level the unchanged benchmarks' intervals were computed at: one for a fixed run; after
// adaptive looks each benchmark's look's, and then each cell names its own ("per-look", and
// ctx.levels_differ).
std::string equivalence_level(const Analysis& analysis, RowContext& ctx) {
  std::set<std::string> levels;
  for (const BenchmarkAnalysis& b : analysis.benchmarks)
    if (b.verdict == Verdict::Unchanged && !is_instruction_analysis(b) &&
        !decided_by_identical_programs(b))
      levels.insert(level_text(eq_level_of(b, ctx)));
  ctx.levels_differ = levels.size() > 1;
  return levels.size() == 1 ? *levels.begin()
         : levels.empty()   ? level_text(analysis.equivalence_level)
                            : std::string("per-look");
}

// The per-round table: one column per analysed round, labelled with its order (when known), and
// a row for each changed benchmark with a per-round change; a round left out as cold in
// parentheses.
void lay_out_per_round(const Results& results, const Analysis& analysis,
                       const std::vector<std::size_t>& order, CommentView& v) {
  std::vector<const RoundPlan*> analysed;
  for (const RoundPlan& r : results.plan) {
    if (!r.warmup) analysed.push_back(&r);
  }
  std::size_t columns = static_cast<std::size_t>(std::max(0, analysis.analysed_rounds));
  for (std::size_t i : order) {
    columns = std::max(columns, analysis.benchmarks[i].round_changes.size());
  }
  v.round_order_known = results.origin != Origin::ResultFiles;
  for (std::size_t c = 0; c < columns; ++c) {
    std::string label = std::to_string(c + 1);
    if (c < analysed.size() && v.round_order_known)
      label += analysed[c]->first == Side::Base ? " AB" : " BA";
    // Under the placement control: the offset both sides' code ran at, where it was moved.
    const std::size_t shifts = results.placement_shifts.size();
    if (const int slot = placement_slot(static_cast<int>(c + 1), shifts); slot > 0) {
      label += fmt::format(" +{}", results.placement_shifts[static_cast<std::size_t>(slot)]);
      v.round_placements = true;
    }
    v.round_headers.push_back(std::move(label));
  }
  for (std::size_t i : order) {
    const BenchmarkAnalysis& b = analysis.benchmarks[i];
    const auto& rc = b.round_changes;
    if (std::none_of(rc.begin(), rc.end(), [](double x) { return std::isfinite(x); })) continue;
    PerRoundRow row;
    row.suite = escape_inline(b.suite, 80);
    row.name = code_span(b.name);
    for (std::size_t c = 0; c < columns; ++c) {
      const bool dropped = b.dropped_round && *b.dropped_round == static_cast<int>(c + 1);
      row.cells.push_back(round_cell(c < rc.size() ? rc[c] : kMissing, dropped));
      v.any_cold_round |= dropped && c < rc.size() && std::isfinite(rc[c]);
    }
    row.change = format_change(b.change, b.better);
    row.worse = fmt::format("{} of {}", b.worse_rounds, b.rounds_used);
    v.per_round.push_back(std::move(row));
  }
}

// A line per suite with a mean change: the geometric mean, its interval, what it summarises.
std::vector<SuiteView> suite_views(const Results& results, const Analysis& analysis) {
  std::vector<SuiteView> out;
  for (const SuiteSummary& s : analysis.suites) {
    if (s.benchmarks == 0 || std::isnan(s.change)) continue;
    // format_change: a ratio when large, like the interval beside it ("3.2× faster").
    SuiteView sv{escape_inline(s.suite, 80),
                 std::to_string(s.benchmarks),
                 format_change(s.change, Better::Lower),
                 format_ci(s.ci_low, s.ci_high),
                 "",
                 ""};
    const SuiteConfig* suite = results.config.find_suite(s.suite);
    describe_suite_mean(
        analysis, s, suite && suite->threshold ? *suite->threshold : results.config.threshold, sv);
    out.push_back(std::move(sv));
  }
  return out;
}

// What kind of rows the tables hold, for the words around them: instruction counts (some or
// all), unchanged benchmarks decided by identical programs (some or all).
void describe_rows(const Analysis& analysis, CommentView& v) {
  v.instructions_only = !analysis.benchmarks.empty();
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    v.has_instructions |= is_instruction_analysis(b);
    v.instructions_only &= is_instruction_analysis(b);
  }
  std::size_t unchanged = 0, identical = 0;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    unchanged += b.verdict == Verdict::Unchanged ? 1 : 0;
    identical += decided_by_identical_programs(b) ? 1 : 0;
  }
  v.identical_only = identical > 0 && identical == unchanged;
  v.some_identical = identical > 0 && identical < unchanged;
}

}  // namespace

CommentView make_view(const Results& results, const Analysis& analysis,
                      const RenderOptions& options) {
  CommentView v;
  lay_out_heading(results, analysis, options, v);
  v.build_failures = build_failure_views(results);
  v.threshold = threshold_text(results.config.threshold);
  v.multi_suite = several_suites(analysis);

  const std::vector<std::size_t> order = changed_order(analysis);
  RowContext ctx = row_context(results, analysis);
  for (const BenchmarkAnalysis& b : analysis.benchmarks) v.own_thresholds |= own_threshold(b, ctx);
  v.equivalence_level = equivalence_level(analysis, ctx);
  v.bisect = make_bisect_view(results);
  if (v.bisect.present) ctx.bisect_lines = &v.bisect.lines;
  lay_out_changed(analysis, order, v.multi_suite, ctx, v);
  lay_out_per_round(results, analysis, order, v);

  v.suites = suite_views(results, analysis);
  if (const std::optional<Note> note = instructions_note(results, analysis))
    v.instructions_note = inline_parts(note->parts, kInstructionsNoteMaxChars);
  v.why_sections = why_sections(results, analysis);
  v.why_note = why_note(results);
  v.instruction_threshold = ctx.instruction_threshold;
  describe_rows(analysis, v);
  v.label_rule = label_rule(analysis, ctx.family);
  v.footer = footer(results, analysis);
  return v;
}

namespace {

// The heading's fields: the marker, headline, counts, recommendation, notices, the run's
// threshold and level, and as many notes as the limits leave.
void heading_data(const CommentView& v, const ViewLimits& limits, Data& d) {
  d["marker"] = Data(v.marker);
  d["headline"] = Data(v.headline);
  Data counts;
  for (const auto& [name, n] : v.counts) counts[name] = Data(std::to_string(n));
  d["counts"] = std::move(counts);
  Data rec;
  rec["kind"] = Data(v.recommendation_kind);
  rec["title"] = Data(v.recommendation_title);
  rec["reason"] = Data(v.recommendation_reason);
  d["recommendation"] = std::move(rec);
  d["partial_note"] = v.partial_note.empty() ? Data(false) : Data(v.partial_note);
  d["order_warning"] = Data(v.order_warning);
  d["config_changed"] = Data(v.config_changed);
  d["threshold"] = Data(v.threshold);
  d["own_thresholds"] = Data(v.own_thresholds);
  d["equivalence_level"] = Data(v.equivalence_level);
  d["multi_suite"] = Data(v.multi_suite);

  const std::size_t notes_shown = std::min(v.notes.size(), limits.notes);
  d["notes"] = strings(v.notes, notes_shown);
  d["has_notes"] = Data(notes_shown > 0);
}

// The failed builds, their logs only where the limits leave room.
Data build_failures_data(const CommentView& v, const ViewLimits& limits) {
  Data failures(Data::type::list);
  for (const BuildFailureView& f : v.build_failures) {
    Data item;
    item["side"] = Data(f.side);
    item["failure"] = Data(f.failure);
    item["seconds"] = f.seconds.empty() ? Data(false) : Data(f.seconds);
    const bool log = limits.build_logs && !f.log_block.empty();
    item["log"] = log ? Data(f.log_block) : Data(false);
    failures.push_back(item);
  }
  return failures;
}

// The changed rows the limits leave, in their tables, and what was left out of them.
void changed_data(const CommentView& v, const ViewLimits& limits, Data& d) {
  const std::size_t changed_shown = std::min(v.changed.size(), limits.changed_rows);
  Data changed(Data::type::list);
  for (std::size_t i = 0; i < changed_shown; ++i) changed.push_back(row_data(v.changed[i]));
  d["changed_rows"] = std::move(changed);
  d["changed_tables"] = tables_data(v, changed_shown);
  d["has_changed"] = Data(changed_shown > 0);
  d["changed_more"] = changed_shown < v.changed.size()
                          ? Data(more_rows_text(v.changed, changed_shown))
                          : Data(false);
}

// The unchanged rows the limits leave; the section stays (as a placeholder) when the limits
// left none of them.
void unchanged_data(const CommentView& v, const ViewLimits& limits, Data& d) {
  const std::size_t unchanged_shown = std::min(v.unchanged.size(), limits.unchanged_rows);
  Data unchanged(Data::type::list);
  for (std::size_t i = 0; i < unchanged_shown; ++i) unchanged.push_back(row_data(v.unchanged[i]));
  d["has_unchanged"] = Data(unchanged_shown > 0 || (limits.placeholders && !v.unchanged.empty()));
  d["unchanged_count"] = Data(std::to_string(v.unchanged.size()));
  d["unchanged_more_than_shown_above"] = Data(v.unchanged_in_tables > 0);
  d["unchanged_rows"] = std::move(unchanged);
  d["has_unchanged_rows"] = Data(unchanged_shown > 0);
  d["unchanged_more"] = unchanged_shown < v.unchanged.size() && unchanged_shown > 0
                            ? Data(plural(v.unchanged.size() - unchanged_shown,
                                          "more unchanged benchmark", "more unchanged benchmarks"))
                            : Data(false);
}

// The per-round table's rows the limits leave, its headers, and whether a shown row has a round
// left out as cold.
void per_round_data(const CommentView& v, const ViewLimits& limits, Data& d) {
  const std::size_t per_round_shown = std::min(v.per_round.size(), limits.per_round_rows);
  Data rounds(Data::type::list);
  for (std::size_t i = 0; i < per_round_shown; ++i) {
    const PerRoundRow& r = v.per_round[i];
    Data item;
    item["suite"] = Data(r.suite);
    item["name"] = Data(r.name);
    item["cells"] = strings(r.cells);
    item["change"] = Data(r.change);
    item["worse"] = Data(r.worse);
    rounds.push_back(item);
  }
  d["round_headers"] = strings(v.round_headers);
  d["round_order_known"] = Data(v.round_order_known);
  d["round_placements"] = Data(v.round_placements);
  d["has_per_round"] = Data(per_round_shown > 0 || (limits.placeholders && !v.per_round.empty()));
  d["per_round_rows"] = std::move(rounds);
  d["has_per_round_rows"] = Data(per_round_shown > 0);
  d["per_round_more"] =
      per_round_shown < v.per_round.size() && per_round_shown > 0
          ? Data(plural(v.per_round.size() - per_round_shown, "more benchmark", "more benchmarks"))
          : Data(false);
  d["per_round_cold"] = Data(v.any_cold_round && per_round_shown > 0);
}

// The suites' means: one line for a single suite, a table for several.
void suites_data(const CommentView& v, Data& d) {
  Data suites(Data::type::list);
  for (const SuiteView& s : v.suites) {
    Data item;
    item["name"] = Data(s.name);
    item["benchmarks"] = Data(s.benchmarks);
    item["change"] = Data(s.change);
    item["ci"] = Data(s.ci);
    item["mix"] = Data(s.mix);
    item["driver"] = s.driver.empty() ? Data(false) : Data(s.driver);
    suites.push_back(item);
  }
  // The mean of one benchmark is that benchmark's row again: no line for it.
  d["one_suite"] = v.suites.size() == 1 && v.suites.front().benchmarks != "1"
                       ? Data(suites.list_value().front())
                       : Data(false);
  d["many_suites"] = Data(v.suites.size() > 1);
  d["suites"] = std::move(suites);
  d["has_suites"] = Data(!v.suites.empty());
}

// What closes the comment: the footer, the profiles' sections, the notes on instruction counts
// and identical programs, the label rule.
void closing_data(const CommentView& v, const ViewLimits& limits, Data& d) {
  d["footer"] = Data(v.footer);
  d["why_sections"] = strings(limits.why_sections ? v.why_sections : std::vector<std::string>{});
  d["has_why"] = Data(!v.why_note.empty() || (limits.why_sections && !v.why_sections.empty()));
  d["why_note"] = v.why_note.empty() ? Data(false) : Data(v.why_note);
  d["instructions_note"] = v.instructions_note.empty() ? Data(false) : Data(v.instructions_note);
  d["has_instructions"] = Data(v.has_instructions);
  d["instructions_only"] = Data(v.instructions_only);
  d["identical_only"] = Data(v.identical_only);
  d["some_identical"] = Data(v.some_identical);
  d["identical_cell"] = Data(std::string(kIdenticalProgramsCell));
  d["label_rule"] = v.label_rule.empty() ? Data(false) : Data(v.label_rule);
  d["instruction_threshold"] = Data(v.instruction_threshold);
}

// The search for the commits behind the changes: its summary and its table.
void bisect_data(const CommentView& v, Data& d) {
  d["has_bisect"] = Data(v.bisect.present);
  d["bisect_summary"] = Data(v.bisect.summary);
  d["bisect_headers"] = strings(v.bisect.headers);
  Data bisect_rows(Data::type::list);
  for (const BisectRowView& r : v.bisect.rows) {
    Data item;
    item["commit"] = Data(r.commit);
    item["cells"] = strings(r.cells);
    bisect_rows.push_back(item);
  }
  d["bisect_rows"] = std::move(bisect_rows);
}

}  // namespace

kainjow::mustache::data to_data(const CommentView& v, const ViewLimits& limits) {
  Data d;
  heading_data(v, limits, d);
  d["build_failures"] = build_failures_data(v, limits);
  changed_data(v, limits, d);
  unchanged_data(v, limits, d);
  per_round_data(v, limits, d);
  suites_data(v, d);
  closing_data(v, limits, d);
  bisect_data(v, d);
  return d;
}

}  // namespace benchpr::render
