#include "benchpr/github/link_header.hpp"
#include "benchpr/core/base/text.hpp"

namespace benchpr::github {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}
  bool done() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void skip_space() {
    while (!done() && is_space(peek())) ++pos_;
  }
  // Reads a parameter value: a quoted string (with backslash escapes) or a token that ends at
  // ';' or ','.
  std::string value() {
    skip_space();
    std::string out;
    if (!done() && peek() == '"') {
      ++pos_;
      while (!done() && peek() != '"') {
        if (peek() == '\\' && pos_ + 1 < text_.size()) ++pos_;
        out += text_[pos_++];
      }
      if (!done()) ++pos_;  // closing quote
      return out;
    }
    std::size_t start = pos_;
    while (!done() && peek() != ';' && peek() != ',') ++pos_;
    return std::string(trim(text_.substr(start, pos_ - start)));
  }
  std::string_view until_any(std::string_view stops) {
    std::size_t start = pos_;
    while (!done() && stops.find(peek()) == std::string_view::npos) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  void advance() { ++pos_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::map<std::string, std::string> parse_link_header(std::string_view header) {
  std::map<std::string, std::string> links;
  Scanner in(header);
  while (true) {
    in.skip_space();
    while (!in.done() && in.peek() == ',') {
      in.advance();
      in.skip_space();
    }
    if (in.done()) break;
    if (in.peek() != '<') {  // garbage: skip to the next link
      in.until_any(",");
      continue;
    }
    in.advance();
    std::string url(trim(in.until_any(">")));
    if (in.done()) break;  // unterminated URL
    in.advance();
    std::string rel;
    // Parameters up to the comma that ends this link.
    while (true) {
      in.skip_space();
      if (in.done() || in.peek() == ',') break;
      if (in.peek() != ';') {  // stray text: skip it
        in.until_any(";,");
        continue;
      }
      in.advance();
      std::string name = lower(trim(in.until_any("=;,")));
      if (!in.done() && in.peek() == '=') {
        in.advance();
        std::string value = in.value();
        if (name == "rel" && rel.empty()) rel = value;
      }
    }
    // rel may list several relations separated by spaces.
    std::string_view rels = rel;
    while (!rels.empty()) {
      rels = trim(rels);
      auto end = rels.find_first_of(" \t");
      std::string one = lower(rels.substr(0, end));
      if (!one.empty() && !url.empty()) links.emplace(one, url);
      if (end == std::string_view::npos) break;
      rels.remove_prefix(end);
    }
  }
  return links;
}

std::optional<std::string> next_link(std::string_view header) {
  auto links = parse_link_header(header);
  auto it = links.find("next");
  if (it == links.end()) return std::nullopt;
  return it->second;
}

}  // namespace benchpr::github
