#include "benchpr/render/template_set.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "benchpr/render/embedded_templates.hpp"
#include "benchpr/render/render_options.hpp"

namespace benchpr::render {

namespace {

using Mustache = kainjow::mustache::mustache;
using Data = kainjow::mustache::data;

// Values from the view stack, partials from the template set.
class TemplateContext : public kainjow::mustache::context<std::string> {
 public:
  TemplateContext(const Data* view, const std::map<std::string, Data>& partials)
      : kainjow::mustache::context<std::string>(view), partials_(partials) {}

  const Data* get_partial(const std::string& name) const override {
    const auto it = partials_.find(name);
    return it == partials_.end() ? nullptr : &it->second;
  }

 private:
  const std::map<std::string, Data>& partials_;
};

// What the set's checks need of a template: the partials it includes and how deep its sections
// nest. A linear scan that follows the tags as kainjow's parser reads them, set-delimiter tags
// included: a regex for "{{> name}}" missed `{{=<% %>=}}<%> comment %>`, a template including
// itself, and rendering recursed until the stack overflowed (SIGSEGV).
struct TemplateScan {
  std::vector<std::string> partials;
  int max_depth = 0;
};

std::string_view trimmed(std::string_view s) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

TemplateScan scan_template(std::string_view text) {
  TemplateScan scan;
  std::string open = "{{", close = "}}";
  int depth = 0;
  std::size_t pos = 0;
  for (std::size_t start; (start = text.find(open, pos)) != std::string_view::npos;) {
    std::size_t contents = start + open.size();
    // {{{x}}}: only with the default delimiters, as the parser reads it.
    const bool triple =
        open == "{{" && close == "}}" && contents < text.size() && text[contents] == '{';
    const std::string_view end = triple ? std::string_view("}}}") : std::string_view(close);
    if (triple) ++contents;
    const std::size_t stop = text.find(end, contents);
    if (stop == std::string_view::npos) break;  // unclosed: the parser reports it
    pos = stop + end.size();
    const std::string_view tag = trimmed(text.substr(contents, stop - contents));
    if (triple || tag.empty()) continue;
    switch (tag.front()) {
      case '=': {                                              // {{=<% %>=}}
        if (tag.size() < 5 || tag.back() != '=') return scan;  // invalid: the parser reports it
        const std::string_view inner = trimmed(tag.substr(1, tag.size() - 2));
        const std::size_t space = inner.find(' ');
        if (space == std::string_view::npos) return scan;
        open = std::string(inner.substr(0, space));
        close = std::string(trimmed(inner.substr(space + 1)));
        if (open.empty() || close.empty()) return scan;
        break;
      }
      case '>':
        scan.partials.emplace_back(trimmed(tag.substr(1)));
        break;
      case '#':
      case '^':
        scan.max_depth = std::max(scan.max_depth, ++depth);
        break;
      case '/':
        --depth;
        break;
      default:
        break;
    }
  }
  return scan;
}

// Sections nest by recursion in the renderer; no comment needs more than a few levels.
constexpr int kMaxSectionDepth = 100;
// Partials include partials by recursion too.
constexpr std::size_t kMaxIncludeDepth = 32;

}  // namespace

TemplateSet::TemplateSet(const std::map<std::string, std::string>& overrides) {
  for (const EmbeddedTemplate& t : embedded_templates()) {
    texts_[std::string(t.name)] = std::string(t.text);
  }
  for (const auto& [name, text] : overrides) texts_[name] = text;

  std::map<std::string, std::set<std::string>> includes;
  for (const auto& [name, text] : texts_) {
    // Checked before the parser sees it: the parser recurses once per nested section.
    const TemplateScan scan = scan_template(text);
    if (scan.max_depth > kMaxSectionDepth) {
      throw TemplateError(fmt::format("template '{}' nests sections {} deep (at most {})", name,
                                      scan.max_depth, kMaxSectionDepth));
    }
    Mustache parsed(text);
    if (!parsed.is_valid()) {
      throw TemplateError("template '" + name + "': " + parsed.error_message());
    }
    for (const std::string& partial : scan.partials) {
      if (!texts_.count(partial)) {
        throw TemplateError("template '" + name + "' includes '" + partial +
                            "', which is neither embedded nor in the templates directory");
      }
      includes[name].insert(partial);
    }
    partials_.emplace(name, Data(text));
  }
  // A template that includes itself, directly or not, would recurse without end; a chain of
  // thousands of partials would recurse as deep. Both are refused here, so rendering recurses
  // at most kMaxIncludeDepth partials deep.
  std::map<std::string, int> height;  // longest chain of includes below a template, itself too
  std::set<std::string> active;
  std::function<int(const std::string&)> visit = [&](const std::string& name) {
    if (const auto known = height.find(name); known != height.end()) return known->second;
    if (!active.insert(name).second) {
      throw TemplateError("template '" + name + "' includes itself through its partials");
    }
    if (active.size() > kMaxIncludeDepth) {
      throw TemplateError(fmt::format("template '{}' is included more than {} partials deep", name,
                                      kMaxIncludeDepth));
    }
    int h = 1;
    for (const std::string& next : includes[name]) h = std::max(h, 1 + visit(next));
    if (h > static_cast<int>(kMaxIncludeDepth)) {
      throw TemplateError(fmt::format("template '{}' includes partials {} deep (at most {})", name,
                                      h, kMaxIncludeDepth));
    }
    active.erase(name);
    height[name] = h;
    return h;
  };
  for (const auto& entry : texts_) visit(entry.first);
}

std::string TemplateSet::render(const std::string& name, const Data& view) const {
  const auto it = texts_.find(name);
  if (it == texts_.end()) throw TemplateError("no template named '" + name + "'");
  Mustache tmpl(it->second);
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  TemplateContext ctx(&view, partials_);
  std::string out = tmpl.render(ctx);
  if (!tmpl.is_valid()) {
    throw TemplateError("template '" + name + "': " + tmpl.error_message());
  }
  return out;
}

}  // namespace benchpr::render
