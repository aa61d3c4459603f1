// The token handed over in a file rather than the environment: a variable of benchpr's parent
// (the workflow step's shell) sits in /proc/<pid>/environ for as long as that shell lives, which
// is while the pull request's code runs, readable by any process of the same user. A 0600 file
// that benchpr reads once and deletes leaves the token in benchpr's memory only.
#pragma once

#include <string>

namespace benchpr::app {

// Where the token file is named: the --token-file flag, else $BENCHPR_TOKEN_FILE.
inline constexpr const char* kTokenFileVariable = "BENCHPR_TOKEN_FILE";

// Reads the token from `path` (flag) or $BENCHPR_TOKEN_FILE, when either names a file: it must be
// a regular file owned by this user and readable by no one else (0600 or stricter), not a link,
// holding the token (surrounding whitespace ignored). The file is deleted once read, the token
// held in memory (github::hold_token) and GITHUB_TOKEN, GH_TOKEN and BENCHPR_TOKEN_FILE erased
// from the environment, so this token is the one benchpr uses. Throws UserError naming the file
// and the fix. Does nothing when neither names a file.
void load_token_file(const std::string& flag_path);

}  // namespace benchpr::app
