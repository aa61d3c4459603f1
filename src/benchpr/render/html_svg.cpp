#include "benchpr/render/html_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "benchpr/render/units.hpp"
#include "benchpr/render/utf8.hpp"

namespace benchpr::render {

namespace {

constexpr std::string_view kBaseColour = "#2563eb";
constexpr std::string_view kHeadColour = "#ea580c";
constexpr std::string_view kFont =
    "font-family=\"system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif\"";
constexpr std::string_view kMono = "font-family=\"ui-monospace,'DejaVu Sans Mono',monospace\"";

constexpr double kWidth = 1100;

std::string num(double v) { return fmt::format("{:.1f}", v); }

std::string svg_open(double width, double height, std::string_view label) {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" aria-label=\"{2}\" {3} font-size=\"12\">\n",
      num(width), num(height), escape_html(label), kFont);
}

bool usable(double v) { return std::isfinite(v) && v > 0; }

// The ratio's logarithm: the axis of change charts, symmetric for "x times slower/faster".
double log_ratio(double change) { return std::log1p(std::max(change, -0.999)); }

std::string tick_label(double change) {
  if (change == 0) return "0";
  const double pct = change * 100;
  const double rounded = std::round(pct);
  const std::string text = std::fabs(pct - rounded) < 1e-9
                               ? fmt::format("{:g}%", std::fabs(rounded))
                               : fmt::format("{:g}%", std::fabs(pct));
  return (change < 0 ? "\u2212" : "+") + text;
}

}  // namespace

std::string_view verdict_colour(Verdict v) {
  switch (v) {
    case Verdict::Regression:
      return "#dc2626";
    case Verdict::Improvement:
      return "#16a34a";
    case Verdict::Slower:
      return "#d97706";
    case Verdict::Faster:
      return "#65a30d";
    case Verdict::Unchanged:
      return "#64748b";
    case Verdict::Inconclusive:
      return "#7c3aed";
    case Verdict::Added:
    case Verdict::Removed:
      return "#0891b2";
    case Verdict::Failed:
      return "#9f1239";
    case Verdict::Placement:
      return "#94a3b8";
  }
  return "#64748b";
}

namespace {

// The change chart's layout: labels on the left, the plot, the change as text on the right.
constexpr double kLabelRight = 430, kPlotLeft = 445, kPlotWidth = 500, kTextLeft = 960;
constexpr double kTop = 30, kRow = 24, kBottom = 34;

// The change chart's horizontal axis: a change's ratio on a log scale, ±range around no change.
struct ChangeAxis {
  double range = 0;  // the largest |log ratio| shown

