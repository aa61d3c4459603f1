#include "benchpr/render/template_set.hpp"

#include <functional>
#include <regex>
#include <set>

#include "benchpr/render/embedded_templates.hpp"
#include "benchpr/render/render.hpp"

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

}  // namespace

TemplateSet::TemplateSet(const std::map<std::string, std::string>& overrides) {
  for (const EmbeddedTemplate& t : embedded_templates()) {
    texts_[std::string(t.name)] = std::string(t.text);
  }
  for (const auto& [name, text] : overrides) texts_[name] = text;

  static const std::regex kPartial(R"(\{\{>\s*([^}\s]+)\s*\}\})");
  std::map<std::string, std::set<std::string>> includes;
  for (const auto& [name, text] : texts_) {
    Mustache parsed(text);
    if (!parsed.is_valid()) {
      throw TemplateError("template '" + name + "': " + parsed.error_message());
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kPartial);
         it != std::sregex_iterator(); ++it) {
      const std::string partial = (*it)[1].str();
      if (!texts_.count(partial)) {
        throw TemplateError("template '" + name + "' includes '" + partial +
                            "', which is neither embedded nor in the templates directory");
      }
      includes[name].insert(partial);
    }
    partials_.emplace(name, Data(text));
  }
  // A template that includes itself, directly or not, would recurse without end.
  std::set<std::string> done, active;
  std::function<void(const std::string&)> visit = [&](const std::string& name) {
    if (done.count(name)) return;
    if (!active.insert(name).second) {
      throw TemplateError("template '" + name + "' includes itself through its partials");
    }
    for (const std::string& next : includes[name]) visit(next);
    active.erase(name);
    done.insert(name);
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
