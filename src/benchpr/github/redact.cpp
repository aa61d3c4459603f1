#include "benchpr/github/redact.hpp"

namespace benchpr::github {

std::string redact(std::string_view text, std::string_view secret) {
  std::string out;
  if (secret.empty()) return std::string(text);
  out.reserve(text.size());
  std::size_t pos = 0;
  while (true) {
    std::size_t hit = text.find(secret, pos);
    if (hit == std::string_view::npos) break;
    out.append(text.substr(pos, hit - pos));
    out.append(kRedacted);
    pos = hit + secret.size();
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace benchpr::github
