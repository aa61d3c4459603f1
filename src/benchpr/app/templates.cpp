#include "benchpr/app/templates.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "benchpr/app/user_error.hpp"
#include "benchpr/render/render.hpp"
#include "benchpr/render/template_set.hpp"

namespace benchpr::app {

std::map<std::string, std::string> load_template_overrides(const std::string& dir) {
  std::map<std::string, std::string> out;
  if (dir.empty()) return out;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir, ec);
  if (ec)
    throw UserError("--templates " + dir + ": " + ec.message() +
                    " (pass a directory of *.mustache files)");
  for (const auto& entry : it) {
    if (entry.path().extension() != ".mustache") continue;
    std::ifstream in(entry.path());
    if (!in)
      throw UserError("--templates " + dir + ": cannot read " + entry.path().filename().string());
    std::ostringstream ss;
    ss << in.rdbuf();
    out[entry.path().stem().string()] = ss.str();
  }
  if (out.empty())
    throw UserError("--templates " + dir +
                    ": no *.mustache files there (start from a copy of "
                    "benchpr's templates/ directory; see docs/templates.md)");
  try {
    render::TemplateSet check(out);
  } catch (const render::TemplateError& e) {
    throw UserError("--templates " + dir + ": " + e.what() +
                    " (fix it, or leave out --templates to use the built-in templates)");
  }
  return out;
}

}  // namespace benchpr::app
