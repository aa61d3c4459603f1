#include "benchpr/render/escape.hpp"

#include <algorithm>
#include <vector>

#include "benchpr/render/utf8.hpp"

namespace benchpr::render {

namespace {

constexpr char32_t kZeroWidthSpace = 0x200B;
constexpr char32_t kEllipsis = 0x2026;

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }
bool is_alnum(char32_t c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
char32_t lower(char32_t c) { return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c; }

// One line of visible text: forbidden controls dropped, every run of whitespace (newlines
// included) folded into one space, trimmed, capped at max_chars code points with "…".
std::vector<char32_t> clean_line(std::string_view text, std::size_t max_chars) {
  std::vector<char32_t> out;
  out.reserve(std::min(text.size(), max_chars + 1));
  bool pending_space = false;
  for (std::size_t pos = 0; pos < text.size();) {
    const char32_t c = utf8::next(text, pos);
    if (utf8::is_forbidden_control(c)) continue;
    if (utf8::is_line_space(c) || c == ' ') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
    if (out.size() > max_chars) break;  // enough to know it must be cut
  }
  if (max_chars > 0 && out.size() > max_chars) {
    out.resize(max_chars - 1);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out.push_back(kEllipsis);
  }
  return out;
}

bool matches_ci(const std::vector<char32_t>& s, std::size_t at, std::string_view word) {
  if (at + word.size() > s.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (lower(s[at + i]) != static_cast<char32_t>(word[i])) return false;
  return true;
}

std::size_t longest_backtick_run(std::string_view s) {
  std::size_t best = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// Removes terminal escape sequences (colours, cursor movement, window titles) from a log.
std::string strip_ansi(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\x1b') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 1 >= text.size()) break;
    const char kind = text[i + 1];
    i += 1;
    if (kind == '[') {  // CSI: parameters, then a final byte in 0x40..0x7E
      while (i + 1 < text.size()) {
        const auto c = static_cast<unsigned char>(text[++i]);
        if (c >= 0x40 && c <= 0x7E) break;
      }
    } else if (kind == ']') {  // OSC: up to BEL or ESC backslash
      while (i + 1 < text.size()) {
        const char c = text[++i];
        if (c == '\a') break;
        if (c == '\x1b' && i + 1 < text.size() && text[i + 1] == '\\') {
          ++i;
          break;
        }
      }
    }
  }
  return out;
}

std::string encode(const std::vector<char32_t>& cps) {
  std::string out;
  out.reserve(cps.size());
  for (char32_t c : cps) utf8::append(out, c);
  return out;
}

// The entity of a character HTML gives meaning to, or nullptr. The apostrophe matters only in
// single-quoted attribute values, which only the HTML report writes; markdown leaves it alone.
const char* html_entity(char32_t c, bool apostrophe) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return apostrophe ? "&#39;" : nullptr;
    default:
      return nullptr;
  }
}

}  // namespace

std::string escape_inline(std::string_view text, std::size_t max_chars) {
  const std::vector<char32_t> s = clean_line(text, max_chars);
  std::string out;
  out.reserve(s.size() + s.size() / 4 + 8);
  // A leading run of digits followed by '.' or ')' would start an ordered list in prose.
  std::size_t leading_digits = 0;
  while (leading_digits < s.size() && is_digit(s[leading_digits])) ++leading_digits;

  for (std::size_t i = 0; i < s.size(); ++i) {
    const char32_t c = s[i];
    const char32_t next = i + 1 < s.size() ? s[i + 1] : 0;
    if (const char* entity = html_entity(c, false)) {
      out += entity;
      continue;
    }
    switch (c) {
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
      case '\\':
      case '$':
        out.push_back('\\');
        out.push_back(static_cast<char>(c));
        break;
      case '@':  // @mention, owner/repo@sha, e-mail autolink
        out.push_back('@');
        utf8::append(out, kZeroWidthSpace);
        break;
      case '#':  // #123, owner/repo#123; a leading '#' would be a heading
        if (i == 0) out.push_back('\\');
        out.push_back('#');
        if (is_digit(next)) utf8::append(out, kZeroWidthSpace);
        break;
      case '-':  // GH-123; a leading '-' would be a list item
        if (i == 0) out.push_back('\\');
        out.push_back('-');
        if (i >= 2 && matches_ci(s, i - 2, "gh") && is_digit(next))
          utf8::append(out, kZeroWidthSpace);
        break;
      case ':':  // scheme://host would be autolinked
        out.push_back(':');
        if (next == '/' && i + 2 < s.size() && s[i + 2] == '/') utf8::append(out, kZeroWidthSpace);
        break;
      case '.':  // www.example.com would be autolinked
        if (i >= 3 && matches_ci(s, i - 3, "www") && (i == 3 || !is_alnum(s[i - 4])))
          utf8::append(out, kZeroWidthSpace);
        if (i > 0 && i == leading_digits) out.push_back('\\');
        out.push_back('.');
        break;
      case ')':
        if (i > 0 && i == leading_digits) out.push_back('\\');
        out.push_back(')');
        break;
      case '+':
      case '=':
        if (i == 0) out.push_back('\\');
        out.push_back(static_cast<char>(c));
        break;
      default:
        utf8::append(out, c);
    }
  }
  return out;
}

std::string code_span(std::string_view text, bool in_table, std::size_t max_chars) {
  std::string content = encode(clean_line(text, max_chars));
  if (content.empty()) return "` `";
  const std::string fence(longest_backtick_run(content) + 1, '`');
  const bool pad = content.front() == '`' || content.back() == '`';
  std::string out;
  out.reserve(content.size() + 2 * fence.size() + 4);
  out += fence;
  if (pad) out.push_back(' ');
  for (char c : content) {
    if (in_table && c == '|') out.push_back('\\');
    out.push_back(c);
  }
  if (pad) out.push_back(' ');
  out += fence;
  return out;
}

