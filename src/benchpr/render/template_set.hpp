// The templates a comment is rendered from: the embedded ones (templates/*.mustache, compiled
// in) with the user's overrides laid over them by name. {{> name}} resolves to another template
// of the set, never to a value of the view, so data keys and template names cannot collide.
#pragma once

#include <map>
#include <string>

#include <kainjow/mustache.hpp>

namespace benchpr::render {

class TemplateSet {
 public:
  // Throws TemplateError when a template does not parse or names a partial that is not in the
  // set, so a broken --templates directory fails before anything is rendered.
  explicit TemplateSet(const std::map<std::string, std::string>& overrides = {});

  // Renders template `name` with `view`. Values are inserted as they are ({{x}} and {{{x}}}
  // alike): the view model has already escaped every one for its markdown context.
  std::string render(const std::string& name, const kainjow::mustache::data& view) const;

  bool contains(const std::string& name) const { return texts_.count(name) > 0; }

 private:
  std::map<std::string, std::string> texts_;
  std::map<std::string, kainjow::mustache::data> partials_;  // name -> template text as data
};

}  // namespace benchpr::render
