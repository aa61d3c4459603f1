# cmake/CheckLayering.cmake fed each way around it (cmake -P, no compiler): a small tree of
# layers that follows the rules passes, and each loophole added to it alone makes the check fail
# and name the file. -DCHECK=cmake/CheckLayering.cmake -DWORK=<scratch directory>

# Rules in the shape of the real tree's: core and config pure, config may read one header of
# formats (a rule's ONLY list), exec an adapter, runner above both.
set(_rules "core=core|formats=core,formats|config=core,formats/format.hpp|exec=core|runner=core,exec|"
           "render=core")
string(JOIN "" _rules ${_rules})
# Rooms in one layer (render), as core has them in the real tree: the cases that set _case_rooms
# check them; the others run without, as a tree with no rooms declared.
set(_case_rooms "")
set(_pure "core=fmt/|formats=|config=yaml-cpp/")

set(_failures "")
set(_case_number 0)

# Writes the clean tree into `dir`, then each "path|content" of ARGN on top (content's \n are
# new lines), runs the check, and records a failure if it does not end as `expect` (PASS, or the
# file the output must name).
function(check_case name expect)
  math(EXPR _n "${_case_number} + 1")
  set(_case_number ${_n} PARENT_SCOPE)
  set(_src "${WORK}/${_n}/src")
  file(REMOVE_RECURSE "${WORK}/${_n}")
  file(WRITE "${_src}/benchpr/core/model.hpp"
       "#pragma once\n#include <string>\n#include <vector>\n#include <fmt/format.h>\n")
  file(WRITE "${_src}/benchpr/core/model.cpp"
       "#include \"benchpr/core/model.hpp\"\n#include \"model.hpp\"\n  #  include <cmath>\n")
  file(WRITE "${_src}/benchpr/formats/format.hpp" "#include \"benchpr/core/model.hpp\"\n")
  file(WRITE "${_src}/benchpr/formats/gbench.hpp" "#include \"../core/model.hpp\"\n")
  file(WRITE "${_src}/benchpr/config/parser.cpp"
       "#include \"benchpr/formats/format.hpp\"\n#include <yaml-cpp/yaml.h>\n")
  file(WRITE "${_src}/benchpr/exec/process.cpp"
       "#include <unistd.h>\n#include <thread>\n#include \"benchpr/core/model.hpp\"\n")
  file(WRITE "${_src}/benchpr/runner/session.cpp"
       "#include <fstream>\n#include <benchpr/exec/process.hpp>\n#include \"sub/part.hpp\"\n")
  file(WRITE "${_src}/benchpr/runner/sub/part.hpp" "#include \"../../core/model.hpp\"\n")
  foreach(_extra IN LISTS ARGN)
    string(FIND "${_extra}" "|" _bar)
    string(SUBSTRING "${_extra}" 0 ${_bar} _path)
    math(EXPR _from "${_bar} + 1")
    string(SUBSTRING "${_extra}" ${_from} -1 _content)
    string(REPLACE "\\n" "\n" _content "${_content}")
    file(WRITE "${_src}/${_path}" "${_content}\n")
  endforeach()
  execute_process(
    COMMAND "${CMAKE_COMMAND}" "-DSOURCE_DIR=${_src}" "-DRULES=${_rules}" "-DPURE=${_pure}"
            "-DROOMS=${_case_rooms}" "-DSTAMP=${WORK}/${_n}/stamp" -P "${CHECK}"
    RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(expect STREQUAL "PASS")
    if(NOT _result EQUAL 0 OR NOT EXISTS "${WORK}/${_n}/stamp")
      set(_failures "${_failures}  ${name}: the clean tree failed the check:\n${_out}\n" PARENT_SCOPE)
    endif()
  elseif(_result EQUAL 0)
    set(_failures "${_failures}  ${name}: passed the check\n" PARENT_SCOPE)
  elseif(NOT _out MATCHES "layering broken" OR NOT _out MATCHES "  ${expect}: ")
    set(_failures "${_failures}  ${name}: failed without naming ${expect}:\n${_out}\n"
        PARENT_SCOPE)
  endif()
endfunction()

check_case("a tree that follows the rules" PASS)
check_case("an upward include between adapters" "benchpr/exec/up.cpp"
           "benchpr/exec/up.cpp|#include \"benchpr/runner/session.hpp\"")
check_case("angle brackets around another layer" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include <benchpr/exec/process.hpp>")
check_case("a relative include of another layer" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include \"../exec/process.cpp\"")
check_case("a path from src/ that climbs out with .." "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include \"benchpr/core/../exec/process.hpp\"")
check_case("<stdio.h> in a pure layer" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include <stdio.h>")
check_case("<dirent.h> in a pure layer" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include <dirent.h>")
check_case("<thread> in a pure layer" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include <thread>")
check_case("<chrono> in a pure layer" "benchpr/config/x.cpp"
           "benchpr/config/x.cpp|#include <chrono>")
check_case("a standard header in quotes" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include \"fstream\"")
check_case("spaces around the directive" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|  #   include   <fstream>")
check_case("#include_next" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include_next <unistd.h>")
check_case("a header unit import" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|import <fstream>")
check_case("a computed include" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#define H <fstream>\\n#include H")
check_case("another layer's library in a pure layer" "benchpr/core/x.cpp"
           "benchpr/core/x.cpp|#include <yaml-cpp/yaml.h>")
check_case("a file in a layer's subfolder" "benchpr/core/detail/x.hpp"
           "benchpr/core/detail/x.hpp|#include <fstream>")
check_case("another layer from a subfolder" "benchpr/core/detail/deep/x.hpp"
           "benchpr/core/detail/deep/x.hpp|#include \"benchpr/runner/session.hpp\"")
check_case("a file with another ending" "benchpr/core/x.h"
           "benchpr/core/x.h|#include <sys/stat.h>")
check_case("a header of a layer beyond the one allowed" "benchpr/config/x.cpp"
           "benchpr/config/x.cpp|#include \"benchpr/formats/gbench.hpp\"")
check_case("a file outside every layer" "benchpr/util/x.hpp"
           "benchpr/util/x.hpp|#include <fstream>")

# Rooms: low may be included by high, not the other way round; every file of render is in one.
set(_case_rooms "render/low=|render/high=low")
set(_rooms_tree "benchpr/render/low/a.hpp|#include <string>"
                "benchpr/render/high/b.hpp|#include \"benchpr/render/low/a.hpp\""
                "benchpr/render/high/b.cpp|#include \"b.hpp\"\n#include \"../low/a.hpp\"")
check_case("rooms that follow their order" PASS ${_rooms_tree})
check_case("a room including one above it" "benchpr/render/low/x.cpp" ${_rooms_tree}
           "benchpr/render/low/x.cpp|#include \"benchpr/render/high/b.hpp\"")
check_case("a relative include of a room above" "benchpr/render/low/y.cpp" ${_rooms_tree}
           "benchpr/render/low/y.cpp|#include \"../high/b.hpp\"")
check_case("a file outside every room" "benchpr/render/x.hpp" ${_rooms_tree}
           "benchpr/render/x.hpp|#include <string>")
check_case("an include of a header in no room" "benchpr/render/high/z.cpp" ${_rooms_tree}
           "benchpr/render/high/z.cpp|#include \"benchpr/render/gone.hpp\"")
check_case("a room not declared" "benchpr/render/other/x.hpp" ${_rooms_tree}
           "benchpr/render/other/x.hpp|#include <string>")
set(_case_rooms "")

if(_failures)
  message(FATAL_ERROR "the layering check let these through:\n${_failures}")
endif()
message(STATUS "the layering check refused each of ${_case_number} trees but the clean one")
