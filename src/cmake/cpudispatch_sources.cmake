# SPDX-License-Identifier: MIT
# cpudispatch_add_sources(): the Meson loop of docs/quickstart.md as one
# call (docs/cmake.md).
#
#   cpudispatch_add_sources(NAME
#     [SOURCES SRC... TARGETS "LIST"]     one list for these sources
#     [DISPATCH SRC "LIST" [SRC "LIST"...]]  a list per source
#     [LIBRARIES LIB...]   whose usage requirements (include folders,
#                          defines) every target build takes
#   )
#
# One generator run for every source of the call (src/build_side/
# cpudispatch_gen.py, the Meson loop's): it resolves each list, writes
# NAME.dispatch.h for each source into this folder's build folder and names
# each target's build. Each is a static library NAME_<TARGET> compiled with
# that target's flags and defines and cpudispatch::target; at build time
# the check (src/build_side/cpudispatch_check.py --object) checks them all
# (static initialisers, LTO, link order, names) and links them, in the one
# safe order, each target's inline functions renamed per target, into one
# relocatable object. NAME is a static library of that object alone: link
# it into any program or library (static or shared); the folder of the
# dispatch headers comes with it. For a library that must hold the kernels
# and the runtime itself (a static library installed alone, a library in an
# export set): cpudispatch_embed(LIB NAME) below. NAME_OBJECT (the object's
# path), NAME_object (the target making it) and NAME_INCLUDE_DIR (the
# headers' folder) are what it uses.
function(cpudispatch_add_sources name)
  cmake_parse_arguments(PARSE_ARGV 1 _a "" "" "SOURCES;TARGETS;DISPATCH;LIBRARIES")
  if(_a_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cpudispatch_add_sources(${name}): unexpected \"${_a_UNPARSED_ARGUMENTS}\"; "
                        "the forms are SOURCES SRC... TARGETS \"LIST\" and DISPATCH SRC \"LIST\" ...")
  endif()
  set(_pairs "")
  if(_a_SOURCES OR _a_TARGETS)
    list(LENGTH _a_TARGETS _nt)
    if(NOT _a_SOURCES OR NOT _nt EQUAL 1)
      message(FATAL_ERROR "cpudispatch_add_sources(${name}): SOURCES needs TARGETS, one quoted list "
                          "(\"baseline SSE42 AVX2\"), and TARGETS needs SOURCES")
    endif()
    foreach(_s IN LISTS _a_SOURCES)
      list(APPEND _pairs "${_s}" "${_a_TARGETS}")
    endforeach()
  endif()
  list(LENGTH _a_DISPATCH _nd)
  math(EXPR _odd "${_nd} % 2")
  if(_odd)
    message(FATAL_ERROR "cpudispatch_add_sources(${name}): DISPATCH takes pairs, SRC \"LIST\"")
  endif()
  list(APPEND _pairs ${_a_DISPATCH})
  if(NOT _pairs)
    message(FATAL_ERROR "cpudispatch_add_sources(${name}): no dispatch source (SOURCES ... TARGETS, or DISPATCH)")
  endif()

  # A project inside the build that is not its top level (a library's own
  # project() in a subdirectory) gets its own kernel namespace, as a Meson
  # subproject does.
  set(_caller "")
  if(NOT PROJECT_NAME STREQUAL CMAKE_PROJECT_NAME)
    file(RELATIVE_PATH _rel "${CMAKE_SOURCE_DIR}" "${PROJECT_SOURCE_DIR}")
    set(_caller --caller-project "${_rel}" "${PROJECT_NAME}")
  endif()
  execute_process(COMMAND ${CPUD_GEN} --out-dir "${CMAKE_CURRENT_BINARY_DIR}" ${_caller} ${_pairs}
                  WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    string(STRIP "${_err}${_out}" _err)
    message(FATAL_ERROR "cpudispatch_add_sources(${name}): ${_err}")
  endif()
  # The generator reads the sources (the names written CPUD_FN(NAME)): an
  # edited source reconfigures, and the generator redoes only what changed.
  set(_srcs "")
  set(_i 0)
  foreach(_p IN LISTS _pairs)
    math(EXPR _even "${_i} % 2")
    if(_even EQUAL 0)
      get_filename_component(_abs "${_p}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND _srcs "${_abs}")
    endif()
    math(EXPR _i "${_i} + 1")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_srcs})

  # One word per target: LIBRARY:ARG|ARG|...:SOURCE.
  string(REGEX REPLACE "[ \t\r\n]+" ";" _words "${_out}")
  _cpudispatch_build(${name} "${_words}" "${CMAKE_CURRENT_SOURCE_DIR}" "${CMAKE_CURRENT_BINARY_DIR}" ""
                     "${_a_LIBRARIES}")
  # For a library that must hold every kernel itself (an installed static
  # library: docs/cmake.md, "A library"): the object, and its target.
  get_target_property(_obj ${name} CPUDISPATCH_OBJECT)
  set(${name}_OBJECT "${_obj}" PARENT_SCOPE)
  set(${name}_INCLUDE_DIR "${CMAKE_CURRENT_BINARY_DIR}" PARENT_SCOPE)
  # The names cpudispatch_embed() accepts, for its message on another.
  set_property(GLOBAL APPEND PROPERTY CPUDISPATCH_SOURCES_NAMES ${name})
