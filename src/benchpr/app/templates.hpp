// The user's --templates directory, read and checked when a command starts, so a missing
// directory or a broken template is an error before anything is built or measured.
#pragma once

#include <map>
#include <string>

namespace benchpr::app {

// Reads DIR/*.mustache into name -> text ("" = no overrides) and checks that the templates they
// make with the embedded ones parse and include only templates that exist. Throws UserError
// naming the directory and what to fix.
std::map<std::string, std::string> load_template_overrides(const std::string& dir);

}  // namespace benchpr::app
