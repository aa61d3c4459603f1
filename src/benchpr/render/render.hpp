// Markdown comment from templates (kainjow mustache). Pure: Results + Analysis in, text out.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "benchpr/core/base/comment_key.hpp"
#include "benchpr/core/model/model.hpp"
#include "benchpr/render/render_options.hpp"

namespace benchpr::render {

// The comment body: hidden sticky marker on the first line, then the headline, the
// recommendation, notes, the table of changed benchmarks and collapsed details. Never longer
// than options.max_chars bytes: per-round details shrink first, then the unchanged list, then
// the changed table (regressions are kept longest); tables and <details> are never cut.
// Throws TemplateError for a broken override.
std::string render_comment(const Results& results, const Analysis& analysis,
                           const RenderOptions& options = {});

// The first line of every comment is sticky_marker(options.key) (core/base/comment_key.hpp), which
// the GitHub layer searches for to update the comment instead of posting a new one.

}  // namespace benchpr::render
