// A closed set of values and the one name each has in files, configuration and command lines:
// the table is the set's only parser and printer, so adding a value touches one line.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchpr {

template <class Value, std::size_t N>
struct NameTable {
  std::array<std::pair<Value, std::string_view>, N> entries;

  // Every value of the set has an entry (the table is written beside the enum), so a value
  // without one is a bug: its name is "".
  constexpr std::string_view name(Value value) const {
    for (const auto& [v, n] : entries)
      if (v == value) return n;
    return {};
  }
  constexpr std::optional<Value> parse(std::string_view text) const {
    for (const auto& [v, n] : entries)
      if (n == text) return v;
    return std::nullopt;
  }
  // In the table's order, for messages and "did you mean".
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    out.reserve(N);
    for (const auto& entry : entries) out.emplace_back(entry.second);
    return out;
  }
};

}  // namespace benchpr
