#include "benchpr/core/model/profile.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace benchpr {

void add_profile(FunctionProfile& into, const FunctionProfile& p) {
  std::map<std::string, std::size_t> function_at;
  for (std::size_t i = 0; i < into.functions.size(); ++i) function_at[into.functions[i].name] = i;
  for (const ProfiledFunction& f : p.functions) {
    const auto [it, fresh] = function_at.emplace(f.name, into.functions.size());
    if (fresh) {
      into.functions.push_back(f);
    } else {
      into.functions[it->second].self += f.self;
      into.functions[it->second].inclusive += f.inclusive;
    }
  }
  std::map<std::pair<std::string, std::string>, std::size_t> call_at;
  for (std::size_t i = 0; i < into.calls.size(); ++i)
    call_at[{into.calls[i].caller, into.calls[i].callee}] = i;
  for (const ProfiledCall& c : p.calls) {
    const auto [it, fresh] = call_at.emplace(std::make_pair(c.caller, c.callee), into.calls.size());
    if (fresh) {
      into.calls.push_back(c);
    } else {
      into.calls[it->second].inclusive += c.inclusive;
    }
  }
  into.total += p.total;
}

FunctionProfile scaled_profile(FunctionProfile p, double factor) {
  p.total *= factor;
  for (ProfiledFunction& f : p.functions) {
    f.self *= factor;
    f.inclusive *= factor;
  }
  for (ProfiledCall& c : p.calls) c.inclusive *= factor;
  return p;
}

namespace {

bool reaches(double value, double total, double fraction) {
  return total > 0 && value >= fraction * total;
}

}  // namespace

void trim_profiles(FunctionProfile& base, FunctionProfile& head, double fraction) {
  std::set<std::string> keep;
  for (const FunctionProfile* p : {&base, &head})
    for (const ProfiledFunction& f : p->functions)
      if (reaches(f.self, p->total, fraction) || reaches(f.inclusive, p->total, fraction))
        keep.insert(f.name);
  std::set<std::pair<std::string, std::string>> keep_calls;
  for (const FunctionProfile* p : {&base, &head})
    for (const ProfiledCall& c : p->calls)
      if (keep.count(c.caller) && keep.count(c.callee) && reaches(c.inclusive, p->total, fraction))
        keep_calls.insert({c.caller, c.callee});
  for (FunctionProfile* p : {&base, &head}) {
    std::erase_if(p->functions,
                  [&keep](const ProfiledFunction& f) { return keep.count(f.name) == 0; });
    std::erase_if(p->calls, [&keep_calls](const ProfiledCall& c) {
      return keep_calls.count({c.caller, c.callee}) == 0;
    });
    // A stable order, so the same run gives the same results file.
    std::sort(p->functions.begin(), p->functions.end(),
              [](const ProfiledFunction& a, const ProfiledFunction& b) { return a.name < b.name; });
    std::sort(p->calls.begin(), p->calls.end(), [](const ProfiledCall& a, const ProfiledCall& b) {
      return std::tie(a.caller, a.callee) < std::tie(b.caller, b.callee);
    });
  }
}

const ProfiledFunction* find_function(const FunctionProfile& p, const std::string& name) {
  for (const ProfiledFunction& f : p.functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace benchpr
