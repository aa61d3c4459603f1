#include "benchpr/app/process_hardening.hpp"

#include <sys/prctl.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "benchpr/exec/process.hpp"
#include "benchpr/github/github_client.hpp"

extern char** environ;

namespace benchpr::app {

void erase_from_environment(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (name.empty() || name.find('=') != std::string::npos) continue;
    std::vector<char*> texts;
    for (char** entry = environ; entry && *entry; ++entry) {
      const std::string_view text(*entry);
      if (text.size() > name.size() && text.starts_with(name) && text[name.size()] == '=')
        texts.push_back(*entry);
    }
    ::unsetenv(name.c_str());
    // No longer reachable through environ; the strings themselves stay where they were (the
    // initial block on the stack, or memory the C library never frees), so zeroing is safe.
    for (char* text : texts) std::memset(text, 0, std::strlen(text));
  }
}

void protect_own_environment() {
  (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  (void)github::hold_token_from_environment();
  erase_from_environment(exec::secret_env());
}

}  // namespace benchpr::app
