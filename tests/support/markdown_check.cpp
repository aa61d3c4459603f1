#include "support/markdown_check.hpp"

#include <cctype>
#include <cstdint>
#include <sstream>

#include <fmt/format.h>

namespace benchpr::testing {

// Well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF): GitHub and
// every JSON parser refuse anything else. Written independently of benchpr's own check.
bool is_valid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
    if (n == 9 || (n > 0 && i + n >= s.size())) return false;  // not a lead byte, or truncated
    std::uint32_t cp = n == 0 ? c : n == 1 ? (c & 0x1F) : n == 2 ? (c & 0x0F) : (c & 0x07);
    for (std::size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 2) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    static const std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Markdown checks: what GitHub would render as markup outside code spans and code blocks.

SplitLine split_code_spans(const std::string& line) {
  SplitLine out;
  std::size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '\\' && i + 1 < line.size()) {
      out.prose += line.substr(i, 2);
      i += 2;
      continue;
    }
    if (line[i] != '`') {
      out.prose += line[i++];
      continue;
    }
    std::size_t run = line.find_first_not_of('`', i);
    if (run == std::string::npos) run = line.size();
    const std::size_t n = run - i;
    // The closing run: exactly n backticks.
    std::size_t j = run, close = std::string::npos;
    while (j < line.size()) {
      if (line[j] != '`') {
        ++j;
        continue;
      }
      std::size_t k = line.find_first_not_of('`', j);
      if (k == std::string::npos) k = line.size();
      if (k - j == n) {
        close = j;
        break;
      }
      j = k;
    }
    if (close == std::string::npos) {
      out.prose += line.substr(i, n);  // no partner: literal backticks
      i = run;
      continue;
    }
    out.code.push_back(line.substr(run, close - run));
    out.prose += " CODE ";
    i = close + n;
  }
  return out;
}

// Pipes that split a GFM table row into cells (GitHub splits even inside code spans; `\|` does
// not split).
int cell_separators(const std::string& row) {
  int n = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\') {
      ++i;
      continue;
    }
    if (row[i] == '|') ++n;
  }
  return n;
}

// Every way the comment's markup is broken or injected; empty when it is clean. Only the
// template's own tags are allowed as HTML: the marker comment on line 1, <details>, <summary>,
// <sub> (balanced); no live @mention or #123 outside code; no heading but the title; every table
// row has its header's cell count; code fences are closed; the text is valid UTF-8.
std::vector<std::string> markdown_problems(const std::string& md) {
  std::vector<std::string> problems;
  if (!is_valid_utf8(md)) problems.push_back("the comment is not valid UTF-8");
  std::istringstream in(md);
  std::string line;
  int line_no = 0;
  std::string fence;  // the open fence, "" outside a code block
  int open_details = 0;
  int table_cells = -1;  // separators of the current table's header row
  static const std::vector<std::string> allowed = {"<details>",  "</details>", "<summary>",
                                                   "</summary>", "<sub>",      "</sub>"};
  while (std::getline(in, line)) {
    ++line_no;
    const std::string where = fmt::format("line {}: {}", line_no, line);
    if (!fence.empty()) {
      std::string t = line;
      while (!t.empty() && t.back() == ' ') t.pop_back();
      if (t.size() >= fence.size() && t.find_first_not_of('`') == std::string::npos) {
        fence.clear();
      } else if (line.find("</details") != std::string::npos) {
        problems.push_back("unescaped </details inside a code block (" + where + ")");
      }
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      fence = line.substr(0, line.find_first_not_of('`'));
      table_cells = -1;
      continue;
    }
    if (line_no == 1) {
      if (line.rfind("<!-- benchpr:comment key=", 0) != 0)
        problems.push_back("first line is not the sticky marker (" + where + ")");
      continue;
    }
    if (line.rfind("<!-- benchpr:comment", 0) == 0) {
      problems.push_back("a second sticky marker: the comment appears twice (" + where + ")");
      continue;
    }
    // The template's only heading is its title on line 2; any other line that GitHub would
    // render as a heading came from untrusted text.
    if (line_no != 2 && line.find_first_not_of(' ') < 4 &&
        line[line.find_first_not_of(' ')] == '#' &&
        line.find_first_not_of('#', line.find_first_not_of(' ')) != std::string::npos &&
        line[line.find_first_not_of('#', line.find_first_not_of(' '))] == ' ')
      problems.push_back("a heading outside the template's title (" + where + ")");
    if (line.rfind("|", 0) == 0) {
      const int cells = cell_separators(line);
      if (table_cells < 0) {
        table_cells = cells;
      } else if (cells != table_cells) {
        problems.push_back(fmt::format("table row has {} cell separators, its header {} ({})",
                                       cells, table_cells, where));
      }
    } else {
      table_cells = -1;
    }
    const SplitLine split = split_code_spans(line);
    const std::string& p = split.prose;
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (p[i] == '<') {
        bool ok = false;
        for (const auto& tag : allowed) {
          if (p.compare(i, tag.size(), tag) == 0) {
            ok = true;
            if (tag == "<details>") ++open_details;
            if (tag == "</details>" && --open_details < 0)
              problems.push_back("</details> without an open <details> (" + where + ")");
          }
        }
        if (!ok && i + 1 < p.size() &&
            (std::isalpha(static_cast<unsigned char>(p[i + 1])) || p[i + 1] == '/' ||
             p[i + 1] == '!' || p[i + 1] == '?'))
          problems.push_back("raw HTML outside code (" + where + ")");
      }
      if (p[i] == '@' && i + 1 < p.size() && std::isalnum(static_cast<unsigned char>(p[i + 1])) &&
          (i == 0 || !std::isalnum(static_cast<unsigned char>(p[i - 1]))))
        problems.push_back("live @mention outside code (" + where + ")");
      if (p[i] == '#' && i + 1 < p.size() && std::isdigit(static_cast<unsigned char>(p[i + 1])) &&
          (i == 0 || (!std::isalnum(static_cast<unsigned char>(p[i - 1])) && p[i - 1] != '&')))
        problems.push_back("live #reference outside code (" + where + ")");
    }
    if (p.find("](") != std::string::npos && p.find("](https://github.com/") == std::string::npos)
      problems.push_back("markdown link outside code (" + where + ")");
    if (p.find("http://") != std::string::npos || p.find("https://evil") != std::string::npos ||
        p.find("www.") != std::string::npos)
      problems.push_back("bare URL outside code (" + where + ")");
  }
  if (!fence.empty()) problems.push_back("code block never closed");
  if (open_details != 0)
    problems.push_back(fmt::format("{} <details> left open at the end", open_details));
  return problems;
}

}  // namespace benchpr::testing
