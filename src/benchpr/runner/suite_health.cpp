#include "benchpr/runner/suite_health.hpp"

#include <algorithm>

namespace benchpr::runner {

SuiteHealth::Selection SuiteHealth::select(
    const SuiteConfig& suite, Side side,
    const std::map<std::string, std::vector<std::string>>& open) const {
  if (suite.format != FormatKind::GoogleBenchmark) return {};
  const auto crashed = crashed_.find({suite.name, side});
  const auto still_open = open.find(suite.name);
  if (crashed == crashed_.end() && still_open == open.end()) return {};
  Selection out;
  if (still_open != open.end()) {
    out.only = still_open->second;
  } else if (auto listed = listed_.find({suite.name, side}); listed != listed_.end()) {
    out.only = listed->second;
  }
  if (crashed != crashed_.end())
    std::erase_if(out.only, [&](const std::string& n) { return crashed->second.count(n) > 0; });
  out.skip = out.only.empty();
  return out;
}

void SuiteHealth::mark_unselected(const std::string& suite, Side side) {
  unselected_.insert({suite, side});
}

bool SuiteHealth::unselected(const std::string& suite, Side side) const {
  return unselected_.count({suite, side}) > 0;
}

void SuiteHealth::give_up(const std::string& suite, Side side, const std::string& reason) {
  given_up_[{suite, side}] = reason;
}

bool SuiteHealth::give_up_first(const std::string& suite, Side side, const std::string& reason) {
  return given_up_.emplace(Key{suite, side}, reason).second;
}

const std::string* SuiteHealth::given_up(const std::string& suite, Side side) const {
  const auto it = given_up_.find({suite, side});
  return it == given_up_.end() ? nullptr : &it->second;
}

bool SuiteHealth::first_probe(const std::string& suite, Side side) {
  return probed_.insert({suite, side}).second;
}

void SuiteHealth::record_crashers(const std::string& suite, Side side,
                                  std::vector<std::string> listed,
                                  const std::vector<std::string>& crashers) {
  listed_[{suite, side}] = std::move(listed);
  crashed_[{suite, side}].insert(crashers.begin(), crashers.end());
}

bool SuiteHealth::any_crashed(const std::string& suite, Side side) const {
  return crashed_.count({suite, side}) > 0;
}

bool SuiteHealth::crashed(const std::string& suite, Side side, const std::string& benchmark) const {
  const auto it = crashed_.find({suite, side});
  return it != crashed_.end() && it->second.count(benchmark) > 0;
}

}  // namespace benchpr::runner
