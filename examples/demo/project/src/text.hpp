#pragma once
#include <string>
#include <vector>

// Joins parts with a separator, growing the result in place.
inline std::string join(const std::vector<std::string>& parts, const std::string& sep) {
  std::size_t total = 0;
  for (const auto& p : parts) total += p.size() + sep.size();
  std::string out;
  out.reserve(total);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}
