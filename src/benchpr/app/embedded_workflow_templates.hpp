// The workflow templates of `benchpr init`, compiled into the binary (nothing is read from disk).
#pragma once

#include <vector>

#include "benchpr/render/embedded_templates.hpp"

namespace benchpr::app {

// Generated at build time from templates/workflows/*.yml (cmake/EmbedTemplates.cmake), each
// named by its file name without `.yml`.
const std::vector<render::EmbeddedTemplate>& embedded_workflow_templates();

}  // namespace benchpr::app
