#include "benchpr/render/bisect_view.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "benchpr/core/base/text.hpp"
#include "benchpr/core/bisect/bisect.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/escape.hpp"
#include "benchpr/render/units.hpp"

namespace benchpr::render {

namespace {

constexpr std::size_t kLineMaxChars = 400;
// Columns of the per-commit table: more would not fit a comment's width; the lines under the rows
// still cover every benchmark followed.
constexpr std::size_t kMaxColumns = 6;

// A sentence with names as code spans (`|` escaped in a table cell), the text escaped.
std::string escaped_parts(const std::vector<TextPart>& parts, bool in_table) {
  std::string out;
  for (const TextPart& part : parts) {
    if (out.size() > kLineMaxChars * 2) {
      out += "…";
      break;
    }
    if (part.code) {
      out += code_span(part.text, in_table);
      continue;
    }
    // escape_inline trims; the spaces around a fragment separate it from its neighbours.
    const bool lead = !part.text.empty() && part.text.front() == ' ';
    const bool trail = part.text.size() > 1 && part.text.back() == ' ';
    if (lead) out += ' ';
    out += escape_inline(part.text, kLineMaxChars);
    if (trail) out += ' ';
  }
  return out;
}

std::string cell_text(const BisectCell& c, const Bisection& b, int commit) {
  using State = BisectCell::State;
  switch (c.state) {
    case State::Skipped:
      return "did not build";
    case State::NotMeasured:
      return "not measured";
    case State::Inside:
      return "·";
    case State::Measured:
      break;
  }
  std::string text = format_signed_percent(c.change);
  if (std::isfinite(c.ci_low) && std::isfinite(c.ci_high))
    text += " (" + format_interval(c.ci_low, c.ci_high) + ")";
  if (c.named) text = "**" + text + "**";
  // Measured against an earlier commit than the one before: say which.
  if (c.since >= 0 && c.since != commit - 1) {
    bool only_skipped = true;
    for (int k = c.since + 1; k < commit; ++k)
      only_skipped &= b.commits[static_cast<std::size_t>(k)].skipped;
    if (!only_skipped)
      text += " since " + code_span(short_sha(b.commits[static_cast<std::size_t>(c.since)].sha));
  }
  return text;
}

}  // namespace

BisectView make_bisect_view(const Results& results) {
  BisectView v;
  if (!results.bisect || results.bisect->commits.size() < 2) return v;
  const Bisection& b = *results.bisect;
  const BisectReport report = attribute(b);
  v.present = true;
  v.summary = escaped_parts(report.summary, false);
  const std::size_t columns = std::min(report.findings.size(), kMaxColumns);
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    const BisectFinding& f = report.findings[i];
    if (i < columns) v.headers.push_back(code_span(f.name));
    v.lines[{f.suite, f.name}] = escaped_parts(f.line, true);
  }
  if (columns < report.findings.size())
    v.summary += " The table shows the first " + std::to_string(columns) + " of the " +
                 std::to_string(report.findings.size()) +
                 " benchmarks followed; the results file has them all.";
  for (std::size_t c = 1; c < b.commits.size(); ++c) {
    BisectRowView row;
    row.commit = code_span(commit_label(b.commits[c]));
    for (std::size_t i = 0; i < columns; ++i)
      row.cells.push_back(cell_text(report.findings[i].cells[c], b, static_cast<int>(c)));
    v.rows.push_back(std::move(row));
  }
  return v;
}

}  // namespace benchpr::render
