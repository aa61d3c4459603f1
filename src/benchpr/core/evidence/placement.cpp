#include "benchpr/core/evidence/placement.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

#include "benchpr/core/evidence/instruction_analysis.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

bool time_moved(Verdict v) {
  return v == Verdict::Regression || v == Verdict::Improvement || v == Verdict::Slower ||
         v == Verdict::Faster;
}

bool counts_moved(const BenchmarkAnalysis& ins) {
  return ins.verdict == Verdict::Regression || ins.verdict == Verdict::Improvement;
}

// The counted instruction analysis of a timed benchmark, or null.
const BenchmarkAnalysis* instructions_of(const std::vector<BenchmarkAnalysis>& benchmarks,
                                         const BenchmarkAnalysis& t) {
  const std::string suite = instruction_suite_name(t.suite);
  for (const BenchmarkAnalysis& b : benchmarks)
    if (is_instruction_analysis(b) && b.suite == suite && b.name == t.name) return &b;
  return nullptr;
}

// Counts that can be read: both sides counted, and each side's check agreed with its count.
bool exact_counts(const BenchmarkAnalysis* ins) {
  return ins != nullptr && std::isfinite(ins->change) && ins->count_check.empty() &&
         (ins->verdict == Verdict::Regression || ins->verdict == Verdict::Improvement ||
          ins->verdict == Verdict::Unchanged);
}

// Evidence that every hot function is the same code where the benchmark runs it: byte-identical
// in both builds, or running the same instructions of the base's path through the PR's bytes
// (HotFunction::executed_same). Read from the two built programs, which the PR's code cannot
// rewrite once built (the executables' digests are checked before every run), and the base's
// sealed Callgrind output: the PR's own output, written where its code runs, must agree with
// that path but cannot choose it (runner/elf_symbols.hpp, same_executed_code). Not code whose
// native path the counted run may not have taken (CodeEvidence::unrun_changed).
bool identical_code(const CodeEvidence* code) {
  if (code == nullptr || !code->missing.empty() || code->functions.empty() ||
      !code->unrun_changed.empty())
    return false;
  return std::all_of(code->functions.begin(), code->functions.end(),
                     [](const HotFunction& f) { return f.same_where_run(); });
}

// Code that changed (or could not be compared) running the same instructions with the same
// estimated cycles: time alone says whether it got slower, and the counts say it did no more or
// less work. Where the interval is too wide to call either way but its worse end stays short of
// the threshold, nothing the PR pays is hidden: `unchanged`. An interval that reaches the
// threshold on the worse side is never read away by a count, nor one that follows the run order
// or shows waiting (a stall costs time without instructions).
CodeReading same_count_reading(const BenchmarkAnalysis& time) {
  if (time.verdict != Verdict::Inconclusive || !time.no_signal) return CodeReading::None;
  if (time.has_flag(BenchmarkFlag::Order) || time.has_flag(BenchmarkFlag::Waiting))
    return CodeReading::None;
  const double worse = worse_bound(time);
  if (!std::isfinite(worse) || reads_at_least(worse, time.threshold)) return CodeReading::None;
  return CodeReading::SameCount;
}

}  // namespace

std::vector<HotName> hot_function_names(const FunctionProfile& base, const FunctionProfile& head,
                                        double coverage, double* covered) {
  if (covered) *covered = 0;
  if (!(base.total > 0) || !(head.total > 0)) return {};
  std::map<std::string, double> share;  // name -> the larger side's share
  for (const FunctionProfile* p : {&base, &head}) {
    std::vector<const ProfiledFunction*> by_self;
    for (const ProfiledFunction& f : p->functions)
      if (f.self > 0) by_self.push_back(&f);
    std::stable_sort(by_self.begin(), by_self.end(),
                     [](const ProfiledFunction* a, const ProfiledFunction* b) {
                       if (a->self != b->self) return a->self > b->self;
                       return a->name < b->name;
                     });
    double sum = 0;
    for (const ProfiledFunction* f : by_self) {
      if (sum >= coverage * p->total) break;
      sum += f->self;
      share[f->name] = std::max(share[f->name], f->self / p->total);
    }
  }
  // What the chosen functions hold on each side (a function chosen on one side counts on both).
  if (covered) {
    double least = 1;
    for (const FunctionProfile* p : {&base, &head}) {
      double sum = 0;
      for (const ProfiledFunction& f : p->functions)
        if (f.self > 0 && share.count(f.name)) sum += f.self;
      least = std::min(least, sum / p->total);
    }
    *covered = least;
  }
  std::vector<HotName> out;
  for (const auto& [name, s] : share) out.push_back({name, s});
  std::stable_sort(out.begin(), out.end(),
                   [](const HotName& a, const HotName& b) { return a.share > b.share; });
  return out;
}

bool unnamed_function(const std::string& name) { return name.empty() || name.rfind("0x", 0) == 0; }

bool same_count(const BenchmarkAnalysis& ins, double instruction_threshold) {
  return std::isfinite(ins.change) &&
         std::fabs(ins.change) <= count_agreement(instruction_threshold) + 1e-12;
}

