#include "benchpr/runner/gbench_filter_argument.hpp"

#include <string_view>

#include "benchpr/core/base/text.hpp"
#include "benchpr/formats/format.hpp"

namespace benchpr::runner {

std::string regex_escape(const std::string& name) {
  // Google Benchmark 1.7's regex refuses "\\]" and "\\}" ("Invalid escape"): those two are
  // written as bracket expressions, which every regex flavour reads literally.
  constexpr std::string_view kSpecial = "\\^$.|?*+()[{";
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == ']') {
      out += "[]]";
    } else if (c == '}') {
      out += "[}]";
    } else {
      if (kSpecial.find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out;
}

std::string gbench_filter_argument(const std::vector<std::string>& names) {
  std::string regex = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) regex += '|';
    regex += regex_escape(names[i]);
  }
  regex += ")$";
  return " --benchmark_filter=" + shell_quote(regex);
}

std::vector<std::vector<std::string>> filter_groups(const std::vector<std::string>& names,
                                                    std::size_t max_bytes) {
  std::vector<std::vector<std::string>> groups(1);
  if (gbench_filter_argument(names).size() <= max_bytes) {
    groups[0] = names;
    return groups;
  }
  // Greedy, by each name's share of the regex (its escaped, quoted form and a '|').
  const std::size_t empty = gbench_filter_argument({}).size();
  std::size_t size = empty;
  for (const std::string& name : names) {
    const std::size_t share = gbench_filter_argument({name}).size() - empty + 1;
    if (!groups.back().empty() && size + share > max_bytes) {
      groups.emplace_back();
      size = empty;
    }
    groups.back().push_back(name);
    size += share;
  }
  return groups;
}

}  // namespace benchpr::runner
