// Who may start a run with /benchmark: the commenter's permission on the repository as the API
// reports it now. The event's author_association is no permission: an organisation MEMBER may
// have no write access to this repository, and a COLLABORATOR may have only read access.
#pragma once

#include <string>

#include "benchpr/github/github_client.hpp"

namespace benchpr::github {

struct CollaboratorPermission {
  std::string permission;  // "admin", "write", "read" or "none" (maintain shows as write)
  std::string role_name;   // "admin", "maintain", "write", "triage", "read", or a custom role
};

// GET /repos/{owner}/{repo}/collaborators/{login}/permission. A login GitHub does not know (404)
// has no permission ("none"); other failures throw GitHubError. A login with characters GitHub
// does not use in logins is "none" without a request.
CollaboratorPermission collaborator_permission(GitHubClient& client, const std::string& owner,
                                               const std::string& repo, const std::string& login);

// Write, maintain or admin: the people who could push the pull request's code themselves.
bool may_write(const CollaboratorPermission& permission);

}  // namespace benchpr::github