  double x_of(double change) const {
    const double x = kPlotLeft + kPlotWidth * (log_ratio(change) + range) / (2 * range);
    return std::clamp(x, kPlotLeft, kPlotLeft + kPlotWidth);
  }
  bool shows(double change) const { return std::fabs(log_ratio(change)) <= range; }
};

// Wide enough for every interval and the threshold band, but no wider than +-50%: one 3x
// speed-up must not squeeze every 5% change into a dot. Beyond it an arrow at the edge points
// the way and the number on the right says how far.
ChangeAxis change_axis(const std::vector<const BenchmarkAnalysis*>& benchmarks, double threshold) {
  double range = std::log1p(std::max(3 * threshold, 0.01));
  for (const BenchmarkAnalysis* b : benchmarks) {
    for (double c : {b->change, b->ci_low, b->ci_high})
      if (std::isfinite(c)) range = std::max(range, std::fabs(log_ratio(c)));
  }
  return {std::min(range, std::log(1.5)) * 1.08};
}

// The grid's changes: no change, then round numbers of percent outwards on each side, each at
// least 48 pixels from those before it; 9 is "10x" on the far right.
std::vector<double> grid_ticks(const ChangeAxis& axis) {
  static constexpr std::array<double, 19> kTicks = {-0.9,  -0.75, -0.5, -0.25, -0.1, -0.05, -0.02,
                                                    -0.01, 0.01,  0.02, 0.05,  0.1,  0.25,  0.5,
                                                    1,     2,     3,    5,     9};
  std::vector<double> chosen = {0};
  for (int side : {1, -1}) {
    std::vector<double> candidates;
    for (double t : kTicks)
      if (t * side > 0) candidates.push_back(t);
    if (side < 0) std::reverse(candidates.begin(), candidates.end());
    std::sort(candidates.begin(), candidates.end(),
              [&](double a, double b) { return std::fabs(a) < std::fabs(b); });
    for (double t : candidates) {
      if (std::fabs(log_ratio(t)) > axis.range) continue;
      const bool crowded = std::any_of(chosen.begin(), chosen.end(), [&](double c) {
        return std::fabs(axis.x_of(c) - axis.x_of(t)) < 48;
      });
      if (!crowded) chosen.push_back(t);
    }
  }
  return chosen;
}

// The shaded band within ±threshold, and the grid lines with their labels above the rows.
std::string band_and_grid(const ChangeAxis& axis, double threshold, double grid_bottom) {
  const double band_lo = axis.x_of(-threshold), band_hi = axis.x_of(threshold);
  std::string svg = fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#e2e8f0\" opacity=\"0.6\"/>\n",
      num(band_lo), num(kTop - 6), num(band_hi - band_lo), num(grid_bottom - kTop + 6));
  for (double t : grid_ticks(axis)) {
    const double x = axis.x_of(t);
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" stroke-width=\"{4}\"/>"
        "<text x=\"{0}\" y=\"{5}\" text-anchor=\"middle\" fill=\"#475569\">{6}</text>\n",
        num(x), num(kTop - 6), num(grid_bottom), t == 0 ? "#64748b" : "#e2e8f0",
        t == 0 ? "1.5" : "1", num(kTop - 12), tick_label(t));
  }
  return svg;
}

// A row's label: the suite, greyed, beside the name, since two suites may have benchmarks of the
// same name. The row has room for about 56 characters; the suite gets at most 20 of them ("…"
// included). The whole name is the tooltip.
std::string row_label(const BenchmarkAnalysis& b, double y) {
  const std::string full = b.suite.empty() ? b.name : b.suite + " / " + b.name;
  const std::size_t suite_chars = b.suite.empty() ? 0 : std::min<std::size_t>(20, b.suite.size());
  const std::string suite_label =
      b.suite.empty() ? std::string()
                      : fmt::format("<tspan fill=\"#64748b\">{}</tspan> ",
                                    escape_html(b.suite, b.suite.size() > 20 ? 19 : 20));
  return fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" {} fill=\"#0f172a\"><title>{}</title>{}{}"
      "</text>\n",
      num(kLabelRight), num(y + 4), kMono, escape_html(full, 2000), suite_label,
      escape_html(b.name, 56 - (suite_chars > 0 ? suite_chars + 1 : 0)));
}

// A row's change: its interval as a bar, the estimate as a dot (or an arrow at the edge when off
// the axis), the change written on the right; the verdict in words where there is no change.
std::string row_change(const BenchmarkAnalysis& b, double y, const ChangeAxis& axis) {
  const std::string_view colour = verdict_colour(b.verdict);
  if (!std::isfinite(b.change)) {
    return fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-style=\"italic\" "
        "fill=\"{}\">{}</text>\n",
        num(kPlotLeft + kPlotWidth / 2), num(y + 4), colour, to_string(b.verdict));
  }
  std::string svg;
  if (std::isfinite(b.ci_low) && std::isfinite(b.ci_high)) {
    const double x1 = axis.x_of(b.ci_low), x2 = axis.x_of(b.ci_high);
    svg += fmt::format(
        "<path d=\"M{0} {2}V{3}M{0} {4}H{1}M{1} {2}V{3}\" stroke=\"{5}\" stroke-width=\"2\" "
        "fill=\"none\"/>\n",
        num(x1), num(x2), num(y - 5), num(y + 5), num(y), colour);
  }
  const double x = axis.x_of(b.change);
  if (axis.shows(b.change)) {
    svg +=
        fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{}\"/>\n", num(x), num(y), colour);
  } else {
    const double dir = b.change > 0 ? 1 : -1;  // off the axis: an arrow at its edge
    svg += fmt::format("<path d=\"M{} {}L{} {}L{} {}Z\" fill=\"{}\"/>\n", num(x + 6 * dir), num(y),
                       num(x - 6 * dir), num(y - 6), num(x - 6 * dir), num(y + 6), colour);
  }
  svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\" font-weight=\"600\">{}</text>\n",
                     num(kTextLeft), num(y + 4), colour,
                     escape_html(format_change(b.change, b.better)));
  return svg;
}

}  // namespace

