#include "benchpr/render/why_section.hpp"

#include <cmath>
#include <set>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/wording/wording.hpp"
#include "benchpr/render/escape.hpp"

namespace benchpr::render {

namespace {

constexpr std::size_t kFunctionNameChars = 120;

std::string with_separators(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A cell's sentence: names as code spans (pipes escaped for the table), the rest as prose.
std::string cell_parts(const std::vector<TextPart>& parts) {
  std::string out;
  for (const TextPart& p : parts) {
    if (p.code) {
      out += code_span(p.text, true, kFunctionNameChars);
    } else {
      const bool lead = !p.text.empty() && p.text.front() == ' ';
      const bool trail = p.text.size() > 1 && p.text.back() == ' ';
      if (lead) out += ' ';
      out += escape_inline(p.text, 200);
      if (trail) out += ' ';
    }
  }
  return out;
}

std::string share_text(double share) {
  if (!std::isfinite(share)) return "—";
  return share < 0 ? "−" + format_percent(-share) : format_percent(share);
}

ProfileDiff diff_of(const Results& results, const BenchmarkProfile& p) {
  return diff_profiles(*p.base, *p.head, results.config.instruction_threshold);
}

std::string function_row(const FunctionChange& f) {
  std::string name = code_span(f.name, true, kFunctionNameChars);
  if (f.added) name += " (new)";
  if (f.removed) name += " (gone)";
  return fmt::format("| {} | {} | {} | {} | {} | {} |", name, f.added ? "—" : count_text(f.before),
                     f.removed ? "—" : count_text(f.after), signed_count_text(f.delta),
                     share_text(f.share), call_path(f.path));
}

std::string section(const Results& results, const BenchmarkProfile& p) {
  const ProfileDiff d = diff_of(results, p);
  const double relative = d.before > 0 ? d.change / d.before : kMissing;
  std::string out = fmt::format(
      "<details><summary>Where {} changed: {} → {} instructions per iteration ({})</summary>\n\n",
      html_text(p.name, 120), count_text(d.before), count_text(d.after),
      std::isfinite(relative) ? format_signed_percent(relative) : "—");
  if (d.same_instructions) {
    out += fmt::format(
        "The same instructions on both sides ({} per iteration): the difference is in memory, "
        "waiting or frequency, which instruction counts do not see.\n\n",
        signed_count_text(d.change));
  }
  if (!d.functions.empty()) {
    out +=
        "| function | base | PR | change | share | call path |\n"
        "|:--|--:|--:|--:|--:|:--|\n";
    for (const FunctionChange& f : d.functions) out += function_row(f) + "\n";
    out += "\n";
    if (std::isfinite(d.explained))
      out += fmt::format(
          "These functions explain {} of the change. Counts are each function's own "
          "instructions per iteration (self: without what it calls), exact, from Callgrind "
          "runs at two iteration counts per side; the call path is the heaviest chain of callers "
          "in the PR.\n\n",
          share_text(d.explained));
  } else if (!d.same_instructions) {
    out += "No function's own count moved by 0.1% of the total: the change is spread thin.\n\n";
  }
  out += "</details>";
  return out;
}

bool complete(const BenchmarkProfile& p) { return p.base && p.head && p.skipped.empty(); }

}  // namespace

const BenchmarkProfile* profile_for(const Results& results, const BenchmarkAnalysis& b) {
  for (const BenchmarkProfile& p : results.profiles)
    if (complete(p) && p.name == b.name &&
        (p.suite == b.suite || instruction_suite_name(p.suite) == b.suite))
      return &p;
  return nullptr;
}

std::string why_cell_phrase(const Results& results, const BenchmarkAnalysis& b) {
  const BenchmarkProfile* p = profile_for(results, b);
  if (p == nullptr) return "";
  return " · " + cell_parts(why_phrase(diff_of(results, *p)));
}

std::vector<std::string> why_sections(const Results& results, const Analysis& analysis) {
  std::vector<std::string> out;
  std::set<const BenchmarkProfile*> shown;
  for (const BenchmarkAnalysis& b : analysis.benchmarks) {
    const BenchmarkProfile* p = profile_for(results, b);
    if (p == nullptr || !shown.insert(p).second) continue;
    out.push_back(section(results, *p));
  }
  return out;
}

std::string why_note(const Results& results) {
  if (results.profiles.empty()) return "";
  int done = 0;
  int reused = 0;
  double seconds = 0;
  std::vector<const BenchmarkProfile*> skipped;
  for (const BenchmarkProfile& p : results.profiles) {
    seconds += p.seconds;
    if (complete(p)) {
      ++done;
      reused += p.from_counts ? 1 : 0;
    } else {
      skipped.push_back(&p);
    }
  }
  std::string out;
  const std::string benchmarks = plural(static_cast<std::size_t>(done), "benchmark", "benchmarks");
  if (done > 0 && reused == done) {
    out = fmt::format(
        "Function-level profiles: {}, read from the instruction counts' Callgrind runs (no "
        "extra run).",
        benchmarks);
  } else if (done > 0) {
    out = fmt::format(
        "Function-level profiles: {}, one Callgrind job per side, {} in all{}.", benchmarks,
        format_duration(seconds),
        reused > 0 ? fmt::format(" ({} read from the instruction counts' runs)", reused) : "");
  }
  for (std::size_t i = 0; i < skipped.size() && i < 5; ++i) {
    if (!out.empty()) out += " ";
    out += fmt::format("Not profiled: {} ({}).", code_span(skipped[i]->name, false),
                       escape_inline(skipped[i]->skipped, 200));
  }
  if (skipped.size() > 5) out += fmt::format(" … and {} more not profiled.", skipped.size() - 5);
  return out;
}

std::string html_text(const std::string& text, std::size_t max_chars) {
  std::string raw;
  for (char c : text) {
    raw += c;
    // A zero-width space after @ and #: no mention, no issue reference.
    if (c == '@' || c == '#') raw += "\u200B";
  }
  const std::string escaped = escape_html(raw, max_chars);
  std::string out;
  for (char c : escaped) {
    switch (c) {
      case '[':
        out += "&#91;";
        break;
      case ']':
        out += "&#93;";
        break;
      case '`':
        out += "&#96;";
        break;
      case '*':
        out += "&#42;";
        break;
      case '_':
        out += "&#95;";
        break;
      case '|':
        out += "&#124;";
        break;
      case '\\':
        out += "&#92;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string frame_name(const std::string& name) {
  // The parameters of the last parenthesised list: the function's own, or a const member's.
  std::size_t close = name.rfind(')');
  if (close == std::string::npos || name.size() <= 40) return name;
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) {
      if (i == 0 || close - i <= 1) return name;  // "(anonymous namespace)", "f()"
      return name.substr(0, i + 1) + "…" + name.substr(close);
    }
  }
  return name;
}

std::string call_path(const std::vector<std::string>& path, std::size_t max_frames) {
  std::vector<std::string> shown;  // rendered frames
  for (std::size_t i = 0; i < path.size(); ++i) {
    const bool elided = path.size() > max_frames && i > 0 && i < path.size() - (max_frames - 1);
    if (!elided) {
      shown.push_back(code_span(frame_name(path[i]), true, 60));
    } else if (shown.back() != "…") {
      shown.push_back("…");
    }
  }
  std::string out;
  for (const std::string& f : shown) out += (out.empty() ? "" : " → ") + f;
  return out;
}

std::string count_text(double v) {
  if (!std::isfinite(v)) return "—";
  const double a = std::fabs(v);
  if (a >= 100) return (v < 0 ? "−" : "") + with_separators(std::llround(a));
  if (a >= 1) return fmt::format("{}{:.1f}", v < 0 ? "−" : "", a);
  return fmt::format("{}{:.2f}", v < 0 ? "−" : "", a);
}

std::string signed_count_text(double v) {
  if (!std::isfinite(v)) return "—";
  return (v >= 0 ? "+" : "") + count_text(v);
}

}  // namespace benchpr::render
