#include "benchpr/core/evidence/profile_diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "benchpr/core/wording/sentence.hpp"
#include "benchpr/core/wording/wording.hpp"

namespace benchpr {

namespace {

// Frames that are not the benchmark's code: Google Benchmark's runner, main (BENCHMARK_MAIN),
// the C runtime and unnamed code (a library without symbols).
bool runtime_frame(std::string_view name) {
  for (std::string_view prefix :
       {"benchmark::", "(below main)", "__libc_start", "_start", "0x", "_dl_", "main("})
    if (name.substr(0, prefix.size()) == prefix) return true;
  return name == "main";
}

using Edges = std::map<std::string, std::vector<std::pair<std::string, double>>>;

Edges callers_of(const FunctionProfile& p) {
  Edges e;
  for (const ProfiledCall& c : p.calls)
    if (c.caller != c.callee) e[c.callee].push_back({c.caller, c.inclusive});
  return e;
}

Edges callees_of(const FunctionProfile& p) {
  Edges e;
  for (const ProfiledCall& c : p.calls)
    if (c.caller != c.callee) e[c.caller].push_back({c.callee, c.inclusive});
  return e;
}

double inclusive_of(const FunctionProfile& p, const std::string& name) {
  const ProfiledFunction* f = find_function(p, name);
  return f ? f->inclusive : 0;
}

double self_of(const FunctionProfile& p, const std::string& name) {
  const ProfiledFunction* f = find_function(p, name);
  return f ? f->self : 0;
}

std::vector<std::string> heaviest_callers(const FunctionProfile& p, const std::string& name,
                                          const std::string& root) {
  const Edges callers = callers_of(p);
  std::vector<std::string> path{name};
  std::set<std::string> on_path{name};
  std::string current = name;
  while (current != root && path.size() < 16) {
    const auto it = callers.find(current);
    if (it == callers.end()) break;
    const std::pair<std::string, double>* best = nullptr;
    for (const auto& c : it->second)
      if (!on_path.count(c.first) &&
          (!best || c.second > best->second || (c.second == best->second && c.first < best->first)))
        best = &c;
    if (!best) break;
    current = best->first;
    on_path.insert(current);
    path.push_back(current);
  }
  std::reverse(path.begin(), path.end());
  // Above the benchmark's own function: the runner's frames, the same for every benchmark.
  while (path.size() > 1 && runtime_frame(path.front())) path.erase(path.begin());
  return path;
}

}  // namespace

std::string benchmark_root(const FunctionProfile& p) {
  double most = 0;
  for (const ProfiledFunction& f : p.functions)
    if (!runtime_frame(f.name)) most = std::max(most, f.inclusive);
  if (most <= 0) return "";
  std::vector<std::string> heaviest;
  for (const ProfiledFunction& f : p.functions)
    if (!runtime_frame(f.name) && f.inclusive >= most * (1 - 1e-9)) heaviest.push_back(f.name);
  std::sort(heaviest.begin(), heaviest.end());
  // Of equally heavy functions (one calls the other and has no code of its own), the caller.
  const Edges callers = callers_of(p);
  for (const std::string& name : heaviest) {
    const auto it = callers.find(name);
    const bool called_by_another =
        it != callers.end() &&
        std::any_of(it->second.begin(), it->second.end(), [&](const auto& c) {
          return std::find(heaviest.begin(), heaviest.end(), c.first) != heaviest.end();
        });
    if (!called_by_another) return name;
  }
  return heaviest.front();
}

ProfileDiff diff_profiles(const FunctionProfile& base, const FunctionProfile& head,
                          double same_fraction) {
  ProfileDiff d;
  d.before = base.total;
  d.after = head.total;
  d.change = d.after - d.before;
  d.same_instructions = std::fabs(d.change) < same_fraction * d.before;
  std::set<std::string> names;
  for (const ProfiledFunction& f : base.functions) names.insert(f.name);
  for (const ProfiledFunction& f : head.functions) names.insert(f.name);
  const double floor = kMinFunctionShare * std::max(d.before, d.after);
  std::vector<FunctionChange> all;
  for (const std::string& name : names) {
    FunctionChange c;
    c.name = name;
    c.before = self_of(base, name);
    c.after = self_of(head, name);
    c.delta = c.after - c.before;
    if (c.delta == 0 || std::fabs(c.delta) < floor) continue;
    c.added = find_function(base, name) == nullptr;
    c.removed = find_function(head, name) == nullptr;
    all.push_back(std::move(c));
  }
  std::sort(all.begin(), all.end(), [](const FunctionChange& a, const FunctionChange& b) {
    if (std::fabs(a.delta) != std::fabs(b.delta)) return std::fabs(a.delta) > std::fabs(b.delta);
    return a.name < b.name;
  });
  if (all.size() > kMaxListed) all.resize(kMaxListed);
  const std::string head_root = benchmark_root(head);
  const std::string base_root = benchmark_root(base);
  double listed = 0;
  for (FunctionChange& c : all) {
    if (d.change != 0) c.share = c.delta / d.change;
    listed += c.delta;
    c.path = c.removed ? heaviest_callers(base, c.name, base_root)
                       : heaviest_callers(head, c.name, head_root);
  }
  if (d.change != 0) d.explained = listed / d.change;
  d.functions = std::move(all);
  return d;
}

namespace {

struct FlameBuilder {
  const FunctionProfile& base;
  const FunctionProfile& head;
  Edges head_calls;
  std::map<std::pair<std::string, std::string>, double> base_calls;
  double root_width = 0;
  double min_width = 0;
  int max_depth = 0;
  std::vector<FlameBox> boxes;
  std::vector<std::string> path;

