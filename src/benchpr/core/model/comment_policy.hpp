// When benchpr posts its comment: `comment:` in .benchpr.yml, --comment on the command line and
// config.comment in the results file, all read by the one table below.
#pragma once

#include <optional>
#include <string_view>

#include "benchpr/core/base/name_table.hpp"

namespace benchpr {

enum class CommentPolicy {
  Always,    // post or update the comment every time
  OnChange,  // post only when some verdict is not `unchanged`; an existing comment is updated
  Never,     // post nothing
};

inline constexpr NameTable<CommentPolicy, 3> kCommentPolicies{{{
    {CommentPolicy::Always, "always"},
    {CommentPolicy::OnChange, "on-change"},
    {CommentPolicy::Never, "never"},
}}};

constexpr std::string_view to_string(CommentPolicy policy) { return kCommentPolicies.name(policy); }
constexpr std::optional<CommentPolicy> comment_policy_from_string(std::string_view name) {
  return kCommentPolicies.parse(name);
}

}  // namespace benchpr
