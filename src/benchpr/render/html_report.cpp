#include "benchpr/render/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/evidence/profile_diff.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/flame_svg.hpp"
#include "benchpr/render/html_svg.hpp"
#include "benchpr/render/units.hpp"
#include "benchpr/render/view_model.hpp"
#include "benchpr/render/why_section.hpp"

namespace benchpr::render {

namespace {

constexpr std::string_view kStyle = R"(
body{margin:0;background:#fff;color:#0f172a;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}
main{max-width:1140px;margin:0 auto;padding:24px 20px 48px}
h1{font-size:24px;margin:0 0 8px}
h2{font-size:19px;margin:32px 0 8px;padding-bottom:4px;border-bottom:1px solid #e2e8f0}
h3{font-size:15px;margin:0 0 4px;display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px;word-break:break-all}
.rec{font-size:17px;padding:10px 14px;border-radius:6px;border-left:6px solid;margin:12px 0}
.rec-merge{background:#f0fdf4;border-color:#16a34a}
.rec-do-not-merge{background:#fef2f2;border-color:#dc2626}
.rec-inconclusive{background:#f5f3ff;border-color:#7c3aed}
.rec-failed{background:#fff1f2;border-color:#9f1239}
.meta,.note{color:#475569;font-size:14px;margin:4px 0}
.warn{background:#fffbeb;border:1px solid #fcd34d;border-radius:6px;padding:6px 10px;margin:8px 0}
.badge{display:inline-block;color:#fff;border-radius:10px;padding:0 9px;font-size:12px;font-weight:600;white-space:nowrap}
.suite{color:#64748b;font-size:13px}
.legend{display:flex;flex-wrap:wrap;gap:6px 18px;color:#334155;font-size:13px;margin:8px 0;padding:0;list-style:none}
.bench{border:1px solid #e2e8f0;border-radius:8px;padding:12px 14px;margin:14px 0}
.nums{color:#334155;font-size:14px;margin:0 0 6px}
.chart{overflow-x:auto}
svg{max-width:100%;height:auto;display:block}
pre{background:#f8fafc;border:1px solid #e2e8f0;padding:8px;overflow-x:auto;font-size:12px}
footer{color:#64748b;font-size:13px;margin-top:32px}
)";

double magnitude(const BenchmarkAnalysis& b) {
  if (!std::isfinite(b.change) || b.change <= -1) return -1;
  return std::fabs(std::log1p(b.change));
}

std::string badge(Verdict v) {
  return fmt::format("<span class=\"badge\" style=\"background:{}\">{}</span>", verdict_colour(v),
                     to_string(v));
}

std::string revision_html(const RevisionInfo& rev) {
  const std::string sha = short_sha(rev.sha);
  return escape_html(sha.empty() ? rev.spec : sha, 60);
}

// A sentence with names as <code>, each part escaped on its own.
std::string html_parts(const std::vector<TextPart>& parts, std::size_t max_chars) {
  std::string out;
  for (const TextPart& part : parts) {
    out += part.code ? "<code>" + escape_html(part.text) + "</code>"
                     : escape_html(part.text, max_chars);
  }
  return out;
}

std::string recommendation_html(const Recommendation& rec) {
  const std::string reason =
      rec.reason_parts.empty() ? escape_html(rec.reason, 2000) : html_parts(rec.reason_parts, 2000);
  const std::string title = recommendation_title(rec);
  return fmt::format("<p class=\"rec rec-{}\"><strong>{}</strong> {}</p>\n", to_string(rec.kind),
                     title, reason);
}

std::string meta_line(const Results& results, const Analysis& analysis) {
  int warmups = 0;
  for (const RoundPlan& r : results.plan) warmups += r.warmup ? 1 : 0;
  std::vector<std::string> parts;
  parts.push_back(fmt::format("base <code>{}</code> vs PR <code>{}</code>",
                              revision_html(results.base), revision_html(results.head)));
  parts.push_back(fmt::format(
      "{} analysed round{}{}, {}", analysis.analysed_rounds,
      analysis.analysed_rounds == 1 ? "" : "s",
      warmups > 0 ? fmt::format(" + {} warm-up", warmups) : "",
      results.origin == Origin::ResultFiles
          ? "paired from result files, run order unknown"
          : "interleaved AB/BA" + std::string(results.placement_shifts.size() > 1 ? ", " : "") +
                placement_rotation_text(results.placement_shifts)));
  parts.push_back(fmt::format("threshold \u00b1{:g}%", results.config.threshold * 100));
  if (std::isfinite(analysis.run_mde) && analysis.run_mde > 0)
    parts.push_back((std::isfinite(analysis.run_mde_label) && analysis.run_mde_label > 0
                         ? "finds \u00b1" + format_percent(analysis.run_mde_label) +
                               " as a regression/improvement, "
                         : std::string("finds ")) +
                    "\u00b1" + format_percent(analysis.run_mde) +
                    " as significant (80% power, median)");
  if (!results.machine.cpu.empty()) {
    parts.push_back(
        escape_html(results.machine.cpu, 100) +
        (results.machine.cores > 0 ? fmt::format(", {} cores", results.machine.cores) : ""));
  }
  if (results.measuring_seconds > 0) parts.push_back(measured_for(results));
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " \u00b7 ") + p;
  return "<p class=\"meta\">" + out + "</p>\n";
}

std::string numbers_line(const BenchmarkAnalysis& b) {
  std::vector<std::string> parts;
  if (std::isfinite(b.base_value) || std::isfinite(b.head_value)) {
    parts.push_back(fmt::format("base {} \u2192 PR {}",
                                escape_html(format_value(b.base_value, b.unit)),
                                escape_html(format_value(b.head_value, b.unit))));
  }
  if (decided_by_identical_programs(b)) {
    // No round ran: no change or interval to show (the reason below says why).
    parts.push_back("no rounds needed");
  } else if (std::isfinite(b.change)) {
    parts.push_back(fmt::format("<strong>{}</strong> (95% CI {})",
                                escape_html(describe_change(b.change, b.better)),
                                escape_html(format_ci(b.ci_low, b.ci_high))));
  }
  // The analysis's own sentence often already counts the rounds.
  const bool reason_counts_rounds =
      b.reason.find(fmt::format("of {} rounds", b.rounds_used)) != std::string::npos;
  if (b.rounds_used > 0 && !reason_counts_rounds) {
    parts.push_back(fmt::format("PR {} in {} of {} rounds", worse_word(b.better), b.worse_rounds,
                                b.rounds_used));
  }
  if (std::isfinite(b.mde) && b.mde > 0) parts.push_back("MDE " + format_percent(b.mde));
  if (std::isfinite(b.position_effect) && std::isfinite(b.position_p) && b.position_p < 0.05) {
    parts.push_back(fmt::format("running second shifts it by {}",
                                format_signed_percent(std::expm1(b.position_effect))));
  }
  for (const BenchmarkFlag flag : b.flags) parts.push_back("flag: " + std::string(to_string(flag)));
  if (!b.reason.empty()) parts.push_back(escape_html(b.reason, 500));
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " \u00b7 ") + p;
  return "<p class=\"nums\">" + out + "</p>\n";
}

// What each verdict's colour means, in words a reader of the chart needs (the full rules are in
// docs/results-format.md).
std::string_view verdict_meaning(Verdict v) {
  switch (v) {
    case Verdict::Regression:
      return "worse by at least the threshold";
    case Verdict::Improvement:
      return "better by at least the threshold";
    case Verdict::Slower:
      return "worse, but not shown to reach the threshold";
    case Verdict::Faster:
      return "better, but not shown to reach the threshold";
    case Verdict::Unchanged:
      return "shown to be within the threshold";
    case Verdict::Inconclusive:
      return "neither shown: more rounds would tell";
    case Verdict::Added:
      return "only the PR has it";
    case Verdict::Removed:
      return "only the base has it";
    case Verdict::Failed:
      return "no values to compare";
    case Verdict::Placement:
      return "time moved on the same instructions of the same code (where it runs) at other "
             "addresses: "
             "code placement, not the PR's change";
  }
  return "";
}

// The colour key of the badges and the change chart: the verdicts the report shows, in the
// comment's order.
std::string legend_html(const std::vector<const BenchmarkAnalysis*>& shown) {
  std::vector<Verdict> present;
  for (const BenchmarkAnalysis* b : shown)
    if (std::find(present.begin(), present.end(), b->verdict) == present.end())
      present.push_back(b->verdict);
  std::sort(present.begin(), present.end(),
            [](Verdict a, Verdict b) { return verdict_order(a) < verdict_order(b); });
  std::string out = "<ul class=\"legend\" aria-label=\"what the colours mean\">\n";
  for (Verdict v : present) out += fmt::format("<li>{} {}</li>\n", badge(v), verdict_meaning(v));
  return out + "</ul>\n";
}

const BenchmarkSeries* find_series(const Results& results, const BenchmarkAnalysis& b) {
  for (const BenchmarkSeries& s : results.series)
    if (s.suite == b.suite && s.name == b.name) return &s;
  return nullptr;
}

// Where a profiled benchmark's instructions changed: the phrase, and the differential icicle
// graph of its call tree (docs/why.md).
std::string why_html(const Results& results, const BenchmarkAnalysis& b) {
  const BenchmarkProfile* p = profile_for(results, b);
  if (p == nullptr) return "";
  const ProfileDiff d = diff_profiles(*p->base, *p->head, results.config.instruction_threshold);
  std::string html =
      "<p class=\"note\">Where it changed: " + html_parts(why_phrase(d), 500) +
      fmt::format(" (instructions per iteration under Callgrind: {} \u2192 {}).",
                  escape_html(count_text(d.before)), escape_html(count_text(d.after)));
  html +=
      " Width: each function's count in the PR, with what it calls; colour: its change from "
      "the base (red more, green fewer, grey the same); hover for the numbers.</p>\n";
  if (const std::string svg = icicle_svg(*p->base, *p->head); !svg.empty())
    html += "<div class=\"chart\">\n" + svg + "</div>\n";
  return html;
}

}  // namespace

std::string render_html_report(const Results& results, const Analysis& analysis) {
  std::vector<const BenchmarkAnalysis*> shown;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) shown.push_back(&b);
  std::stable_sort(shown.begin(), shown.end(), [](const auto* a, const auto* b) {
    if (verdict_order(a->verdict) != verdict_order(b->verdict))
      return verdict_order(a->verdict) < verdict_order(b->verdict);
    return magnitude(*a) > magnitude(*b);
  });
  const std::size_t left_out =
      shown.size() > kHtmlMaxBenchmarks ? shown.size() - kHtmlMaxBenchmarks : 0;
  shown.resize(std::min(shown.size(), kHtmlMaxBenchmarks));

  const std::string headline = headline_phrase(results, analysis, false);
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>benchpr: {}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n",
      escape_html(headline), kStyle);

  html += fmt::format("<h1>benchpr: {}</h1>\n", escape_html(headline));
  html += recommendation_html(analysis.recommendation);
  html += meta_line(results, analysis);
  if (!results.complete) {
    html += fmt::format("<p class=\"warn\">{}</p>\n",
                        partial_results_notice(analysis.analysed_rounds, planned_rounds(results),
                                               escape_html(stopped_because(results))));
  }
  if (analysis.order_warning) {
    html +=
        "<p class=\"warn\">The sign follows run order for many benchmarks: position effects "
        "dominate this machine.</p>\n";
  }
  for (const Note& note : analysis.notes) {
    // The partial run has its own warning above.
    if (note.kind == NoteKind::Partial && !results.complete) continue;
    html += "<p class=\"note\">" + html_parts(note.parts, 500) + "</p>\n";
  }
  for (const BuildResult& b : results.builds) {
    if (b.ok) continue;
    html += fmt::format("<p class=\"warn\">The {} build failed: {}</p>\n",
                        b.side == Side::Base ? "base" : "PR", escape_html(b.failure, 300));
    if (!b.log_tail.empty()) html += "<pre>" + escape_html(b.log_tail, 6000) + "</pre>\n";
  }

  if (!shown.empty()) {
    html += "<h2>Changes</h2>\n" + legend_html(shown) + "<div class=\"chart\">\n";
    html += change_chart_svg(shown, results.config.threshold);
    html += "</div>\n";
    const bool order_known = results.origin != Origin::ResultFiles;
    html += "<h2>Round by round</h2>\n";
    if (order_known) {
      html +=
          "<p class=\"note\">Each side's value in every round. Rounds are labelled AB when the "
          "base ran first and BA when the PR did; a drift shows as both sides moving together, "
          "an order effect as filled and hollow points of one side sitting apart.</p>\n";
      html += rounds_legend_svg();
    } else {
      html +=
          "<p class=\"note\">Each side's value in every round: round i is the i-th run of each "
          "side's result files (base circles, PR squares). The files do not say which side ran "
          "first, so no order is drawn.</p>\n";
    }
    for (std::size_t i = 0; i < shown.size(); ++i) {
      const BenchmarkAnalysis& b = *shown[i];
      html += fmt::format("<section class=\"bench\" id=\"b{}\">\n<h3>{} <code>{}</code>", i,
                          badge(b.verdict), escape_html(b.name, 1000));
      if (!b.suite.empty())
        html += fmt::format(" <span class=\"suite\">suite {}</span>", escape_html(b.suite, 80));
      html += "</h3>\n" + numbers_line(b);
      if (const BenchmarkSeries* s = find_series(results, b)) {
        html += "<div class=\"chart\">\n" + rounds_chart_svg(*s, b, results.plan, order_known) +
                "</div>\n";
      }
      html += why_html(results, b);
      html += "</section>\n";
    }
    if (left_out > 0) {
      html += fmt::format(
          "<p class=\"note\">\u2026 and {} more benchmarks (the least changed): see the results "
          "file.</p>\n",
          left_out);
    }
  }
  html +=
      fmt::format("<footer>benchpr {} \u00b7 base {} ({}) vs PR {} ({}) \u00b7 seed {}</footer>\n",
                  escape_html(results.tool_version, 40), revision_html(results.base),
                  escape_html(results.base.subject, 200), revision_html(results.head),
                  escape_html(results.head.subject, 200), results.seed);
  html += "</main>\n</body>\n</html>\n";
  return html;
}

}  // namespace benchpr::render