  void expand(const std::string& name, int depth, double x, double after, double before) {
    boxes.push_back({name, depth, x / root_width, after / root_width, before, after});
    if (depth + 1 >= max_depth) return;
    // This context's share of the function's calls (1 for the root).
    const double head_total = inclusive_of(head, name);
    const double base_total = inclusive_of(base, name);
    const double head_factor = head_total > 0 ? std::min(1.0, after / head_total) : 0;
    const double base_factor = base_total > 0 ? std::min(1.0, before / base_total) : 0;
    const auto it = head_calls.find(name);
    if (it == head_calls.end()) return;
    std::vector<std::pair<std::string, double>> children = it->second;
    std::sort(children.begin(), children.end());
    path.push_back(name);
    double cursor = x;
    for (const auto& [callee, cost] : children) {
      if (std::find(path.begin(), path.end(), callee) != path.end()) continue;
      const double child_after = cost * head_factor;
      if (child_after < min_width * root_width) continue;
      const auto b = base_calls.find({name, callee});
      const double child_before = b == base_calls.end() ? 0 : b->second * base_factor;
      expand(callee, depth + 1, cursor, child_after, child_before);
      cursor += child_after;
    }
    path.pop_back();
  }
};

}  // namespace

std::vector<FlameBox> flame_boxes(const FunctionProfile& base, const FunctionProfile& head,
                                  double min_width, int max_depth) {
  const std::string root = benchmark_root(head);
  if (root.empty()) return {};
  FlameBuilder b{base, head, callees_of(head), {}, inclusive_of(head, root), min_width, max_depth,
                 {},   {}};
  if (!(b.root_width > 0)) return {};
  for (const ProfiledCall& c : base.calls) b.base_calls[{c.caller, c.callee}] += c.inclusive;
  b.expand(root, 0, 0, b.root_width, inclusive_of(base, root));
  return std::move(b.boxes);
}

std::vector<TextPart> why_phrase(const ProfileDiff& d) {
  Sentence s;
  if (d.same_instructions)
    return s.text("the same instructions: the difference is in memory, waiting or frequency")
        .parts();
  if (d.functions.empty()) return s.text("spread over many small functions").parts();
  const FunctionChange& top = d.functions[0];
  if (std::isfinite(top.share) && top.share >= 0.5) return s.text("mostly ").code(top.name).parts();
  if (d.functions.size() > 1) {
    const FunctionChange& second = d.functions[1];
    if (std::isfinite(top.share) && std::isfinite(second.share) && second.share > 0 &&
        top.share + second.share >= 0.5)
      return s.text("mostly ").code(top.name).text(" and ").code(second.name).parts();
  }
  if (std::isfinite(top.share))
    return s.text("spread; most in ")
        .code(top.name)
        .text(" (" + format_percent(top.share) + " of the change)")
        .parts();
  return s.text("most in ").code(top.name).parts();
}

}  // namespace benchpr