std::string change_chart_svg(const std::vector<const BenchmarkAnalysis*>& benchmarks,
                             double threshold) {
  const double rows = static_cast<double>(benchmarks.size());
  const double height = kTop + kRow * rows + kBottom;
  const double grid_bottom = kTop + kRow * rows;
  const ChangeAxis axis = change_axis(benchmarks, threshold);

  std::string svg = svg_open(kWidth, height, "change of each benchmark with its 95% CI");
  svg += band_and_grid(axis, threshold, grid_bottom);
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const double y = kTop + kRow * (static_cast<double>(i) + 0.5);
    if (i % 2 == 1) {  // every other row shaded, so a row's label and its bar read as one
      svg += fmt::format(
          "<rect x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f8fafc\" opacity=\"0.7\"/>\n",
          num(y - kRow / 2), num(kWidth), num(kRow));
    }
    svg += row_label(*benchmarks[i], y);
    svg += row_change(*benchmarks[i], y, axis);
  }
  svg += fmt::format(
      "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#475569\">PR against base, 95% "
      "confidence interval (log scale); shaded: within \u00b1{:g}%</text>\n",
      num(kPlotLeft + kPlotWidth / 2), num(grid_bottom + 22), threshold * 100);
  svg += "</svg>\n";
  return svg;
}

namespace {

// The rounds chart's frame: where round i stands and where a value lies, clamped to the plot.
struct RoundsFrame {
  static constexpr double kLeft = 96, kRight = 16, kTop = 18, kPlotHeight = 150, kBottom = 30;
  double lo = 0, hi = 0;  // the value axis
  double step = 0;        // the width of one round

  double x_of(std::size_t i) const { return kLeft + step * (static_cast<double>(i) + 0.5); }
  double y_of(double v) const {
    return std::clamp(kTop + kPlotHeight * (1 - (v - lo) / (hi - lo)), kTop, kTop + kPlotHeight);
  }
  bool off_scale(double v) const { return v < lo || v > hi; }
};

// The rounds the analysis did not use (the warm-up, the dropped round), shaded and labelled.
std::string left_out_rounds_svg(const RoundsFrame& f, std::size_t n,
                                const std::vector<RoundPlan>& plan,
                                const std::vector<int>& analysed,
                                const BenchmarkAnalysis& analysis) {
  std::string svg;
  for (std::size_t i = 0; i < n; ++i) {
    const bool warmup = i < plan.size() && plan[i].warmup;
    const bool dropped = analysis.dropped_round && analysed[i] == *analysis.dropped_round;
    if (!warmup && !dropped) continue;
    svg += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>"
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\" "
        "fill=\"#64748b\">{}</text>\n",
        num(f.x_of(i) - f.step / 2), num(f.kTop), num(f.step), num(f.kPlotHeight),
        warmup ? "#f1f5f9" : "#fef3c7", num(f.x_of(i)), num(f.kTop - 5),
        f.step >= 44 ? (warmup ? "warm-up" : "left out") : (warmup ? "w" : "×"));
  }
  return svg;
}

