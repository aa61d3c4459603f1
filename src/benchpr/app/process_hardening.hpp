// benchpr holds a token while it runs code from the pull request as the same user. Scrubbing the
// children's environment is not enough if a child can read benchpr's own environment through
// /proc/<parent>/environ: this closes that door, for root too.
#pragma once

#include <string>
#include <vector>

namespace benchpr::app {

// Marks the process non-dumpable (prctl PR_SET_DUMPABLE 0): its /proc files, environ and mem
// included, become unreadable to other processes of the same user, and it cannot be ptraced
// by them. Children are unaffected (execve resets the flag). Best effort: failures are ignored.
// Also moves the token into memory (github::hold_token_from_environment) and erases every
// variable of exec::secret_env() from benchpr's own environment (the Actions files' names stay:
// benchpr writes those files itself).
void protect_own_environment();

// Removes `names` from the environment and overwrites their text in place: unsetenv alone leaves
// the bytes in the block /proc/<pid>/environ shows, readable by root.
void erase_from_environment(const std::vector<std::string>& names);

}  // namespace benchpr::app
