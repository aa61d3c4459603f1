# Turns every file in templates/ into a C++ table compiled into the binary, so benchpr runs
# without its source tree; --templates DIR overrides them at run time.
function(benchpr_embed_templates target)
  file(GLOB _templates CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/templates/*.mustache")
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/embedded_templates.cpp")
  add_custom_command(
    OUTPUT "${_out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${_out} -DDIR=${PROJECT_SOURCE_DIR}/templates
            -P "${PROJECT_SOURCE_DIR}/cmake/GenerateEmbedded.cmake"
    DEPENDS ${_templates} "${PROJECT_SOURCE_DIR}/cmake/GenerateEmbedded.cmake"
    COMMENT "Embedding templates")
  target_sources(${target} PRIVATE "${_out}")
endfunction()
