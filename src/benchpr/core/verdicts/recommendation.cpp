#include "benchpr/core/verdicts/recommendation.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "benchpr/core/base/duration.hpp"
#include "benchpr/core/base/series_key.hpp"
#include "benchpr/core/base/text.hpp"
#include "benchpr/core/evidence/identical_programs.hpp"
#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/evidence/placement.hpp"
#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

constexpr double kInconclusiveShare = 0.25;  // "many benchmarks are inconclusive"
constexpr std::size_t kNamedAtMost = 3;

Recommendation done(Sentence&& s, RecommendationKind kind) {
  std::vector<TextPart> parts = std::move(s).take();
  std::string plain = plain_text(parts);
  return {kind, std::move(plain), std::move(parts), false};
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

// The inconclusive benchmarks, but for instruction counts that are not repeatable ("its time
// decides") where their benchmark's time row is analysed: that row speaks for the benchmark,
// and a count that moves from run to run of one side says nothing the headline should wait for.
// A placement-only relink of cctz read "No clear answer yet" on such a count
// (LoadAllTimeZonesFirst, +8.7% between the sides, 8.7% between a side's own two counts) beside a
// decided time row.
std::vector<const BenchmarkAnalysis*> inconclusive_for_the_headline(const Analysis& a) {
  std::unordered_set<std::string> timed;
  for (const auto& b : a.benchmarks)
    if (!is_instruction_analysis(b)) timed.insert(instruction_suite_name(b.suite) + '\n' + b.name);
  std::vector<const BenchmarkAnalysis*> out = with_verdict(a, {Verdict::Inconclusive});
  std::erase_if(out, [&](const BenchmarkAnalysis* b) {
    return is_instruction_analysis(*b) && !b->count_check.empty() &&
           timed.count(b->suite + '\n' + b->name) > 0;
  });
  return out;
}

std::string display_name(const BenchmarkAnalysis& b, bool several_suites) {
  return several_suites ? qualified_name(b.suite, b.name) : b.name;
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

namespace {

// The analysed benchmarks by verdict, each list largest change first.
struct ByVerdict {
  explicit ByVerdict(const Analysis& a)
      : regressions(with_verdict(a, {Verdict::Regression})),
        failed(with_verdict(a, {Verdict::Failed})),
        improvements(with_verdict(a, {Verdict::Improvement})),
        faster(with_verdict(a, {Verdict::Faster})),
        slower(with_verdict(a, {Verdict::Slower})),
        inconclusive(inconclusive_for_the_headline(a)),
        unchanged(with_verdict(a, {Verdict::Unchanged})),
        placement(with_verdict(a, {Verdict::Placement})),
        compared(regressions.size() + improvements.size() + faster.size() + slower.size() +
                 static_cast<std::size_t>(std::count_if(
                     a.benchmarks.begin(), a.benchmarks.end(),
                     [](const auto& b) { return b.verdict == Verdict::Inconclusive; })) +
                 unchanged.size() + placement.size()) {}
  std::vector<const BenchmarkAnalysis*> regressions, failed, improvements, faster, slower,
      inconclusive, unchanged, placement;
  std::size_t compared;  // every benchmark with a verdict from both sides' values
};

// "The pull request failed to build (exit code 2): nothing could be compared."
std::optional<Recommendation> failed_builds(const Results& results) {
  Sentence s;
  bool any = false;
  for (const auto& b : results.builds) {
    if (b.ok) continue;
    s.text(fmt::format("{}The {} failed to build ({})", any ? "; " : "",
                       b.side == Side::Base ? "base revision" : "pull request", b.failure));
    any = true;
  }
  if (!any) return std::nullopt;
  s.text(": nothing could be compared.");
  return done(std::move(s), RecommendationKind::Failed);
}

void describe_largest(Sentence& s, const std::vector<const BenchmarkAnalysis*>& benchmarks,
                      bool suites) {
  for (std::size_t i = 0; i < std::min(benchmarks.size(), kNamedAtMost); ++i) {
    if (i) s.text("; ");
    describe(s, *benchmarks[i], suites);
  }
  list_more(s, benchmarks.size());
}

// A regression beside an improvement: both are named, the largest of each, so the reader can
// weigh a large win against a small loss instead of reading only "don't merge".
Recommendation regressions_found(const ByVerdict& v, bool suites) {
  Sentence s;
  describe_largest(s, v.regressions, suites);
  const bool mixed = !v.improvements.empty();
  if (mixed) {
    s.text("; against that, ");
    describe_largest(s, v.improvements, suites);
  }
  s.text(".");
  Recommendation r = done(std::move(s), RecommendationKind::DoNotMerge);
  r.mixed = mixed;
  return r;
}

// "`BM_X` (PR: killed by signal 11 (SIGSEGV)); `BM_Y` (…)", the first few failed benchmarks.
void name_failed(Sentence& s, const ByVerdict& v, bool suites) {
  for (std::size_t i = 0; i < std::min(v.failed.size(), kNamedAtMost); ++i) {
    s.text(i ? "; " : "").code(display_name(*v.failed[i], suites));
    if (!v.failed[i]->reason.empty()) s.text(" (" + v.failed[i]->reason + ")");
  }
  list_more(s, v.failed.size());
}

// Benchmarks failed and none compared: there is nothing to read.
Recommendation benchmarks_failed(const ByVerdict& v, bool suites) {
  Sentence s;
  s.text(v.failed.size() == 1 ? "The only benchmark to compare failed: "
                              : fmt::format("All {} benchmarks failed: ", v.failed.size()));
  name_failed(s, v, suites);
  s.text("; nothing could be compared.");
  return done(std::move(s), RecommendationKind::Failed);
}

// The reading of the benchmarks that compared, followed by the ones that failed: "… 1 benchmark
// failed and is not in this reading: `BM_X` (PR: killed by signal 11 (SIGSEGV))." A failure
// leaves a hole in the comparison, not a reason to discard what the others showed; but what
// failed may be what the pull request broke, so a merge becomes `Failed` (exit code 4 with
// --fail-on failed, GitHub's "error" state), its title saying the reading is incomplete.
Recommendation with_failures(Recommendation r, const ByVerdict& v, bool suites) {
  if (v.failed.empty()) return r;
  r.incomplete = true;
  if (r.kind == RecommendationKind::Merge) r.kind = RecommendationKind::Failed;
  Sentence s;
  s.text(v.failed.size() == 1
             ? " 1 benchmark failed and is not in this reading: "
             : fmt::format(" {} benchmarks failed and are not in this reading: ", v.failed.size()));
  name_failed(s, v, suites);
  s.text(".");
  for (TextPart& part : std::move(s).take()) r.reason_parts.push_back(std::move(part));
  r.reason = plain_text(r.reason_parts);
  return r;
}

// Says why the title or labels matter here: without the claim this run would be a merge.
Recommendation claim_not_shown(const PerformanceClaim& claim, const ByVerdict& v) {
  Sentence s;
  s.text("This pull request presents itself as a performance change (" + claim.what + " ")
      .code(claim.quoted)
      .text(
          "), but no benchmark improved significantly: not as a performance change on the "
          "current evidence");
  if (!v.inconclusive.empty()) s.text(fmt::format(" ({} inconclusive)", v.inconclusive.size()));
  s.text(".");
  return done(std::move(s), RecommendationKind::DoNotMerge);
}

// Run order matters only where it left benchmarks undecided: a verdict reached over balanced
// AB/BA rounds stands, and "0 of 3 are inconclusive" is no answer.
// Those whose instruction counts decided (their count's own row carries the verdict) are not
// left open.
bool too_inconclusive(const Analysis& analysis, const ByVerdict& v) {
  const auto open = static_cast<std::size_t>(
      std::count_if(v.inconclusive.begin(), v.inconclusive.end(),
                    [](const auto* b) { return b->code_reading != CodeReading::CountsDecided; }));
  return (analysis.order_warning && open > 0) ||
         static_cast<double>(open) >= kInconclusiveShare * v.compared;
}

// What the comparison ruled out when it found nothing changed but left many benchmarks open:
// "No benchmark changed by more than 4.7% (95% CIs); 4 of 36 could not be resolved to ±2.0%
// within 15m, the widest `BM_X` (no change beyond ±4.7%)." Nothing when some interval is
// missing or a change was found (the sentence would then be false or beside the point).
std::optional<Recommendation> ruled_out(const Results& results, const Analysis& analysis,
                                        const ByVerdict& v, bool suites) {
  if (analysis.order_warning || v.inconclusive.empty() || !v.improvements.empty() ||
      !v.faster.empty() || !v.slower.empty())
    return std::nullopt;
  double bound = 0;
  const BenchmarkAnalysis* widest = nullptr;
  for (const auto* list : {&v.inconclusive, &v.unchanged}) {
    for (const BenchmarkAnalysis* b : *list) {
      const double x = undecided_bound(*b);
      if (!std::isfinite(x)) return std::nullopt;
      if (x > bound) bound = x;
      if (b->verdict == Verdict::Inconclusive && (!widest || x > undecided_bound(*widest)))
        widest = b;
    }
  }
  const bool own_thresholds = std::any_of(
      v.inconclusive.begin(), v.inconclusive.end(),
      [&](const BenchmarkAnalysis* b) { return b->threshold != results.config.threshold; });
  Sentence s;
  s.text(fmt::format("No benchmark changed by more than {} (95% CIs); {} of {} could not be "
                     "resolved to {} {}, the widest ",
                     format_percent(bound), v.inconclusive.size(), v.compared,
                     own_thresholds ? std::string("their thresholds")
                                    : "±" + format_percent(results.config.threshold),
                     results.config.budget_seconds
                         ? "within " + format_duration(*results.config.budget_seconds)
                         : fmt::format("in {} rounds", analysis.analysed_rounds)))
      .code(display_name(*widest, suites))
      .text(" (" + no_change_beyond(*widest) + ").");
  return done(std::move(s), RecommendationKind::Inconclusive);
}

Recommendation mostly_inconclusive(const Results& results, const Analysis& analysis,
                                   const ByVerdict& v, bool suites) {
  if (std::optional<Recommendation> r = ruled_out(results, analysis, v, suites))
    return std::move(*r);
  Sentence s;
  s.text(fmt::format("{} of {} benchmarks are inconclusive", v.inconclusive.size(), v.compared));
  const BenchmarkAnalysis* first = v.inconclusive.empty() ? nullptr : v.inconclusive.front();
  if (first) {
    s.text(", among them ").code(display_name(*first, suites));
    s.text(" (" + first->reason + ")");
  }
  if (analysis.order_warning) s.text("; the sign follows run order for many of them");
  const int need = first && first->rounds_needed ? *first->rounds_needed : 0;
  if (need > 0) s.text(fmt::format("; about {} rounds would settle it", need));
  s.text(".");
  return done(std::move(s), RecommendationKind::Inconclusive);
}

// Whether a benchmark's estimate points the worse way (slower, or lower throughput).
bool reads_worse(const BenchmarkAnalysis& b) {
  return b.better == Better::Lower ? b.change > 0 : b.change < 0;
}

// A benchmark whose estimate reads at or above its threshold while its size is open: a
// `slower`/`faster` one (significant, but regression needs the change shown beyond half the
// threshold), or an `inconclusive` one (not even shown to have changed). Either way, whether it
// crosses the threshold is not settled.
bool unsettled(const BenchmarkAnalysis& b) {
  return (b.verdict == Verdict::Slower || b.verdict == Verdict::Faster ||
          b.verdict == Verdict::Inconclusive) &&
         reads_at_least(b.change, b.threshold);
}

// The unsettled benchmarks of `lists` whose estimates point the `worse` way, largest first.
std::vector<const BenchmarkAnalysis*> unsettled_of(
    std::initializer_list<const std::vector<const BenchmarkAnalysis*>*> lists, bool worse) {
  std::vector<const BenchmarkAnalysis*> out;
  for (const auto* list : lists)
    for (const BenchmarkAnalysis* b : *list)
      if (unsettled(*b) && reads_worse(*b) == worse) out.push_back(b);
  std::stable_sort(out.begin(), out.end(), [](const auto* x, const auto* y) {
    return std::fabs(std::log1p(x->change)) > std::fabs(std::log1p(y->change));
  });
  return out;
}

// "`BM_X` is 2.4% slower (95% CI +1.1 … +3.7%), slower in 10 of 10 rounds; whether it exceeds
// the 2.0% threshold is not settled: about 8 more rounds would settle it". An inconclusive one
// says so and why: "`BM_X` is 2.4% slower by its estimate (95% CI −0.3 … +5.2%), inconclusive:
// not significant after correcting for 50 benchmarks (…); whether it exceeds …".
void describe_unsettled(Sentence& s, const BenchmarkAnalysis& b, bool suites) {
  s.code(display_name(b, suites));
  if (b.verdict == Verdict::Inconclusive) {
    s.text(fmt::format(" is {} by its estimate (95% CI {}), inconclusive",
                       describe_change(b.change, b.better), format_interval(b.ci_low, b.ci_high)));
    if (!b.reason.empty()) s.text(": " + b.reason);
  } else {
    const bool worse = b.verdict == Verdict::Slower;
    s.text(fmt::format(" is {} (95% CI {}), {} in {} of {} rounds",
                       describe_change(b.change, b.better), format_interval(b.ci_low, b.ci_high),
                       worse ? worse_word(b.better) : better_word(b.better),
                       worse ? b.worse_rounds : b.better_rounds, b.rounds_used));
  }
  s.text(fmt::format("; whether it exceeds the {} threshold is not settled",
                     format_percent(b.threshold)));
  const int more = b.rounds_needed ? *b.rounds_needed - b.rounds_used : 0;
  if (more > 0) {
    s.text(fmt::format(": about {} more round{} would settle it", more, more == 1 ? "" : "s"));
  } else {
    s.text(": more rounds would settle it");
  }
}

// An inconclusive recommendation's sentence `s`, ended with what speaks for the PR: its largest
// improvements, where there are any.
Recommendation inconclusive_against_improvements(Sentence&& s, const ByVerdict& v, bool suites) {
  if (!v.improvements.empty()) {
    s.text(" Against that, ");
    describe_largest(s, v.improvements, suites);
    s.text(".");
  }
  return done(std::move(s), RecommendationKind::Inconclusive);
}

// A slowdown whose estimate reads at or above the threshold, its size not settled (`slower`, or
// `inconclusive`): not a plain merge. Say what is known: the estimate, that its size is open,
// what would settle it.
Recommendation size_not_settled(const std::vector<const BenchmarkAnalysis*>& open,
                                const ByVerdict& v, bool suites) {
  Sentence s;
  for (std::size_t i = 0; i < std::min(open.size(), kNamedAtMost); ++i) {
    if (i) s.text("; ");
    describe_unsettled(s, *open[i], suites);
  }
  list_more(s, open.size());
  s.text(".");
  return inconclusive_against_improvements(std::move(s), v, suites);
}

// The compared benchmarks that could be worse by their threshold or more: their interval's
// worse end reaches it. "Looks good to merge" and "No benchmark changed by 2.0% or more" would
// claim what these did not show, whatever their estimates read. Widest first.
// Code the counts and the code comparison show the PR did not change is not among them: its
// interval is the machine's, not the PR's (core/evidence/placement.hpp).
std::vector<const BenchmarkAnalysis*> could_be_worse(const Results& results,
                                                     const Analysis& analysis, const ByVerdict& v) {
  std::vector<const BenchmarkAnalysis*> out;
  for (const auto* list : {&v.slower, &v.inconclusive, &v.unchanged, &v.faster})
    for (const BenchmarkAnalysis* b : *list)
      if (const double x = worse_bound(*b); std::isfinite(x) && reads_at_least(x, b->threshold) &&
                                            b->code_reading != CodeReading::SameWork &&
                                            b->code_reading != CodeReading::SameCount &&
                                            !same_code_and_count(results, analysis, *b))
        out.push_back(b);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto* x, const auto* y) { return worse_bound(*x) > worse_bound(*y); });
  return out;
}

// "`BM_Noisy` could be up to 5.8% slower (estimate +1.0%, 90% CI −3.5 … +5.8%): about 12 more
// rounds would settle it." Not a merge, not a do-not-merge: what would settle it.
Recommendation not_shown_within(const Analysis& analysis,
                                const std::vector<const BenchmarkAnalysis*>& open,
                                const ByVerdict& v, bool suites) {
  Sentence s;
  s.text("Not shown to be free of regressions: ");
  for (std::size_t i = 0; i < std::min(open.size(), kNamedAtMost); ++i) {
    const BenchmarkAnalysis& b = *open[i];
    if (i) s.text("; ");
    s.code(display_name(b, suites));
    const double x = worse_bound(b);
    s.text(fmt::format(" could be up to {} {} (estimate {}, {} CI {}, {})", format_percent(x),
                       worse_word(b.better), format_signed_percent(b.change),
                       format_level(analysis.equivalence_level),
                       format_interval(b.eq_low, b.eq_high), to_string(b.verdict)));
    const int more = b.rounds_needed ? *b.rounds_needed - b.rounds_used : 0;
    if (more > 0) {
      s.text(fmt::format(": about {} more round{} would settle it", more, more == 1 ? "" : "s"));
    } else {
      s.text(": more rounds would settle it");
    }
  }
  list_more(s, open.size());
  s.text(".");
  return inconclusive_against_improvements(std::move(s), v, suites);
}

Recommendation merge(const Results& results, const Analysis& analysis, const ByVerdict& v,
                     bool suites) {
  Sentence s;
  const std::vector<const BenchmarkAnalysis*> open_faster =
      unsettled_of({&v.faster, &v.inconclusive}, false);
  if (!v.improvements.empty()) {
    describe_largest(s, v.improvements, suites);
    s.text("; no regressions.");
  } else if (!open_faster.empty()) {
    // "No benchmark changed by 2.0%" would be false beside a 2.4% faster estimate.
    s.text("No regressions. ");
    for (std::size_t i = 0; i < std::min(open_faster.size(), kNamedAtMost); ++i) {
      if (i) s.text("; ");
      describe_unsettled(s, *open_faster[i], suites);
    }
    list_more(s, open_faster.size());
    s.text(".");
  } else {
    const bool own_thresholds = std::any_of(
        analysis.benchmarks.begin(), analysis.benchmarks.end(),
        [&](const BenchmarkAnalysis& b) { return b.threshold != results.config.threshold; });
    const auto identical = static_cast<std::size_t>(std::count_if(
        v.unchanged.begin(), v.unchanged.end(),
        [](const BenchmarkAnalysis* b) { return b->reason == kIdenticalProgramsReason; }));
    if (identical == v.compared) {
      // Nothing was timed: the same code and data run on both sides.
      s.text(fmt::format(
          "The benchmark programs are byte-identical: the pull request changes nothing they "
          "run ({} unchanged, decided without timing).",
          identical == 1 ? std::string("1 benchmark") : fmt::format("{} benchmarks", identical)));
    } else {
      s.text(own_thresholds ? std::string("No benchmark changed by its threshold or more")
                            : fmt::format("No benchmark changed by {} or more",
                                          format_percent(results.config.threshold)));
      s.text(fmt::format(" ({} of {} shown unchanged", v.unchanged.size(), v.compared));
      if (identical > 0)
        s.text(fmt::format(", {} of them in byte-identical programs, not timed", identical));
      s.text(").");
    }
  }
  if (!v.slower.empty()) {
    // Every `slower` here reads below its threshold, and so does every `inconclusive` slowdown
    // (size_not_settled took the others); when
    // its interval reaches the threshold, the sentence says the estimate is below it, not the
    // change.
    const BenchmarkAnalysis& first = *v.slower.front();
    const double far = first.change >= 0 ? first.ci_high : first.ci_low;
    s.text(" ").code(display_name(first, suites));
    if (reads_at_least(far, first.threshold)) {
      s.text(fmt::format(
          " is {}, a small consistent change estimated below the {} threshold (its 95% CI "
          "reaches {})",
          describe_change(first.change, first.better), format_percent(first.threshold),
          format_signed_percent(far)));
    } else {
      s.text(fmt::format(" is {}, a small consistent change below the {} threshold",
                         describe_change(first.change, first.better),
                         format_percent(first.threshold)));
    }
    list_more(s, v.slower.size());
    s.text(".");
  }
  return done(std::move(s), RecommendationKind::Merge);
}

// The reading of the compared benchmarks: the first answer that applies, in order of what the
// reader must know first.
Recommendation reading(const Results& results, const Analysis& analysis, const ByVerdict& v,
                       bool suites) {
  if (!v.regressions.empty()) return regressions_found(v, suites);
  const std::optional<PerformanceClaim> claim =
      results.pull_request ? performance_claim(*results.pull_request) : std::nullopt;
  if (claim && v.improvements.empty() && v.faster.empty()) return claim_not_shown(*claim, v);
  if (v.compared == 0) {
    Sentence s;
    s.text("No benchmark could be compared between the two revisions.");
    return done(std::move(s), RecommendationKind::Inconclusive);
  }
  if (too_inconclusive(analysis, v)) return mostly_inconclusive(results, analysis, v, suites);
  if (const auto open = unsettled_of({&v.slower, &v.inconclusive}, true); !open.empty())
    return size_not_settled(open, v, suites);
  if (const auto open = could_be_worse(results, analysis, v); !open.empty())
    return not_shown_within(analysis, open, v, suites);
  return merge(results, analysis, v, suites);
}

// "`BM_X` (and 10 more) moved by code placement only: …": said beside any reading, so a time
// change the table shows is never left unexplained by the sentence.
Recommendation with_placements(Recommendation r, const ByVerdict& v, bool suites) {
  if (v.placement.empty()) return r;
  Sentence s;
  s.text(" ");
  for (std::size_t i = 0; i < std::min(v.placement.size(), kNamedAtMost); ++i) {
    if (i) s.text(i + 1 == std::min(v.placement.size(), kNamedAtMost) ? " and " : ", ");
    s.code(display_name(*v.placement[i], suites));
  }
  list_more(s, v.placement.size());
  s.text(
      " moved by code placement only (the same instructions of the same code where they run, "
      "at other addresses): not the PR's change, and it may flip with the next commit.");
  for (TextPart& part : std::move(s).take()) r.reason_parts.push_back(std::move(part));
  r.reason = plain_text(r.reason_parts);
  return r;
}

}  // namespace

