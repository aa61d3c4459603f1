# Turns template files into a C++ table compiled into the binary, so benchpr runs without its
# source tree: templates/*.mustache (the comment; --templates DIR overrides them at run time) and
# templates/workflows/*.yml (the GitHub workflows `benchpr init` writes).
#
# benchpr_embed_files(target OUT <file name> DIR <folder> PATTERN <glob> HEADER <include>
#                     NAMESPACE <ns> FUNCTION <name> TYPE <struct of name and text>)
function(benchpr_embed_files target)
  cmake_parse_arguments(PARSE_ARGV 1 _arg "" "OUT;DIR;PATTERN;HEADER;NAMESPACE;FUNCTION;TYPE" "")
  file(GLOB _files CONFIGURE_DEPENDS "${_arg_DIR}/${_arg_PATTERN}")
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/${_arg_OUT}")
  add_custom_command(
    OUTPUT "${_out}"
    COMMAND ${CMAKE_COMMAND} "-DOUT=${_out}" "-DDIR=${_arg_DIR}" "-DPATTERN=${_arg_PATTERN}"
            "-DHEADER=${_arg_HEADER}" "-DNAMESPACE=${_arg_NAMESPACE}"
            "-DFUNCTION=${_arg_FUNCTION}" "-DTYPE=${_arg_TYPE}"
            -P "${PROJECT_SOURCE_DIR}/cmake/GenerateEmbedded.cmake"
    DEPENDS ${_files} "${PROJECT_SOURCE_DIR}/cmake/GenerateEmbedded.cmake"
    COMMENT "Embedding ${_arg_PATTERN} of ${_arg_DIR}" VERBATIM)
  target_sources(${target} PRIVATE "${_out}")
endfunction()

# The comment's templates, as render::embedded_templates().
function(benchpr_embed_templates target)
  benchpr_embed_files(${target} OUT embedded_templates.cpp
                      DIR "${PROJECT_SOURCE_DIR}/templates" PATTERN "*.mustache"
                      HEADER "benchpr/render/embedded_templates.hpp" NAMESPACE benchpr::render
                      FUNCTION embedded_templates TYPE EmbeddedTemplate)
endfunction()

# The workflows `benchpr init` writes, as app::embedded_workflow_templates().
function(benchpr_embed_workflow_templates target)
  benchpr_embed_files(${target} OUT embedded_workflow_templates.cpp
                      DIR "${PROJECT_SOURCE_DIR}/templates/workflows" PATTERN "*.yml"
                      HEADER "benchpr/app/embedded_workflow_templates.hpp"
                      NAMESPACE benchpr::app FUNCTION embedded_workflow_templates
                      TYPE render::EmbeddedTemplate)
endfunction()
