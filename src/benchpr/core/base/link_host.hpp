// Which hosts a link in benchpr's comment or commit status may point at. A results file is
// written by a job that ran the pull request's code, so a URL in it could lead readers of the
// comment anywhere; only GitHub's own hosts are linked.
#pragma once

#include <string>
#include <string_view>

namespace benchpr {

// The lower-cased host of an http(s) URL: no user info, no port, an IPv6 literal in its
// brackets; "" for anything else (ssh, git@host:path, file paths, no scheme). The one parser of
// a URL's host: the links benchpr shows and the hosts the token may be sent to (app/git_remote).
std::string url_host(std::string_view url);

// True for an https URL on github.com, on the API's host, or on the web host that belongs to
// the API (api.github.com -> github.com; GitHub Enterprise Server serves both from one host).
bool link_on_github(std::string_view url, std::string_view api_url);

}  // namespace benchpr