// The comparison stopped (interrupted) before any analysed round finished: no benchmark failed,
// none was measured yet, and the headline says that rather than listing each as a failure.
std::optional<Recommendation> stopped_before_a_round(const Results& results, const ByVerdict& v) {
  if (results.complete || v.failed.empty() || v.compared != 0) return std::nullopt;
  for (const BenchmarkAnalysis* b : v.failed)
    if (b->failure != FailureKind::NotMeasured) return std::nullopt;
  Sentence s;
  s.text(
      fmt::format("The comparison stopped before any round finished ({}): none of the {} "
                  "was measured, so nothing could be compared.",
                  stopped_because(results), plural(v.failed.size(), "benchmark", "benchmarks")));
  return done(std::move(s), RecommendationKind::Failed);
}

// "Could not compare" only when nothing could be: a failed build, or benchmarks that failed
// with none compared. Otherwise the compared benchmarks' reading, with the failures named.
Recommendation recommend(const Results& results, const Analysis& analysis) {
  if (std::optional<Recommendation> builds = failed_builds(results)) return std::move(*builds);
  const ByVerdict v(analysis);
  const bool suites = several_suites(analysis);
  if (std::optional<Recommendation> stopped = stopped_before_a_round(results, v))
    return std::move(*stopped);
  if (!v.failed.empty() && v.compared == 0) return benchmarks_failed(v, suites);
  return with_placements(with_failures(reading(results, analysis, v, suites), v, suites), v,
                         suites);
}

}  // namespace benchpr
