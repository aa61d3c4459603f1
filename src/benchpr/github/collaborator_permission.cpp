#include "benchpr/github/collaborator_permission.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

namespace benchpr::github {

namespace {

// Letters, digits and '-', as GitHub's logins; an app's login ends in "[bot]".
bool plausible_login(const std::string& login) {
  std::string_view name = login;
  if (name.ends_with("[bot]")) name.remove_suffix(5);
  return !name.empty() && name.size() <= 100 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
  });
}

std::string path_segment(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '[')
      out += "%5B";
    else if (c == ']')
      out += "%5D";
    else
      out += c;
  }
  return out;
}

std::string string_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

CollaboratorPermission collaborator_permission(GitHubClient& client, const std::string& owner,
                                               const std::string& repo, const std::string& login) {
  CollaboratorPermission none{"none", ""};
  const auto name_ok = [](const std::string& name) {
    return !name.empty() && name != "." && name != ".." &&
           std::all_of(name.begin(), name.end(), [](char c) {
             return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
           });
  };
  if (!plausible_login(login) || !name_ok(owner) || !name_ok(repo)) return none;
  const std::string path =
      "/repos/" + owner + "/" + repo + "/collaborators/" + path_segment(login) + "/permission";
  HttpResponse response;
  try {
    response = client.request("GET", path);
  } catch (const GitHubError& e) {
    if (e.status() == 404) return none;
    throw;
  }
  const auto j = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object())
    throw GitHubError(response.status, "GitHub's answer to GET " + path + " is not a JSON object");
  return {string_at(j, "permission"), string_at(j, "role_name")};
}

bool may_write(const CollaboratorPermission& p) {
  return p.permission == "admin" || p.permission == "write" || p.role_name == "admin" ||
         p.role_name == "maintain" || p.role_name == "write";
}

}  // namespace benchpr::github
