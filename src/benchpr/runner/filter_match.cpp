#include "benchpr/runner/filter_match.hpp"

namespace benchpr::runner {

std::optional<std::regex> compile_filter(const std::string& pattern) {
  if (pattern.empty()) return std::nullopt;
  return std::regex(pattern, std::regex::ECMAScript);
}

bool filter_matches(const std::optional<std::regex>& filter, std::string_view name) {
  if (!filter) return true;
  if (name.size() > kMaxFilteredNameBytes) return false;
  return std::regex_search(name.begin(), name.end(), *filter);
}

}  // namespace benchpr::runner
