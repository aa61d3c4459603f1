#include "benchpr/core/base/series_key.hpp"

namespace benchpr {

namespace {
std::string joined(std::string_view suite, char between, std::string_view name) {
  std::string out;
  out.reserve(suite.size() + 1 + name.size());
  out += suite;
  out += between;
  out += name;
  return out;
}
}  // namespace

std::string series_key(std::string_view suite, std::string_view name) {
  return joined(suite, '\0', name);
}

std::string qualified_name(std::string_view suite, std::string_view name) {
  return joined(suite, '/', name);
}

}  // namespace benchpr
