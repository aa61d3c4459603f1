# Script mode: writes OUT with one raw string literal per file of DIR matching PATTERN, as
# `const std::vector<TYPE>& FUNCTION()` in NAMESPACE (declared in HEADER), each named by its file
# name without extension.
file(GLOB _templates "${DIR}/${PATTERN}")
get_filename_component(_folder "${DIR}" NAME)
list(SORT _templates)
set(_body "// Generated at build time from ${_folder}/${PATTERN}. Do not edit.\n#include \"${HEADER}\"\n\nnamespace ${NAMESPACE} {\n\nconst std::vector<${TYPE}>& ${FUNCTION}() {\n  static const std::vector<${TYPE}> all = {\n")
foreach(_t IN LISTS _templates)
  get_filename_component(_name "${_t}" NAME_WE)
  file(READ "${_t}" _content)
  string(FIND "${_content}" ")benchpr_tpl\"" _end)
  if(NOT _end EQUAL -1)
    message(FATAL_ERROR "${_t}: holds )benchpr_tpl\", which ends the raw string it is embedded in")
  endif()
  string(APPEND _body "    {\"${_name}\", R\"benchpr_tpl(${_content})benchpr_tpl\"},\n")
endforeach()
string(APPEND _body "  };\n  return all;\n}\n\n}  // namespace ${NAMESPACE}\n")
file(WRITE "${OUT}.tmp" "${_body}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
