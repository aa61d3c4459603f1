#include "benchpr/github/http.hpp"

namespace benchpr::github {

std::string HttpResponse::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

}  // namespace benchpr::github