std::string escape_code_block(std::string_view text, std::size_t max_lines, std::size_t max_bytes) {
  const std::string plain = strip_ansi(text);
  std::vector<std::string> lines(1);
  for (std::size_t pos = 0; pos < plain.size();) {
    const char32_t c = utf8::next(plain, pos);
    if (c == '\n' || c == 0x2028 || c == 0x2029 || c == 0x85) {
      lines.emplace_back();
    } else if (c == '\r') {
      if (pos < plain.size() && plain[pos] == '\n') continue;  // CRLF: the \n ends the line
      lines.back().clear();  // a progress line redrawn in place: keep its last state
    } else if (c == '\t') {
      lines.back().push_back('\t');
    } else if (c == '\v' || c == '\f') {
      lines.back().push_back(' ');
    } else if (!utf8::is_forbidden_control(c)) {
      utf8::append(lines.back(), c);
    }
  }
  // Tidy: no trailing whitespace, no repeated or edge blank lines.
  std::vector<std::string> tidy;
  tidy.reserve(lines.size());
  for (std::string& line : lines) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (line.empty() && (tidy.empty() || tidy.back().empty())) continue;
    tidy.push_back(std::move(line));
  }
  while (!tidy.empty() && tidy.back().empty()) tidy.pop_back();

  bool cut = false;
  std::size_t first = 0;
  if (tidy.size() > max_lines) {
    first = tidy.size() - max_lines;
    cut = true;
  }
  std::size_t bytes = 0;
  for (std::size_t i = first; i < tidy.size(); ++i) bytes += tidy[i].size() + 1;
  while (bytes > max_bytes && tidy.size() - first > 1) {
    bytes -= tidy[first].size() + 1;
    ++first;
    cut = true;
  }
  std::string body;
  body.reserve(std::min(bytes, max_bytes) + 64);
  if (cut) body += "…\n";
  for (std::size_t i = first; i < tidy.size(); ++i) {
    std::string_view line = tidy[i];
    if (line.size() > max_bytes) {  // one enormous line: keep its end, on a code point boundary
      std::size_t start = line.size() - max_bytes;
      while (start < line.size() && (static_cast<unsigned char>(line[start]) & 0xC0) == 0x80)
        ++start;
      body += "…";
      line.remove_prefix(start);
    }
    for (std::size_t j = 0; j < line.size(); ++j) {
      body.push_back(line[j]);
      if (line[j] == '<' && j + 1 < line.size() && line[j + 1] == '/')
        utf8::append(body, kZeroWidthSpace);
    }
    body.push_back('\n');
  }
  if (tidy.empty()) body = "(no output)\n";
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(body) + 1), '`');
  return fence + "\n" + body + fence;
}

std::string one_line(std::string_view text, std::size_t max_chars) {
  return encode(clean_line(text, max_chars));
}

std::string terminal_line(std::string_view text, std::size_t max_chars) {
  std::vector<char32_t> s = clean_line(text, text.size() + 1);
  if (max_chars > 0 && s.size() > max_chars) {
    std::size_t tail = max_chars / 3;
    std::size_t head = max_chars - tail - 1;
    // Cut between words where one is near (a sentence cut inside "+8.0" reads as a number),
    // within an eighth of each part; a long word (a name) is cut where it must be.
    const std::size_t slack = max_chars / 8;
    for (std::size_t i = head; i > head - std::min(head, slack); --i)
      if (s[i - 1] == U' ') {
        head = i;
        break;
      }
    for (std::size_t i = s.size() - tail; i < s.size() - tail + std::min(tail, slack); ++i)
      if (s[i] == U' ') {
        tail = s.size() - i;
        break;
      }
    std::vector<char32_t> cut(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(head));
    cut.push_back(kEllipsis);
    cut.insert(cut.end(), s.end() - static_cast<std::ptrdiff_t>(tail), s.end());
    s = std::move(cut);
  }
  return encode(s);
}

std::string terminal_text(std::string_view text, std::size_t max_chars) {
  std::string out;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find('\n', start);
    out += terminal_line(text.substr(start, end == std::string_view::npos ? end : end - start),
                         max_chars);
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::string safe_https_url(std::string_view url) {
  constexpr std::string_view kScheme = "https://";
  if (url.size() <= kScheme.size()) return "";
  for (std::size_t i = 0; i < kScheme.size(); ++i)
    if (lower(static_cast<unsigned char>(url[i])) != static_cast<char32_t>(kScheme[i])) return "";
  const char host_first = url[kScheme.size()];
  if (host_first == '/' || host_first == '?' || host_first == '#') return "";
  static constexpr std::string_view kKeep =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'*+,;=%";
  std::string out = "https://";
  for (std::size_t i = kScheme.size(); i < url.size(); ++i) {
    const auto c = static_cast<unsigned char>(url[i]);
    if (kKeep.find(static_cast<char>(c)) != std::string_view::npos) {
      out.push_back(static_cast<char>(c));
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

std::string escape_html(std::string_view text, std::size_t max_chars) {
  std::string out;
  std::size_t count = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    char32_t cp = utf8::next(text, pos);
    if (utf8::is_line_space(cp)) cp = ' ';
    if (utf8::is_forbidden_control(cp)) continue;
    if (count == max_chars) {
      out += "\u2026";
      break;
    }
    ++count;
    if (const char* entity = html_entity(cp, true))
      out += entity;
    else
      utf8::append(out, cp);
  }
  return out;
}

}  // namespace benchpr::render
