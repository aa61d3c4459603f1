// Files the user names on the command line (results files to compare, publish or merge).
#pragma once

#include <string>
#include <vector>

namespace benchpr::app {

// A named file that is not there is the user's to fix: a UserError (exit 2) "COMMAND: PATH: no
// such file", told before any file is read. A file that is there but cannot be read is left to
// its reader, whose StoreError (exit 1) names it.
void require_existing_files(const std::string& command, const std::vector<std::string>& paths);

}  // namespace benchpr::app
