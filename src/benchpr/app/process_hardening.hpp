// benchpr holds a token while it runs code from the pull request as the same user. Scrubbing the
// children's environment is not enough if a child can read benchpr's own environment through
// /proc/<parent>/environ: this closes that door.
#pragma once

namespace benchpr::app {

// Marks the process non-dumpable (prctl PR_SET_DUMPABLE 0): its /proc files, environ and mem
// included, become unreadable to other processes of the same user, and it cannot be ptraced
// by them. Children are unaffected (execve resets the flag). Best effort: failures are ignored.
void protect_own_environment();

}  // namespace benchpr::app
