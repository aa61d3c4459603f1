#include "benchpr/core/recommendation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/sentence.hpp"
#include "benchpr/core/wording.hpp"

namespace benchpr {

namespace {

constexpr double kInconclusiveShare = 0.25;  // "many benchmarks are inconclusive"
constexpr std::size_t kNamedAtMost = 3;

Recommendation done(Sentence&& s, RecommendationKind kind) {
  std::vector<TextPart> parts = std::move(s).take();
  std::string plain = plain_text(parts);
  return {kind, std::move(plain), std::move(parts)};
}

std::vector<const BenchmarkAnalysis*> with_verdict(const Analysis& a,
                                                   std::initializer_list<Verdict> v) {
  std::vector<const BenchmarkAnalysis*> out;
  for (const auto& b : a.benchmarks)
    if (std::find(v.begin(), v.end(), b.verdict) != v.end()) out.push_back(&b);
  // The largest changes decide: name them first.
  std::stable_sort(out.begin(), out.end(), [](const auto* x, const auto* y) {
    return std::fabs(std::log1p(x->change)) > std::fabs(std::log1p(y->change));
  });
  return out;
}

std::string display_name(const BenchmarkAnalysis& b, bool several_suites) {
  return several_suites ? b.suite + "/" + b.name : b.name;
}

bool several_suites(const Analysis& a) {
  for (const auto& b : a.benchmarks)
    if (b.suite != a.benchmarks.front().suite) return true;
  return false;
}

// "`BM_X` is 7.5% slower (95% CI +4.1% … +10.8%), slower in 10 of 10 rounds, whichever side ran
// first"
void describe(Sentence& s, const BenchmarkAnalysis& b, bool suites) {
  if (b.metric == kInstructionsMetric) {
    // An exact count: no interval, and "slower" would claim what only time can show.
    s.code(display_name(b, suites))
        .text(fmt::format(" executes {} {} instructions per iteration (Callgrind count)",
                          format_percent(std::fabs(b.change)), b.change > 0 ? "more" : "fewer"));
    return;
  }
  s.code(display_name(b, suites))
      .text(fmt::format(" is {} (95% CI {})", describe_change(b.change, b.better),
                        format_interval(b.ci_low, b.ci_high)));
  if (!b.reason.empty()) s.text(", " + b.reason);
}

void list_more(Sentence& s, std::size_t total) {
  if (total > kNamedAtMost) s.text(fmt::format(" (and {} more)", total - kNamedAtMost));
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Words of a lower-cased text: runs of letters and digits.
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> out;
  std::string word;
  for (char c : text) {
    if (word_char(c)) {
      word += c;
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

// "perf:", "perf(scope):", "perf!:" at the start (conventional commits) or "[perf]" anywhere.
std::optional<std::string> perf_tag(const std::string& title) {
  if (const auto at = title.find("[perf]"); at != std::string::npos) return "[perf]";
  const auto first = title.find_first_not_of(" \t");
  if (first == std::string::npos || title.compare(first, 4, "perf") != 0) return std::nullopt;
  std::size_t i = first + 4;
  if (i < title.size() && title[i] == '(') {
    const auto close = title.find(')', i);
    if (close == std::string::npos) return std::nullopt;
    i = close + 1;
  }
  if (i < title.size() && title[i] == '!') ++i;
  if (i < title.size() && title[i] == ':') return title.substr(first, i + 1 - first);
  return std::nullopt;
}

}  // namespace

std::optional<PerformanceClaim> performance_claim(const PullRequestInfo& pr) {
  const std::string title = lower(pr.title);
  const std::vector<std::string> words = words_of(title);
  const bool revert = !words.empty() && (words.front() == "revert" || words.front() == "reverts");
  if (!revert) {
    if (auto tag = perf_tag(title))
      return PerformanceClaim{*tag == "[perf]" ? "its title has the tag" : "its title starts with",
                              *tag};
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w == "performance" || w == "faster" || w == "speedup" || w == "speedups")
        return PerformanceClaim{"its title says", w};
      if ((w == "speed" || w == "speeds" || w == "sped") && i + 1 < words.size() &&
          words[i + 1] == "up")
        return PerformanceClaim{"its title says", w + " up"};
    }
  }
  for (const std::string& label : pr.labels) {
    for (const std::string& w : words_of(lower(label))) {
      if (w == "perf" || w == "performance") return PerformanceClaim{"it has the label", label};
    }
  }
  return std::nullopt;
}

bool claims_performance(const PullRequestInfo& pr) { return performance_claim(pr).has_value(); }

Recommendation recommend(const Results& results, const Analysis& analysis) {
  const bool suites = several_suites(analysis);

  std::vector<const BuildResult*> failed_builds;
  for (const auto& b : results.builds)
    if (!b.ok) failed_builds.push_back(&b);
  if (!failed_builds.empty()) {
    Sentence s;
    for (std::size_t i = 0; i < failed_builds.size(); ++i) {
      const auto& b = *failed_builds[i];
      s.text(fmt::format("{}The {} failed to build ({})", i ? "; " : "",
                         b.side == Side::Base ? "base revision" : "pull request", b.failure));
    }
    s.text(": nothing could be compared.");
    return done(std::move(s), RecommendationKind::Failed);
  }

  const auto regressions = with_verdict(analysis, {Verdict::Regression});
  const auto failed = with_verdict(analysis, {Verdict::Failed});
  const auto improvements = with_verdict(analysis, {Verdict::Improvement});
  const auto faster = with_verdict(analysis, {Verdict::Faster});
  const auto slower = with_verdict(analysis, {Verdict::Slower});
  const auto inconclusive = with_verdict(analysis, {Verdict::Inconclusive});
  const auto unchanged = with_verdict(analysis, {Verdict::Unchanged});
  const std::size_t compared = regressions.size() + improvements.size() + faster.size() +
                               slower.size() + inconclusive.size() + unchanged.size();

  if (!regressions.empty()) {
    Sentence s;
    for (std::size_t i = 0; i < std::min(regressions.size(), kNamedAtMost); ++i) {
      if (i) s.text("; ");
      describe(s, *regressions[i], suites);
    }
    list_more(s, regressions.size());
    s.text(".");
    if (!failed.empty())
      s.text(fmt::format(" {} benchmark{} also failed.", failed.size(),
                         failed.size() == 1 ? "" : "s"));
    return done(std::move(s), RecommendationKind::DoNotMerge);
  }

  if (!failed.empty()) {
    Sentence s;
    for (std::size_t i = 0; i < std::min(failed.size(), kNamedAtMost); ++i) {
      s.text(i ? "; " : "").code(display_name(*failed[i], suites)).text(" failed");
      if (!failed[i]->reason.empty()) s.text(" (" + failed[i]->reason + ")");
    }
    list_more(s, failed.size());
    s.text(": the comparison is incomplete.");
    return done(std::move(s), RecommendationKind::Failed);
  }

  const std::optional<PerformanceClaim> claim =
      results.pull_request ? performance_claim(*results.pull_request) : std::nullopt;
  if (claim && improvements.empty() && faster.empty()) {
    // Say why the title or labels matter here: without the claim this run would be a merge.
    Sentence s;
    s.text("This pull request presents itself as a performance change (" + claim->what + " ")
        .code(claim->quoted)
        .text(
            "), but no benchmark improved significantly: not as a performance change on the "
            "current evidence");
    if (!inconclusive.empty()) s.text(fmt::format(" ({} inconclusive)", inconclusive.size()));
    s.text(".");
    return done(std::move(s), RecommendationKind::DoNotMerge);
  }

  if (compared == 0) {
    Sentence s;
    s.text("No benchmark could be compared between the two revisions.");
    return done(std::move(s), RecommendationKind::Inconclusive);
  }

  // Run order matters only where it left benchmarks undecided: a verdict reached over balanced
  // AB/BA rounds stands, and "0 of 3 are inconclusive" is no answer.
  if ((analysis.order_warning && !inconclusive.empty()) ||
      static_cast<double>(inconclusive.size()) >= kInconclusiveShare * compared) {
    Sentence s;
    s.text(fmt::format("{} of {} benchmarks are inconclusive", inconclusive.size(), compared));
    if (!inconclusive.empty()) {
      s.text(", among them ").code(display_name(*inconclusive.front(), suites));
      s.text(" (" + inconclusive.front()->reason + ")");
    }
    if (analysis.order_warning) s.text("; the sign follows run order for many of them");
    const int need = inconclusive.empty() || !inconclusive.front()->rounds_needed
                         ? 0
                         : *inconclusive.front()->rounds_needed;
    if (need > 0) s.text(fmt::format("; about {} rounds would settle it", need));
    s.text(".");
    return done(std::move(s), RecommendationKind::Inconclusive);
  }

  Sentence s;
  if (!improvements.empty()) {
    for (std::size_t i = 0; i < std::min(improvements.size(), kNamedAtMost); ++i) {
      if (i) s.text("; ");
      describe(s, *improvements[i], suites);
    }
    list_more(s, improvements.size());
    s.text("; no regressions.");
  } else {
    const bool own_thresholds = std::any_of(
        analysis.benchmarks.begin(), analysis.benchmarks.end(),
        [&](const BenchmarkAnalysis& b) { return b.threshold != results.config.threshold; });
    s.text(own_thresholds ? std::string("No benchmark changed by its threshold or more")
                          : fmt::format("No benchmark changed by {} or more",
                                        format_percent(results.config.threshold)));
    s.text(fmt::format(" ({} of {} shown unchanged)", unchanged.size(), compared));
    s.text(".");
  }
  if (!slower.empty()) {
    s.text(" ").code(display_name(*slower.front(), suites));
    s.text(fmt::format(" is {}, a small consistent change below the {} threshold",
                       describe_change(slower.front()->change, slower.front()->better),
                       format_percent(slower.front()->threshold)));
    list_more(s, slower.size());
    s.text(".");
  }
  return done(std::move(s), RecommendationKind::Merge);
}

}  // namespace benchpr
