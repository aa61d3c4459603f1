# Build-time check of the layering src/CMakeLists.txt declares (cmake -P). Every file under
# src/benchpr/ (any name, any depth) belongs to the layer of its first folder and may include,
# in any form (<...> or "...", by its path from src/ or relative to the file, with .. or not),
# only the layers and headers its rule allows. A pure layer (no IO) includes, besides those, only
# the standard headers of kPureStandard and the libraries its PURE entry names: an allow-list, so
# a header nobody thought of (<stdio.h>, <dirent.h>, <thread>, ...) fails until someone decides
# it does no IO. A computed include (#include MACRO) fails everywhere: it cannot be checked.
# Fails with one line per offence: file, line, include, and the rule it breaks.
#   -DSOURCE_DIR=src
#   -DRULES="core=core|config=core,formats/format.hpp|..."   layer=allowed layers or headers
#   -DPURE="core=fmt/,nlohmann/|config=yaml-cpp/|..."        pure layer=allowed library prefixes
#   -DROOMS="core/stats=base,model|core/base=|..."   optional: a layer's sub-folders (rooms), each
#                  with the rooms of its layer it may include. A layer named here keeps every file
#                  in one of its rooms, and a file includes its own room and the listed ones only.
#   -DSTAMP=file   (touched on success)

cmake_minimum_required(VERSION 3.20)  # list() keeps empty elements (CMP0007) in script mode

# Standard headers that neither do IO nor reach the system (no files, streams, threads, clocks,
# processes). <cstdlib> is here for strtod; <random> for the schedule's seeded generator.
set(kPureStandard
    algorithm array bit bitset cassert cctype cfloat charconv climits cmath compare concepts
    cstddef cstdint cstdlib cstring deque exception functional initializer_list iterator limits
    list map memory new numbers numeric optional queue random ranges set span stack stdexcept
    string string_view system_error tuple type_traits typeinfo unordered_map unordered_set utility
    variant vector)

set(_root "${SOURCE_DIR}/benchpr")
get_filename_component(_root "${_root}" ABSOLUTE)

# Rules: _allowed_<layer> (layers and layer/header paths), _libraries_<layer> for pure layers.
set(_layers "")
string(REPLACE "|" ";" _rules "${RULES}")
foreach(_rule IN LISTS _rules)
  string(REPLACE "=" ";" _parts "${_rule}")
  list(GET _parts 0 _layer)
  list(GET _parts 1 _allowed)
  list(APPEND _layers "${_layer}")
  string(REPLACE "," ";" _allowed_${_layer} "${_allowed}")
endforeach()
set(_pure_layers "")
string(REPLACE "|" ";" _pure_rules "${PURE}")
foreach(_rule IN LISTS _pure_rules)
  string(REPLACE "=" ";" _parts "${_rule}")
  list(GET _parts 0 _layer)
  list(APPEND _pure_layers "${_layer}")
  set(_libraries_${_layer} "")
  list(LENGTH _parts _n)
  if(_n GREATER 1)
    list(GET _parts 1 _libraries)
    string(REPLACE "," ";" _libraries_${_layer} "${_libraries}")
  endif()
endforeach()

# Rooms: _rooms_<layer> (its rooms) and _room_may_<layer>_<room> (the rooms that room may include).
set(_roomed_layers "")
if(ROOMS)
  string(REPLACE "|" ";" _room_rules "${ROOMS}")
  foreach(_rule IN LISTS _room_rules)
    if(NOT _rule MATCHES "^([^/=]+)/([^/=]+)=(.*)$")
      message(FATAL_ERROR "CheckLayering: a room rule must read layer/room=rooms,...: ${_rule}")
    endif()
    set(_room_layer "${CMAKE_MATCH_1}")
    set(_room "${CMAKE_MATCH_2}")
    string(REPLACE "," ";" _room_may_${_room_layer}_${_room} "${CMAKE_MATCH_3}")
    list(APPEND _rooms_${_room_layer} "${_room}")
    list(APPEND _roomed_layers "${_room_layer}")
  endforeach()
endif()

# The path of `header` below src/benchpr/ ("runner/session.hpp") if the include names a file
# there, by its path from src/ or, for "...", relative to the including file; "" otherwise.
function(_layered_path header quoted file_dir out)
  set(_found "")
  set(_candidates "${SOURCE_DIR}/${header}")
  if(quoted)
    list(PREPEND _candidates "${file_dir}/${header}")
  endif()
  foreach(_candidate IN LISTS _candidates)
    get_filename_component(_abs "${_candidate}" ABSOLUTE)
    string(FIND "${_abs}/" "${_root}/" _at)
    if(_at EQUAL 0 AND (EXISTS "${_abs}" OR _candidate STREQUAL "${SOURCE_DIR}/${header}"))
      file(RELATIVE_PATH _found "${_root}" "${_abs}")
      break()
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

