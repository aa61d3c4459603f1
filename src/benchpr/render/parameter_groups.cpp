#include "benchpr/render/parameter_groups.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <numeric>
#include <tuple>

namespace benchpr::render {

namespace {

bool is_integer(std::string_view s) {
  if (!s.empty() && s.front() == '-') s.remove_prefix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_key(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t pos = text.find(sep); pos != std::string_view::npos;
       pos = text.find(sep, start)) {
    parts.push_back(text.substr(start, pos - start));
    start = pos + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

std::optional<ParameterizedName> split_jmh(std::string_view name) {
  const std::size_t colon = name.find(':');
  if (colon == 0 || colon == std::string_view::npos) return std::nullopt;
  ParameterizedName out;
  out.base = std::string(name.substr(0, colon));
  for (std::string_view segment : split(name.substr(colon + 1), ':')) {
    const std::size_t eq = segment.find('=');
    if (eq == std::string_view::npos || !is_key(segment.substr(0, eq))) return std::nullopt;
    out.keys.emplace_back(segment.substr(0, eq));
    out.values.emplace_back(segment.substr(eq + 1));
  }
  return out;
}

std::optional<ParameterizedName> split_google_benchmark(std::string_view name) {
  const std::vector<std::string_view> segments = split(name, '/');
  std::size_t first = segments.size();
  while (first > 1) {
    const std::string_view s = segments[first - 1];
    const std::size_t colon = s.find(':');
    const bool named = colon != std::string_view::npos && is_key(s.substr(0, colon)) &&
                       is_integer(s.substr(colon + 1));
    if (!named && !is_integer(s)) break;
    --first;
  }
  if (first == segments.size()) return std::nullopt;
  ParameterizedName out;
  for (std::size_t i = 0; i < first; ++i) {
    if (i > 0) out.base += '/';
    out.base += segments[i];
  }
  if (out.base.empty()) return std::nullopt;
  std::size_t unnamed = 0;
  for (std::size_t i = first; i < segments.size(); ++i) unnamed += is_integer(segments[i]);
  std::size_t position = 0;
  for (std::size_t i = first; i < segments.size(); ++i) {
    const std::string_view s = segments[i];
    if (is_integer(s)) {
      ++position;
      out.keys.push_back(unnamed == 1 ? "arg" : "arg" + std::to_string(position));
      out.values.emplace_back(s);
    } else {
      const std::size_t colon = s.find(':');
      out.keys.emplace_back(s.substr(0, colon));
      out.values.emplace_back(s.substr(colon + 1));
    }
  }
  return out;
}

std::optional<double> number(const std::string& s) {
  double v = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

}  // namespace

std::optional<ParameterizedName> split_parameters(std::string_view name) {
  if (auto jmh = split_jmh(name)) return jmh;
  return split_google_benchmark(name);
}

std::vector<ParameterGroup> find_parameter_groups(
    const std::vector<BenchmarkAnalysis>& benchmarks) {
  std::vector<ParameterGroup> groups;
  std::map<std::tuple<std::string, std::string, std::vector<std::string>>, std::size_t> index;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    std::optional<ParameterizedName> split = split_parameters(benchmarks[i].name);
    if (!split) continue;
    auto key = std::make_tuple(benchmarks[i].suite, split->base, split->keys);
    auto [it, inserted] = index.try_emplace(std::move(key), groups.size());
    if (inserted) {
      ParameterGroup g;
      g.suite = benchmarks[i].suite;
      g.base = split->base;
      g.keys = split->keys;
      groups.push_back(std::move(g));
    }
    groups[it->second].members.push_back(i);
    groups[it->second].values.push_back(std::move(split->values));
  }
  std::erase_if(groups, [](const ParameterGroup& g) { return g.members.size() < 2; });

  for (ParameterGroup& g : groups) {
    g.numeric.assign(g.keys.size(), true);
    for (const auto& values : g.values)
      for (std::size_t k = 0; k < values.size(); ++k)
        if (!number(values[k])) g.numeric[k] = false;
    std::vector<std::size_t> order(g.members.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      for (std::size_t k = 0; k < g.keys.size(); ++k) {
        const std::string& va = g.values[a][k];
        const std::string& vb = g.values[b][k];
        if (va == vb) continue;
        if (g.numeric[k]) return *number(va) < *number(vb);
        return va < vb;
      }
      return false;
    });
    std::vector<std::size_t> members;
    std::vector<std::vector<std::string>> values;
    for (std::size_t o : order) {
      members.push_back(g.members[o]);
      values.push_back(std::move(g.values[o]));
    }
    g.members = std::move(members);
    g.values = std::move(values);
  }
  return groups;
}

}  // namespace benchpr::render
