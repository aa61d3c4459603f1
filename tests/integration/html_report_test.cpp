// The HTML report in a real browser: headless Chromium renders a report of a session with known
// effects (a regression, an improvement, a drift shared by both sides, an order effect, a
// failure, hostile names) to a PNG. Skipped where Chromium is not installed.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "benchpr/core/adaptive/session_analysis.hpp"
#include "benchpr/render/html_report.hpp"
#include "support/golden.hpp"
#include "support/temp_dir.hpp"

namespace benchpr::testing {
namespace {

// The reports' session with known effects, and two more a chart must show: a drift both sides
// share, and a position effect (whichever side runs second is 6% slower; the PR changes nothing).
Results session_with_known_effects() {
  Results r = known_effects_session();
  r.series.push_back(
      simulated_series(r, {.name = "BM_Drifting", .level = 812, .seed = 11, .drift = 0.02}));
  r.series.push_back(simulated_series(
      r, {.name = "BM_SecondIsSlower", .level = 2000, .seed = 12, .position_effect = 0.06}));
  return r;
}

struct Png {
  bool valid = false;
  std::uint32_t width = 0, height = 0;
  std::size_t bytes = 0;
};

Png read_png(const std::string& path) {
  Png png;
  std::string data;
  try {
    data = read_file(path);
  } catch (const std::exception&) {
    return png;
  }
  png.bytes = data.size();
  // Signature, then the IHDR chunk: length (4), "IHDR", width (4, big-endian), height (4).
  if (data.size() < 24 || data.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 ||
      data.compare(12, 4, "IHDR") != 0)
    return png;
  auto be32 = [&](std::size_t at) {
    return (std::uint32_t(std::uint8_t(data[at])) << 24) |
           (std::uint32_t(std::uint8_t(data[at + 1])) << 16) |
           (std::uint32_t(std::uint8_t(data[at + 2])) << 8) |
           std::uint32_t(std::uint8_t(data[at + 3]));
  };
  png.width = be32(16);
  png.height = be32(20);
  png.valid = true;
  return png;
}

bool have_chromium() { return run_command("command -v chromium").exit_code == 0; }

// Screenshot of `html_path` at 1200x2000 into `png_path`.
CommandResult screenshot(const TempDir& dir, const std::string& html_path,
                         const std::string& png_path) {
  const std::string profile =
      dir / ("profile-" + std::to_string(std::hash<std::string>{}(png_path)));
  return run_command(
      "timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
      "--disable-background-networking --disable-component-update --disable-sync "
      "--hide-scrollbars --user-data-dir='" +
      profile + "' --screenshot='" + png_path + "' --window-size=1200,2000 'file://" + html_path +
      "'");
}

TEST(HtmlReport, RendersInHeadlessChromium) {
  if (!have_chromium()) GTEST_SKIP() << "chromium is not installed (Debian package chromium)";
  TempDir dir;
  const Results results = session_with_known_effects();
  const Analysis analysis = analyse_session(results);
  const std::string html = render::render_html_report(results, analysis);
  write_file(dir / "report.html", html);
  // The reference: an empty white page of the same size compresses to almost nothing.
  write_file(dir / "blank.html",
             "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body></body></html>");

  const CommandResult shot = screenshot(dir, dir / "report.html", dir / "shot.png");
  ASSERT_EQ(shot.exit_code, 0) << shot.output;
  const CommandResult blank = screenshot(dir, dir / "blank.html", dir / "blank.png");
  ASSERT_EQ(blank.exit_code, 0) << blank.output;

  const Png png = read_png(dir / "shot.png");
  const Png white = read_png(dir / "blank.png");
  ASSERT_TRUE(png.valid) << shot.output;
  ASSERT_TRUE(white.valid) << blank.output;
  EXPECT_EQ(png.width, 1200u);
  EXPECT_EQ(png.height, 2000u);
  // Text, charts and colours make the picture far less compressible than a blank page.
  EXPECT_GT(png.bytes, 40u * 1024) << "screenshot of " << png.bytes << " bytes";
  EXPECT_GT(png.bytes, 8 * white.bytes) << png.bytes << " vs blank " << white.bytes;
  if (const char* keep = std::getenv("BENCHPR_KEEP_SCREENSHOT")) {
    run_command("cp '" + (dir / "shot.png") + "' '" + keep + "'");
    run_command("cp '" + (dir / "report.html") + "' '" + keep + ".html'");
  }
}

}  // namespace
}  // namespace benchpr::testing