std::string value_axis_svg(const RoundsFrame& f, std::string_view unit) {
  std::string svg;
  for (int k = 0; k <= 4; ++k) {
    const double v = f.lo + (f.hi - f.lo) * k / 4;
    const double y = f.y_of(v);
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#e2e8f0\"/>"
        "<text x=\"{3}\" y=\"{4}\" text-anchor=\"end\" fill=\"#475569\">{5}</text>\n",
        num(f.kLeft), num(y), num(kWidth - f.kRight), num(f.kLeft - 8), num(y + 4),
        escape_html(format_value(v, unit)));
  }
  return svg;
}

// Round labels under the plot (at most about 25): the analysed round's number and its order,
// AB when base ran first.
std::string round_labels_svg(const RoundsFrame& f, std::size_t n,
                             const std::vector<RoundPlan>& plan, const std::vector<int>& analysed,
                             bool order_known) {
  std::string svg;
  const std::size_t every = std::max<std::size_t>(1, (n + 24) / 25);
  for (std::size_t i = 0; i < n; ++i) {
    if (i % every != 0) continue;
    const bool warmup = i < plan.size() && plan[i].warmup;
    const Side first = i < plan.size() ? plan[i].first : Side::Base;
    const std::string label =
        warmup        ? "w"
        : order_known ? fmt::format("{} {}", analysed[i], first == Side::Base ? "AB" : "BA")
                      : std::to_string(analysed[i]);
    svg += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#475569\">{}"
        "</text>\n",
        num(f.x_of(i)), num(f.kTop + f.kPlotHeight + 16), label);
  }
  return svg;
}

// One side's values: a thin line through them, then a mark per round (base a circle, PR a
// square; filled when that side ran first), an arrow beside a value off the axis.
std::string side_values_svg(const RoundsFrame& f, Side side, const BenchmarkSeries& series,
                            const std::vector<RoundPlan>& plan, const std::vector<int>& analysed,
                            bool order_known) {
  const auto& values = side == Side::Base ? series.base : series.head;
  const std::string_view colour = side == Side::Base ? kBaseColour : kHeadColour;
  const double r = std::clamp(f.step / 5, 2.0, 5.0);
  std::string svg;
  // A thin line through each side's values makes drift visible; gaps stay gaps.
  std::string path;
  bool open = false;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!usable(values[i])) {
      open = false;
      continue;
    }
    path += fmt::format("{}{} {}", open ? "L" : "M", num(f.x_of(i)), num(f.y_of(values[i])));
    open = true;
  }
  if (!path.empty()) {
    svg += fmt::format(
        "<path d=\"{}\" stroke=\"{}\" stroke-width=\"1.2\" fill=\"none\" opacity=\"0.45\"/>\n",
        path, colour);
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!usable(values[i])) continue;
    const Side first = i < plan.size() ? plan[i].first : Side::Base;
    const bool ran_first = first == side;
    // Without a known order every mark is filled: hollow would claim "ran second".
    const std::string fill = ran_first || !order_known ? std::string(colour) : "#ffffff";
    const std::string title =
        fmt::format("round {}: {} {}{}", analysed[i] > 0 ? std::to_string(analysed[i]) : "warm-up",
                    side == Side::Base ? "base" : "PR", format_value(values[i], series.unit),
                    !order_known ? ""
                    : ran_first  ? " (ran first)"
                                 : " (ran second)");
    const double x = f.x_of(i), y = f.y_of(values[i]);
    if (f.off_scale(values[i])) {
      svg += fmt::format(
          "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"{}\">{}"
          "</text>\n",
          num(x + (side == Side::Base ? -9 : 9)), num(values[i] > f.hi ? y + 18 : y - 9), colour,
          values[i] > f.hi ? "\u2191" : "\u2193");
    }
    if (side == Side::Base) {
      svg += fmt::format(
          "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" "
          "stroke-width=\"1.8\"><title>{}</title></circle>\n",
          num(x), num(y), num(r), fill, colour, escape_html(title));
    } else {
      svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" "
          "stroke-width=\"1.8\"><title>{}</title></rect>\n",
          num(x - r), num(y - r), num(2 * r), num(2 * r), fill, colour, escape_html(title));
    }
  }
  return svg;
}

}  // namespace

