#include "benchpr/render/flame_svg.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "benchpr/core/evidence/profile_diff.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/escape.hpp"
#include "benchpr/render/why_section.hpp"

namespace benchpr::render {

namespace {

constexpr double kWidth = 1100;
constexpr double kRow = 18;
constexpr double kCharWidth = 6.6;  // 11px monospace, for fitting labels into boxes

std::string num(double v) { return fmt::format("{:.1f}", v); }

// The change of a box's count as a colour: grey when unchanged, towards red for more
// instructions and towards green for fewer, saturated from a 50% change on.
std::string colour(double before, double after) {
  const double larger = std::max(before, after);
  const double change = larger > 0 ? (after - before) / larger : 0;
  const double t = std::min(1.0, std::fabs(change) / 0.5);
  const int grey[3] = {229, 231, 235};
  const int red[3] = {220, 38, 38};
  const int green[3] = {22, 163, 74};
  const int* to = change > 0 ? red : green;
  int rgb[3];
  for (int i = 0; i < 3; ++i)
    rgb[i] = static_cast<int>(std::lround(grey[i] + (to[i] - grey[i]) * t));
  return fmt::format("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
}

std::string tooltip(const FlameBox& b) {
  const double change = b.before > 0 ? b.after / b.before - 1 : kMissing;
  return fmt::format("{}: base {}, PR {} instructions per iteration ({}{})", b.name,
                     count_text(b.before), count_text(b.after),
                     signed_count_text(b.after - b.before),
                     std::isfinite(change) ? ", " + format_signed_percent(change) : ", new here");
}

// How many characters of a label fit in `width` pixels (0 when nothing useful fits).
std::size_t label_chars(double width) {
  const auto fits = static_cast<std::size_t>(std::max(0.0, (width - 6) / kCharWidth));
  return fits < 3 ? 0 : fits;
}

}  // namespace

std::string icicle_svg(const FunctionProfile& base, const FunctionProfile& head) {
  const std::vector<FlameBox> boxes = flame_boxes(base, head);
  if (boxes.empty()) return "";
  int depth = 0;
  for (const FlameBox& b : boxes) depth = std::max(depth, b.depth);
  const double height = (depth + 1) * kRow + 2;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" aria-label=\"differential icicle graph\" "
      "font-family=\"ui-monospace,'DejaVu Sans Mono',monospace\" font-size=\"11\">\n",
      num(kWidth), num(height));
  for (const FlameBox& b : boxes) {
    const double x = b.x * kWidth;
    const double w = b.width * kWidth;
    const double y = b.depth * kRow;
    svg += fmt::format(
        "<g><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
        "stroke=\"#fff\" stroke-width=\"0.5\"/>",
        escape_html(tooltip(b), 1200), num(x), num(y), num(std::max(w, 0.5)), num(kRow - 1),
        colour(b.before, b.after));
    if (const std::size_t chars = label_chars(w); chars > 0)
      svg += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", num(x + 3), num(y + 12.5),
                         escape_html(b.name, chars));
    svg += "</g>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace benchpr::render