endfunction()

# _cpudispatch_build(NAME WORDS SRC_DIR HDR_DIR PREFIX LIBRARIES): the
# generator's words (LIBRARY:ARG|ARG|...:SOURCE, SOURCE relative to
# SRC_DIR), each a static library PREFIX+LIBRARY with that target's flags,
# its dispatch header from HDR_DIR; the check joining them into one
# object; NAME, a static library of that object. Used by
# cpudispatch_add_sources() and for cpudispatch's own demo kernels
# (src/cmake/cpudispatch_info.cmake).
function(_cpudispatch_build name words src_dir hdr_dir prefix libraries)
  set(_libs "")
  foreach(_w IN LISTS words)
    if(_w STREQUAL "")
      continue()
    endif()
    string(REGEX MATCH "^([^:]+):([^:]*):(.+)$" _m "${_w}")
    if(NOT _m)
      message(FATAL_ERROR "cpudispatch (${name}): the generator printed \"${_w}\"")
    endif()
    set(_lib "${prefix}${CMAKE_MATCH_1}")
    string(REPLACE "|" ";" _args "${CMAKE_MATCH_2}")
    get_filename_component(_src "${CMAKE_MATCH_3}" ABSOLUTE BASE_DIR "${src_dir}")
    add_library(${_lib} STATIC EXCLUDE_FROM_ALL "${_src}")
    target_compile_options(${_lib} PRIVATE ${_args})
    target_link_libraries(${_lib} PRIVATE cpudispatch_target ${libraries})
    target_include_directories(${_lib} PRIVATE "${hdr_dir}")
    # Position-independent (a shared library may link NAME), and never
    # link-time optimised (cpudispatch::target's -fno-lto too).
    set_target_properties(${_lib} PROPERTIES POSITION_INDEPENDENT_CODE ON INTERPROCEDURAL_OPTIMIZATION OFF)
    list(APPEND _libs ${_lib})
  endforeach()

  set(_obj "${CMAKE_CURRENT_BINARY_DIR}/${name}.cpud.o")
  set(_files "")
  foreach(_l IN LISTS _libs)
    list(APPEND _files "$<TARGET_FILE:${_l}>")
  endforeach()
  # The check reads the configure step's target list, a file no rule makes.
  # Makefiles: a dependency on it. Ninja: its digest on the command line
  # (Ninja reruns a command whose line changed), since a dependency on such
  # a file warns (CMP0058) in a project whose cmake_minimum_required is
  # below 3.3, as many libraries' still is.
  file(MD5 "${CPUD_TARGETS_TXT}" _digest)
  set(_config_dep "${CPUD_TARGETS_TXT}")
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set(_config_dep "")
  endif()
  add_custom_command(OUTPUT "${_obj}"
                     COMMAND ${CPUD_CHECK} --config-digest ${_digest} --object "${_obj}" ${_files}
                     DEPENDS ${_libs} ${_config_dep}
                     COMMENT "cpudispatch: checking and linking the dispatch builds of ${name}"
                     VERBATIM)
  # One target makes the object; every library that takes it as a source
  # depends on that target, so no two build it at once (Makefiles).
  add_custom_target(${name}_object DEPENDS "${_obj}")
  add_library(${name} STATIC "${_obj}")
  add_dependencies(${name} ${name}_object)
  set_source_files_properties("${_obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${hdr_dir}>")
  set_target_properties(${name} PROPERTIES CPUDISPATCH_OBJECT "${_obj}" CPUDISPATCH_INCLUDE_DIR "${hdr_dir}")
