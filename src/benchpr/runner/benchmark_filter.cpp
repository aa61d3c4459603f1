#include "benchpr/runner/benchmark_filter.hpp"

#include <string_view>

#include "benchpr/core/text.hpp"
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

}  // namespace benchpr::runner
