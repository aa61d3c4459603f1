// Small text helpers every layer needs, kept in one place so they behave the same everywhere.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace benchpr {

// `s` without leading and trailing ASCII whitespace (space, \t, \n, \v, \f, \r).
std::string_view trim(std::string_view s);

// `s` with ASCII letters in lower case (other bytes, UTF-8 included, as they are).
std::string lower(std::string_view s);

// The 7-character abbreviation people know a commit by, lower case: "abc1234". "" when `sha` is
// not at least 7 hexadecimal digits (a results file is untrusted: no markup gets through).
std::string short_sha(std::string_view sha);

// `text` as one /bin/sh word: in single quotes, each ' written as '\''. Safe for any bytes.
std::string shell_quote(std::string_view text);

// The choices as a message lists them: "always, on-change or never".
std::string one_of(const std::vector<std::string>& choices);

}  // namespace benchpr