endfunction()

# cpudispatch_embed(LIB NAME...): LIB (a library, static or shared, or a
# program) holds the checked objects of the cpudispatch_add_sources() calls
# NAME... and the runtime itself, as its own sources and flags: no link
# dependency on any cpudispatch target. So LIB may be in an export set
# (export(), install(EXPORT)), which refuses a static library linking
# cpudispatch::cpudispatch even PRIVATE (CMake exports it as
# $<LINK_ONLY:...>), and what links an installed LIB needs nothing of
# cpudispatch. The headers LIB's sources include plant the reference that
# keeps the start-up check in any program linking it.
function(cpudispatch_embed lib)
  if(NOT TARGET ${lib})
    message(FATAL_ERROR "cpudispatch_embed(${lib}): no target \"${lib}\" (add_library() it first)")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "cpudispatch_embed(${lib}): name the cpudispatch_add_sources() calls whose kernels "
                        "${lib} holds: cpudispatch_embed(${lib} NAME...)")
  endif()
  foreach(_n IN LISTS ARGN)
    set(_obj "")
    if(TARGET ${_n})
      get_target_property(_obj ${_n} CPUDISPATCH_OBJECT)
    endif()
    if(NOT _obj)
      get_property(_names GLOBAL PROPERTY CPUDISPATCH_SOURCES_NAMES)
      if(_names)
        string(REPLACE ";" ", " _names "${_names}")
      else()
        set(_names "none yet (call it before cpudispatch_embed())")
      endif()
      message(FATAL_ERROR "cpudispatch_embed(${lib} ${_n}): \"${_n}\" is not the NAME of a "
                          "cpudispatch_add_sources() call; the calls so far: ${_names}")
    endif()
    get_target_property(_inc ${_n} CPUDISPATCH_INCLUDE_DIR)
    set_source_files_properties("${_obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    target_sources(${lib} PRIVATE "${_obj}")
    add_dependencies(${lib} ${_n}_object)
    target_include_directories(${lib} PRIVATE "${_inc}")
  endforeach()
  # The runtime: what cpudispatch::cpudispatch carries (its headers, the
  # baseline flags, its objects, the start-up anchor), as LIB's own.
  get_target_property(_inc cpudispatch INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(_flags cpudispatch INTERFACE_COMPILE_OPTIONS)
  get_target_property(_objs cpudispatch INTERFACE_SOURCES)
  get_target_property(_link cpudispatch INTERFACE_LINK_OPTIONS)
  target_include_directories(${lib} PRIVATE ${_inc})
  target_sources(${lib} PRIVATE ${_objs})
  if(_flags)
    target_compile_options(${lib} PRIVATE ${_flags})
  endif()
  if(_link)
    target_link_options(${lib} PRIVATE ${_link})
  endif()
endfunction()
