#pragma once

#include <map>
#include <string>

namespace benchpr::app {

// Reads DIR/*.mustache into name -> text (throws UserError when DIR cannot be read).
std::map<std::string, std::string> load_template_overrides(const std::string& dir);

}  // namespace benchpr::app
