#include "benchpr/render/markdown_tidy.hpp"

namespace benchpr::render {

namespace {

std::size_t leading_backticks(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == '`') ++n;
  return n;
}

bool is_table_line(std::string_view line) { return !line.empty() && line.front() == '|'; }

}  // namespace

std::string tidy_markdown(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 64);
  std::size_t fence = 0;  // length of the open code fence, 0 outside
  bool previous_blank = true;
  bool previous_table = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r'))
      line.remove_suffix(1);

    if (fence > 0) {
      out.append(line).push_back('\n');
      const std::size_t ticks = leading_backticks(line);
      if (ticks >= fence && ticks == line.size()) fence = 0;
      previous_blank = false;
      previous_table = false;
      continue;
    }
    if (line.empty()) {
      if (!previous_blank) out.push_back('\n');
      previous_blank = true;
      previous_table = false;
      continue;
    }
    if (is_table_line(line) && !previous_table && !previous_blank) out.push_back('\n');
    out.append(line).push_back('\n');
    if (const std::size_t ticks = leading_backticks(line); ticks >= 3) fence = ticks;
    previous_blank = false;
    previous_table = is_table_line(line);
  }
  while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
    out.pop_back();
  if (out.empty() || out.back() != '\n') out.push_back('\n');
  return out;
}

}  // namespace benchpr::render
