#include "benchpr/runner/code_evidence.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <fmt/format.h>

#include "benchpr/core/evidence/placement.hpp"
#include "benchpr/runner/placement_variants.hpp"
#include "benchpr/runner/profiles.hpp"

namespace benchpr::runner {

namespace {

// Every function of that name in the programs of one side, by address.
std::vector<std::pair<const ElfFunction*, const ElfFunctions*>> find_named(
    const std::vector<const ElfFunctions*>& programs, const std::string& name) {
  std::vector<std::pair<const ElfFunction*, const ElfFunctions*>> out;
  for (const ElfFunctions* p : programs)
    for (const ElfFunction& f : p->functions)
      if (f.name == name) out.emplace_back(&f, p);
  return out;
}

}  // namespace

CodeEvidence compare_hot_code(const std::string& suite, const std::string& name,
                              const FunctionProfile& base, const FunctionProfile& head,
                              const std::vector<const ElfFunctions*>& base_programs,
                              const std::vector<const ElfFunctions*>& head_programs,
                              const ExecutedByFunction& base_run,
                              const ExecutedByFunction& head_run, bool unseen_cpu_paths) {
  CodeEvidence e;
  e.suite = suite;
  e.name = name;
  const std::vector<HotName> hot = hot_function_names(base, head, kHotCoverage, &e.covered);
  if (hot.empty()) {
    e.missing = "no instructions per iteration in the profile";
    return e;
  }
  for (const std::vector<const ElfFunctions*>* side : {&base_programs, &head_programs})
    for (const ElfFunctions* p : *side)
      if (!p->error.empty() && e.missing.empty()) e.missing = p->error;
  for (const HotName& h : hot) {
    HotFunction f;
    f.name = h.name;
    f.share = h.share;
    if (unnamed_function(h.name)) {
      if (e.missing.empty())
        e.missing =
            fmt::format("a hot function has no name ({}): its code cannot be found", h.name);
      e.functions.push_back(std::move(f));
      continue;
    }
    const std::string symbol = callgrind_base_name(h.name);
    const auto b = find_named(base_programs, symbol);
    const auto hd = find_named(head_programs, symbol);
    if (b.empty() && hd.empty()) {
      // In a library neither build made (the C library, a system Google Benchmark): the same
      // file for both sides' processes.
      f.outside = true;
      f.identical = true;
    } else if (!b.empty() && !hd.empty()) {
      f.base_address = b.front().first->address;
      f.head_address = hd.front().first->address;
      f.base_size = b.front().first->size;
      f.head_size = hd.front().first->size;
      // Several functions of one name (static functions of several files): the same ones, in
      // the same order, each the same code.
      f.identical = b.size() == hd.size();
      for (std::size_t i = 0; i < b.size() && f.identical; ++i)
        f.identical = same_code(*b[i].first, *b[i].second, *hd[i].first, *hd[i].second);
      // Not the same code: perhaps the same where this benchmark runs it (one function of the
      // name on each side, and its executed instructions known on both).
      const auto run_b = base_run.find(h.name);
      const auto run_h = head_run.find(h.name);
      if (!f.identical && b.size() == 1 && hd.size() == 1 && run_b != base_run.end() &&
          run_h != head_run.end())
        f.executed_same = same_executed_code(*b[0].first, *b[0].second, run_b->second, *hd[0].first,
                                             *hd[0].second, run_h->second);
    } else {
      // In one build only: not the same code (identical stays false).
      if (!b.empty()) {
        f.base_address = b.front().first->address;
        f.base_size = b.front().first->size;
      } else {
        f.head_address = hd.front().first->address;
        f.head_size = hd.front().first->size;
      }
    }
    e.functions.push_back(std::move(f));
  }
  if (unseen_cpu_paths)
    e.unrun_changed = changed_callee_not_run(base, head, base_programs, head_programs);
  return e;
}

std::string changed_callee_not_run(const FunctionProfile& base, const FunctionProfile& head,
                                   const std::vector<const ElfFunctions*>& base_programs,
                                   const std::vector<const ElfFunctions*>& head_programs) {
  // Whether every function of that name is the same code on both sides; and whether any of them
  // holds AVX-512 code: only such a callee can be what the CPU picks natively and Valgrind never
  // does (Valgrind runs AVX2, so a call not taken under it to other code is not taken natively).
  const auto same_on_both = [&](const std::string& symbol) {
    const auto b = find_named(base_programs, symbol);
    const auto h = find_named(head_programs, symbol);
    const auto avx512 = [](const auto& found) {
      return std::any_of(found.begin(), found.end(),
                         [](const auto& f) { return has_avx512_code(*f.first); });
    };
    if (!avx512(b) && !avx512(h)) return true;
    if (b.size() != h.size()) return false;
    for (std::size_t i = 0; i < b.size(); ++i)
      if (!same_code(*b[i].first, *b[i].second, *h[i].first, *h[i].second)) return false;
    return true;
  };
  // Each side from its own run and programs: a new function of the PR's is called from the
  // PR's code.
  for (const auto& [profile, programs] :
       {std::pair{&base, &base_programs}, std::pair{&head, &head_programs}}) {
    std::set<std::string> ran;
    for (const ProfiledFunction& f : profile->functions)
      if (f.self > 0 && !unnamed_function(f.name)) ran.insert(callgrind_base_name(f.name));
    std::set<std::string> checked;
    for (const std::string& caller : ran)
      for (const auto& [fn, program] : find_named(*programs, caller))
        for (const std::string& callee : direct_callees(*fn, *program)) {
          if (ran.count(callee) || !checked.insert(callee).second) continue;
          if (!same_on_both(callee)) return fmt::format("`{}` (called from `{}`)", callee, caller);
        }
  }
  return "";
}

bool cpu_beyond_valgrind() {
  // Valgrind (3.19–3.22) runs AVX2 but not AVX-512: CPUID under it says no AVX-512.
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("flags", 0) == 0) return line.find(" avx512f") != std::string::npos;
  return false;
}