CodeReading read_code(const BenchmarkAnalysis& time, const BenchmarkAnalysis* ins,
                      const CodeEvidence* code, double instruction_threshold) {
  if (is_instruction_analysis(time) || !exact_counts(ins)) return CodeReading::None;
  // Counts beyond their threshold decide what time could not; where time did decide, it stands
  // (and a disagreement between the two is a note).
  if (counts_moved(*ins))
    return time.verdict == Verdict::Inconclusive ? CodeReading::CountsDecided : CodeReading::None;
  if (!same_count(*ins, instruction_threshold)) return CodeReading::None;
  // The same instructions with other cache misses (Callgrind's simulation) are not the same
  // work, and byte-identical code that misses differently is not a matter of where it sits.
  if (ins->cycles_moved) return CodeReading::None;
  // The same count of different code is not the same work: any hot function changed, or code
  // that could not be compared, leaves time the judge (of a slowdown, at least).
  if (!identical_code(code)) return same_count_reading(time);
  const auto& fs = code->functions;
  if (time_moved(time.verdict)) {
    // Identical code at the same addresses: whatever moved the time is not where the code sits.
    // A function the same only where it runs moved within itself when its size changed (the
    // code it does not run grew or shrank around the code it runs).
    const bool moved = std::any_of(fs.begin(), fs.end(), [](const HotFunction& f) {
      return !f.outside && (f.shift() != 0 || (!f.identical && f.base_size != f.head_size));
    });
    return moved ? CodeReading::Placement : CodeReading::None;
  }
  return time.verdict == Verdict::Inconclusive ? CodeReading::SameWork : CodeReading::None;
}

bool same_code_and_count(const Results& results, const Analysis& analysis,
                         const BenchmarkAnalysis& timed) {
  if (is_instruction_analysis(timed)) return false;
  const BenchmarkAnalysis* ins = instructions_of(analysis.benchmarks, timed);
  if (!exact_counts(ins) || counts_moved(*ins) ||
      !same_count(*ins, results.config.instruction_threshold) || ins->cycles_moved)
    return false;
  return identical_code(find_code_evidence(results, timed.suite, timed.name));
}

const CodeEvidence* find_code_evidence(const Results& results, const std::string& suite,
                                       const std::string& name) {
  for (const CodeEvidence& e : results.hot_code)
    if (e.suite == suite && e.name == name) return &e;
  return nullptr;
}

void apply_code_readings(const Results& results, Analysis& analysis) {
  apply_code_readings(results, analysis.benchmarks, analysis.benchmarks);
}

void apply_code_readings(const Results& results, std::vector<BenchmarkAnalysis>& timed,
                         const std::vector<BenchmarkAnalysis>& counted) {
  const double threshold = results.config.instruction_threshold;
  // Indexed once: every look reads every open benchmark, and a suite may have thousands.
  const auto key = [](const std::string& suite, const std::string& name) {
    return suite + '\n' + name;
  };
  std::unordered_map<std::string, const BenchmarkAnalysis*> counts;
  for (const BenchmarkAnalysis& b : counted)
    if (is_instruction_analysis(b)) counts.emplace(key(b.suite, b.name), &b);
  if (counts.empty()) return;
  std::unordered_map<std::string, const CodeEvidence*> evidence;
  for (const CodeEvidence& e : results.hot_code) evidence.emplace(key(e.suite, e.name), &e);
  for (BenchmarkAnalysis& t : timed) {
    if (is_instruction_analysis(t)) continue;
    const auto c = counts.find(key(instruction_suite_name(t.suite), t.name));
    const BenchmarkAnalysis* ins = c == counts.end() ? nullptr : c->second;
    const auto e = evidence.find(key(t.suite, t.name));
    const CodeReading r = read_code(t, ins, e == evidence.end() ? nullptr : e->second, threshold);
    if (r == CodeReading::None) continue;
    t.code_reading = r;
    t.time_verdict = t.verdict;
    t.instructions_base = ins->base_value;
    t.instructions_head = ins->head_value;
    if (r == CodeReading::Placement) {
      t.verdict = Verdict::Placement;
    } else if (r == CodeReading::SameWork || r == CodeReading::SameCount) {
      t.verdict = Verdict::Unchanged;
      t.no_signal = false;
      t.rounds_needed.reset();
    }
  }
}

std::vector<std::pair<std::string, std::string>> code_evidence_wanted(const Results& results,
                                                                      const Analysis& analysis) {
  // From the counts, not the time rows: before the first round there are none, and a
  // benchmark's evidence does not depend on its time. A timed benchmark that was added,
  // removed or failed (not for want of a round) has nothing to compare.
  std::map<std::pair<std::string, std::string>, const BenchmarkAnalysis*> timed;
  for (const BenchmarkAnalysis& t : analysis.benchmarks)
    if (!is_instruction_analysis(t)) timed[{t.suite, t.name}] = &t;
  std::vector<std::pair<std::string, std::string>> out;
  for (const SuiteConfig& suite : results.config.suites) {
    if (!Config::measures_time(suite) || !results.config.counts_instructions(suite)) continue;
    const std::string counted = instruction_suite_name(suite.name);
    for (const BenchmarkAnalysis& ins : analysis.benchmarks) {
      if (!is_instruction_analysis(ins) || ins.suite != counted) continue;
      if (!exact_counts(&ins) || counts_moved(ins) ||
          !same_count(ins, results.config.instruction_threshold))
        continue;
      if (const auto t = timed.find({suite.name, ins.name}); t != timed.end()) {
        const Verdict v = t->second->verdict;
        if (v == Verdict::Added || v == Verdict::Removed ||
            (v == Verdict::Failed && t->second->failure != FailureKind::NotMeasured))
          continue;
      }
      out.emplace_back(suite.name, ins.name);
    }
  }
  return out;
}

}  // namespace benchpr