std::string rounds_chart_svg(const BenchmarkSeries& series, const BenchmarkAnalysis& analysis,
                             const std::vector<RoundPlan>& plan, bool order_known) {
  RoundsFrame f;
  const double height = f.kTop + f.kPlotHeight + f.kBottom;
  const std::size_t n = std::max({plan.size(), series.base.size(), series.head.size()});

  // Analysed-round numbers (as in the comment) and the round the analysis left out.
  std::vector<int> analysed(n, 0);
  for (std::size_t i = 0, k = 0; i < n; ++i)
    if (i >= plan.size() || !plan[i].warmup) analysed[i] = static_cast<int>(++k);
  const auto left_out = [&](std::size_t i) {
    const bool warmup = i < plan.size() && plan[i].warmup;
    return warmup || (analysis.dropped_round && analysed[i] == *analysis.dropped_round);
  };

  // The value axis fits the analysed rounds: a slow warm-up would squash them into a line.
  // Points outside (warm-up, a cold round) sit on the edge, marked as cut.
  double lo = INFINITY, hi = -INFINITY;
  for (int pass = 0; pass < 2 && !std::isfinite(lo); ++pass) {
    for (const auto* values : {&series.base, &series.head})
      for (std::size_t i = 0; i < values->size(); ++i)
        if (usable((*values)[i]) && (pass == 1 || !left_out(i)))
          lo = std::min(lo, (*values)[i]), hi = std::max(hi, (*values)[i]);
  }

  std::string svg = svg_open(kWidth, height, "values of base and PR in every round");
  if (n == 0 || !std::isfinite(lo)) {
    svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#64748b\">no values were measured</text>",
                       num(f.kLeft), num(f.kTop + 20));
    return svg + "</svg>\n";
  }
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {
    lo *= 0.95, hi *= 1.05;
  } else {
    const double pad = (hi - lo) * 0.1;
    lo -= pad, hi += pad;
  }
  f.lo = lo;
  f.hi = hi;
  f.step = (kWidth - f.kLeft - f.kRight) / static_cast<double>(n);

  svg += left_out_rounds_svg(f, n, plan, analysed, analysis);
  svg += value_axis_svg(f, series.unit);
  svg += round_labels_svg(f, n, plan, analysed, order_known);
  for (const Side side : {Side::Base, Side::Head})
    svg += side_values_svg(f, side, series, plan, analysed, order_known);
  svg += "</svg>\n";
  return svg;
}

std::string rounds_legend_svg() {
  std::string svg = svg_open(620, 22, "legend");
  struct Item {
    bool base;
    bool first;
    std::string_view text;
  };
  constexpr Item kItems[] = {{true, true, "base, ran first"},
                             {true, false, "base, ran second"},
                             {false, true, "PR, ran first"},
                             {false, false, "PR, ran second"}};
  double x = 8;
  for (const Item& item : kItems) {
    const std::string_view colour = item.base ? kBaseColour : kHeadColour;
    const std::string fill = item.first ? std::string(colour) : "#ffffff";
    if (item.base) {
      svg += fmt::format(
          "<circle cx=\"{}\" cy=\"11\" r=\"5\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.8\"/>",
          num(x), fill, colour);
    } else {
      svg += fmt::format(
          "<rect x=\"{}\" y=\"6\" width=\"10\" height=\"10\" fill=\"{}\" stroke=\"{}\" "
          "stroke-width=\"1.8\"/>",
          num(x - 5), fill, colour);
    }
    svg +=
        fmt::format("<text x=\"{}\" y=\"15\" fill=\"#334155\">{}</text>\n", num(x + 10), item.text);
    x += 150;
  }
  return svg + "</svg>\n";
}

}  // namespace benchpr::render