void gather_code_evidence(Results& results,
                          const std::vector<std::pair<std::string, std::string>>& wanted,
                          const CodeEvidenceSetup& setup,
                          const std::function<void(const std::string&)>& progress) {
  results.hot_code.clear();
  if (wanted.empty()) return;
  std::map<std::string, std::unique_ptr<ElfFunctions>> read;  // by path
  const auto programs = [&](const std::string& suite, Side side) {
    std::vector<const ElfFunctions*> out;
    for (const ExecutableDigest& x : results.executables) {
      // The placement control's relinked programs hold the same functions again: read, they
      // would make every hot function one of several of its name.
      if (x.suite != suite || x.side != side || is_placement_variant(x.path)) continue;
      const std::string path =
          (side == Side::Base ? setup.base_dir : setup.head_dir) + "/" + x.path;
      auto& slot = read[path];
      if (!slot) slot = std::make_unique<ElfFunctions>(read_elf_functions(path));
      out.push_back(slot.get());
    }
    return out;
  };
  int identical = 0, moved = 0, executed_same = 0, unseen = 0, uncounted = 0;
  for (const auto& [suite, name] : wanted) {
    std::optional<CountedProfile> base =
        counted_profile(setup.counted, suite, Side::Base, name, progress);
    std::optional<CountedProfile> head =
        counted_profile(setup.counted, suite, Side::Head, name, progress);
    CodeEvidence e;
    if (!base || !head) {
      e.suite = suite;
      e.name = name;
      e.missing = "no counted Callgrind run of this benchmark to read its hot functions from";
    } else {
      const std::vector<const ElfFunctions*> bp = programs(suite, Side::Base);
      const std::vector<const ElfFunctions*> hp = programs(suite, Side::Head);
      if (bp.empty() || hp.empty()) {
        e.suite = suite;
        e.name = name;
        e.missing = "no built program recorded for the suite";
      } else {
        e = compare_hot_code(suite, name, base->profile, head->profile, bp, hp, base->executed,
                             head->executed, setup.unseen_cpu_paths);
      }
    }
    bool all = e.missing.empty() && !e.functions.empty();
    bool any_moved = false;
    for (const HotFunction& f : e.functions) {
      all &= f.same_where_run();
      executed_same += f.executed_same ? 1 : 0;
      any_moved |= !f.outside && f.shift() != 0;
    }
    if (!e.unrun_changed.empty()) {
      ++unseen;
      all = false;
    }
    identical += all ? 1 : 0;
    moved += all && any_moved ? 1 : 0;
    // Without counted runs (a resumed comparison counts nothing again) every benchmark would say
    // the same: one line for them all.
    if (!base || !head)
      ++uncounted;
    else if (!e.missing.empty())
      progress(fmt::format("  {}: hot code not compared: {}", name, e.missing));
    results.hot_code.push_back(std::move(e));
  }
  progress(fmt::format(
      "compared the hot code of {} benchmark(s) whose instruction counts did not move: {} the "
      "same code where they run it, {} of them at other addresses ({} changed function(s) the "
      "same where run)",
      wanted.size(), identical, moved, executed_same));
  if (uncounted > 0)
    progress(
        fmt::format("  hot code not compared for {} of them: no counted Callgrind run to read "
                    "their hot functions from",
                    uncounted));
  if (unseen > 0)
    progress(fmt::format(
        "  {} of them may run other code natively: this machine's CPU has AVX-512, which Valgrind "
        "does not run, and a function they could call changed but did not run under Callgrind; "
        "their time is not read as placement or the same work",
        unseen));
}

}  // namespace benchpr::runner