set(_offences "")
file(GLOB_RECURSE _files LIST_DIRECTORIES false "${_root}/*")
list(SORT _files)
foreach(_file IN LISTS _files)
  file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_file}")
  file(RELATIVE_PATH _in_root "${_root}" "${_file}")
  string(REGEX MATCH "^[^/]+/" _layer "${_in_root}")
  string(REGEX REPLACE "/$" "" _layer "${_layer}")
  list(FIND _layers "${_layer}" _known)
  if(_known LESS 0)
    string(APPEND _offences "  ${_rel}: not in a layer src/CMakeLists.txt declares\n")
    continue()
  endif()
  # The file's room, in a layer with rooms: the folder below the layer's, one that is declared.
  set(_room "")
  list(FIND _roomed_layers "${_layer}" _roomed)
  if(_roomed GREATER_EQUAL 0)
    if(_in_root MATCHES "^[^/]+/([^/]+)/")
      set(_room "${CMAKE_MATCH_1}")
    endif()
    list(FIND _rooms_${_layer} "${_room}" _known_room)
    if(NOT _room OR _known_room LESS 0)
      list(JOIN _rooms_${_layer} ", " _may)
      string(APPEND _offences "  ${_rel}: not in a room of ${_layer}/ (its rooms: ${_may})\n")
      continue()
    endif()
  endif()
  list(FIND _pure_layers "${_layer}" _pure)
  get_filename_component(_file_dir "${_file}" DIRECTORY)
  # #include, #include_next, #import, and C++20 header units (import <...>; export import "...").
  set(_directive "^[ \t]*(#[ \t]*(include_next|include|import)|(export[ \t]+)?import[ \t]*[<\"])")
  set(_directive_word "^[ \t]*(#[ \t]*(include_next|include|import)|(export[ \t]+)?import)[ \t]*")
  file(STRINGS "${_file}" _lines REGEX "${_directive}")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "${_directive_word}<([^>]*)>")
      set(_header "${CMAKE_MATCH_4}")
      set(_quoted FALSE)
    elseif(_line MATCHES "${_directive_word}\"([^\"]*)\"")
      set(_header "${CMAKE_MATCH_4}")
      set(_quoted TRUE)
    else()
      string(APPEND _offences "  ${_rel}: ${_line} (a computed include cannot be checked)\n")
      continue()
    endif()
    _layered_path("${_header}" ${_quoted} "${_file_dir}" _target)
    if(_target)
      string(REGEX MATCH "^[^/]+" _target_layer "${_target}")
      list(FIND _allowed_${_layer} "${_target_layer}" _ok_layer)
      list(FIND _allowed_${_layer} "${_target}" _ok_header)
      if(_ok_layer LESS 0 AND _ok_header LESS 0 AND NOT _target_layer STREQUAL _layer)
        list(JOIN _allowed_${_layer} ", " _may)
        string(APPEND _offences
               "  ${_rel}: ${_line} (names benchpr/${_target}; ${_layer} may include only: ${_may})\n")
      elseif(_room AND _target_layer STREQUAL _layer)
        set(_target_room "")  # a header directly in the layer's folder is in no room
        if(_target MATCHES "^[^/]+/([^/]+)/")
          set(_target_room "${CMAKE_MATCH_1}")
        endif()
        list(FIND _room_may_${_layer}_${_room} "${_target_room}" _ok_room)
        if(NOT _target_room STREQUAL _room AND _ok_room LESS 0)
          list(JOIN _room_may_${_layer}_${_room} ", " _may)
          string(APPEND _offences "  ${_rel}: ${_line} (names benchpr/${_target}; "
                                  "${_layer}/${_room} may include only the rooms: ${_may})\n")
        endif()
      endif()
    elseif(_pure GREATER_EQUAL 0)
      list(FIND kPureStandard "${_header}" _ok)
      if(_ok LESS 0)
        foreach(_prefix IN LISTS _libraries_${_layer})
          string(FIND "${_header}" "${_prefix}" _at)
          if(_at EQUAL 0)
            set(_ok 0)
          endif()
        endforeach()
      endif()
      if(_ok LESS 0)
        string(APPEND _offences "  ${_rel}: ${_line} (${_layer} is pure: not on its list of "
                                "headers that do no IO, cmake/CheckLayering.cmake)\n")
      endif()
    endif()
  endforeach()
endforeach()
if(_offences)
  message(FATAL_ERROR "layering broken (see ARCHITECTURE.md):\n${_offences}")
endif()
file(TOUCH "${STAMP}")
