# SPDX-License-Identifier: MIT
# The configure step: src/build_side/cpudispatch_configure.py, the one the
# Meson build runs (src/config/meson.build), with the CPUD_* options, this
# build's compilers and whose build this is. It validates the options and
# the compilers, writes the generated headers under this build's include/
# and prints what CMake acts on: messages, warnings, an error, and lists.
#
# Results (the same as src/config/meson.build's):
#   CPUD_ARCH            the tables' name of the host arch
#   CPUD_BASELINE        enabled baseline features, ascending interest
#   CPUD_DISPATCH        enabled dispatch targets, ascending interest
#   CPUD_BASELINE_FLAGS  compiler flags of the baseline
#   CPUD_FLOOR_C         the arch's floor flags this C compiler accepts
#   CPUD_DETECT_SOURCE   src/runtime's detection source for the arch
#   CPUD_NAMESPACE_USED  the build's namespace; CPUD_ENV_PREFIX_USED the
#                        variables' prefix
#   CPUD_PYTHON          the Python every script of ours runs on
#   CPUD_GEN, CPUD_CHECK the generator and the check, as commands

set(CPUD_SOURCE_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." CACHE INTERNAL "")
get_filename_component(CPUD_SOURCE_ROOT "${CPUD_SOURCE_ROOT}" ABSOLUTE)
set(CPUD_BUILD_ROOT "${CMAKE_CURRENT_BINARY_DIR}")
set(CPUD_BUILD_SIDE "${CPUD_SOURCE_ROOT}/src/build_side")
# Every configure records the dispatch sources afresh (the generator's
# --register, read by cpudispatch-run): configure empties this folder.
set(CPUD_RUN_SOURCES_DIR "${CPUD_BUILD_ROOT}/src/run/sources")

# --- MSVC-style compilers stop here, as in meson.build ----------------------
if(MSVC OR CMAKE_C_COMPILER_FRONTEND_VARIANT STREQUAL "MSVC")
  message(FATAL_ERROR "cpudispatch: MSVC-style compilers (cl, clang-cl) are not supported; build with GCC or Clang "
                      "(MinGW-w64 on Windows): docs/quickstart.md, \"Arches and compilers\"")
endif()

# --- the Python -------------------------------------------------------------
# Found once and kept in the cache as the interpreter's own path
# (sys.executable): a pyenv shim first on PATH, a shell script that costs
# 0.2-0.7 s a start, then runs once, at the first configure, never at a
# build step or a reconfigure. -DCPUD_PYTHON=... chooses another.
if(NOT CPUD_PYTHON)
  find_program(_cpud_python_found NAMES python3 python)
  if(NOT _cpud_python_found)
    message(FATAL_ERROR "cpudispatch: no python3 found (the configure step, the generator and the check are "
                        "Python 3 scripts); install it (Debian: apt-get install python3) or set -DCPUD_PYTHON=PATH")
  endif()
  execute_process(COMMAND "${_cpud_python_found}" -c "import sys; print(sys.executable)"
                  OUTPUT_VARIABLE _cpud_python_real OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR NOT EXISTS "${_cpud_python_real}")
    set(_cpud_python_real "${_cpud_python_found}")
  endif()
  set(CPUD_PYTHON "${_cpud_python_real}" CACHE FILEPATH "The Python 3 cpudispatch's scripts run on")
  unset(_cpud_python_found CACHE)
endif()

# --- the arch, as the tables' folders name it --------------------------------
string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _cpud_proc)
if(_cpud_proc MATCHES "^(x86_64|amd64|x64)$")
  set(CPUD_ARCH x86_64)
  if(CMAKE_SIZEOF_VOID_P EQUAL 4)
    set(CPUD_ARCH x86)
  endif()
elseif(_cpud_proc MATCHES "^(i[3-6]86|x86)$")
  set(CPUD_ARCH x86)
elseif(_cpud_proc MATCHES "^(aarch64|arm64)$")
  set(CPUD_ARCH aarch64)
elseif(_cpud_proc MATCHES "^arm")
  set(CPUD_ARCH arm)
elseif(_cpud_proc MATCHES "^(ppc64le|powerpc64le)$")
  set(CPUD_ARCH ppc64le)
elseif(_cpud_proc MATCHES "^(s390x|riscv64)$")
  set(CPUD_ARCH ${_cpud_proc})
else()
  message(FATAL_ERROR "cpudispatch: CMAKE_SYSTEM_PROCESSOR \"${CMAKE_SYSTEM_PROCESSOR}\" is no arch cpudispatch has "
                      "a table for (x86_64 x86 aarch64 arm ppc64le s390x riscv64)")
endif()
string(TOLOWER "${CMAKE_SYSTEM_NAME}" CPUD_SYSTEM)

# --- the compilers, as a CMake compile of this build runs them ---------------
# The command, then what every compile adds: the global flags (CFLAGS,
# CMAKE_C_FLAGS, the build type's), a cross target and sysroot, and the
# language standard the runtime is built with.
get_property(_cpud_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
set(CPUD_LANGUAGES C)
if("CXX" IN_LIST _cpud_languages)
  list(APPEND CPUD_LANGUAGES CXX)
endif()
string(TOUPPER "${CMAKE_BUILD_TYPE}" _cpud_bt)
set(CPUD_COMPILER_ARGV "")
set(CPUD_GEN_COMPILERS "")
foreach(_lang IN LISTS CPUD_LANGUAGES)
  if(_lang STREQUAL "C")
    set(_m c)
    set(_std -std=c11)
  else()
    set(_m cpp)
    set(_std -std=c++17)
  endif()
  if(CMAKE_${_lang}_COMPILER_ID STREQUAL "GNU")
    set(_id gcc)
  elseif(CMAKE_${_lang}_COMPILER_ID MATCHES "^(Clang|AppleClang)$")
    set(_id clang)
  else()
    message(FATAL_ERROR "cpudispatch: the ${_lang} compiler ${CMAKE_${_lang}_COMPILER} "
                        "(${CMAKE_${_lang}_COMPILER_ID}) is neither GCC nor Clang; build with GCC or Clang")
  endif()
  set(_cmd "${CMAKE_${_lang}_COMPILER}")
  if(CMAKE_${_lang}_COMPILER_ARG1)
    separate_arguments(_arg1 UNIX_COMMAND "${CMAKE_${_lang}_COMPILER_ARG1}")
    list(APPEND _cmd ${_arg1})
  endif()
  if(CMAKE_${_lang}_COMPILER_TARGET AND CMAKE_${_lang}_COMPILE_OPTIONS_TARGET)
    list(APPEND _cmd "${CMAKE_${_lang}_COMPILE_OPTIONS_TARGET}${CMAKE_${_lang}_COMPILER_TARGET}")
  endif()
  if(CMAKE_SYSROOT)
    list(APPEND _cmd "--sysroot=${CMAKE_SYSROOT}")
  endif()
  separate_arguments(_flags UNIX_COMMAND "${CMAKE_${_lang}_FLAGS} ${CMAKE_${_lang}_FLAGS_${_cpud_bt}}")
  list(APPEND CPUD_COMPILER_ARGV --compiler ${_m} ${_id} ${CMAKE_${_lang}_COMPILER_VERSION} -- ${_cmd} ---
       --args ${_m} ${_flags} ${_std} ---)
  foreach(_w IN LISTS _cmd _flags)
    if(_lang STREQUAL "C")
      list(APPEND CPUD_GEN_COMPILERS "--cc=${_w}")
    else()
      list(APPEND CPUD_GEN_COMPILERS "--cxx=${_w}")
    endif()
  endforeach()
endforeach()

# --- whose build this is -------------------------------------------------------
# The top-level project's name and version (CMake knows them: no file is
# read), for the namespace, the variables' default prefix and the start-up
# check's message.
set(_cpud_argv "${CPUD_BUILD_SIDE}/cpudispatch_configure.py" --source-root "${CPUD_SOURCE_ROOT}"
    --build-root "${CPUD_BUILD_ROOT}" --out-dir "${CPUD_BUILD_ROOT}/src/config" --arch ${CPUD_ARCH}
    --system ${CPUD_SYSTEM} --clear-dir "${CPUD_RUN_SOURCES_DIR}" --main-source-root "${CMAKE_SOURCE_DIR}"
    --version ${PROJECT_VERSION} "--project-name=${CMAKE_PROJECT_NAME}" "--project-version=${CMAKE_PROJECT_VERSION}" --front-end cmake)
foreach(_name IN LISTS CPUD_OPTION_NAMES)
  string(TOUPPER "CPUD_${_name}" _var)
  string(REPLACE "-" "_" _var "${_var}")
  set(_value "${${_var}}")
  if(_name STREQUAL "disable-optimization")
    if(_value)
      set(_value true)
    else()
      set(_value false)
    endif()
  endif()
  list(APPEND _cpud_argv --option "${_name}=${_value}")
endforeach()
if(CPUD_TOP)
  list(APPEND _cpud_argv --main-project)
endif()
# The demo kernels of cpudispatch-info (C++: where the build has C++), their
# source and list meson.build's, resolved and their header written in this
# same run, as the Meson build does (src/config/meson.build).
if("CXX" IN_LIST CPUD_LANGUAGES)
  file(STRINGS "${CPUD_SOURCE_ROOT}/meson.build" _cpud_demo REGEX "^cpud_demo_(source|want) = '[^']*'$")
  foreach(_l IN LISTS _cpud_demo)
    string(REGEX REPLACE "^cpud_demo_([a-z]+) = '([^']*)'$" "\\2" _v "${_l}")
    string(REGEX REPLACE "^cpud_demo_([a-z]+) = .*$" "\\1" _k "${_l}")
    set(CPUD_DEMO_${_k} "${_v}")
  endforeach()
  if(NOT CPUD_DEMO_source OR NOT CPUD_DEMO_want)
    message(FATAL_ERROR "cpudispatch: no cpud_demo_source or cpud_demo_want line in ${CPUD_SOURCE_ROOT}/meson.build")
  endif()
  list(APPEND _cpud_argv --demo "${CPUD_SOURCE_ROOT}/src/demo/${CPUD_DEMO_source}" "${CPUD_BUILD_ROOT}/src/demo"
       "${CPUD_DEMO_want}")
endif()

file(MAKE_DIRECTORY "${CPUD_BUILD_ROOT}/src/config")
# An empty item of a CMake list is dropped where the list is expanded:
# every value travels inside a word (--option NAME=VALUE).
execute_process(COMMAND "${CPUD_PYTHON}" ${_cpud_argv} ${CPUD_COMPILER_ARGV}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "cpudispatch: the configure step failed (${_rc}): ${_err}")
endif()
# Lines: message|warning|error TAB TEXT; list TAB NAME TAB ITEMS (joined by
# 0x1f). A ; in an item would split a CMake list: none of the lists holds
# one (flags, names, paths).
string(ASCII 31 _cpud_us)
string(REPLACE ";" "\\;" _out "${_out}")
string(REPLACE "\n" ";" _lines "${_out}")
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^message\t(.*)$")
    message(STATUS "${CMAKE_MATCH_1}")
  elseif(_line MATCHES "^warning\t(.*)$")
    message(WARNING "${CMAKE_MATCH_1}")
  elseif(_line MATCHES "^error\t(.*)$")
    message(FATAL_ERROR "${CMAKE_MATCH_1}")
  elseif(_line MATCHES "^list\t([^\t]*)\t(.*)$")
    string(REPLACE "-" "_" _key "${CMAKE_MATCH_1}")
    string(REPLACE "${_cpud_us}" ";" _items "${CMAKE_MATCH_2}")
    set(_cpud_list_${_key} "${_items}")
  endif()
endforeach()
# An edited table reconfigures.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_cpud_list_tables})

set(CPUD_NAMES "${_cpud_list_names}")
set(CPUD_BASELINE "${_cpud_list_baseline}")
set(CPUD_DISPATCH "${_cpud_list_dispatch}")
set(CPUD_BASELINE_FLAGS "${_cpud_list_baseline_flags}")
set(CPUD_FLOOR_C "${_cpud_list_floor_c}")
set(CPUD_DETECT_SOURCE "${_cpud_list_detect_source}")
set(CPUD_DEMO_WORDS "${_cpud_list_demo_words}")
list(GET _cpud_list_identity 0 CPUD_LIBRARY_NAME)
list(GET _cpud_list_identity 1 CPUD_LIBRARY_VERSION)
list(GET _cpud_list_identity 2 CPUD_ENV_PREFIX_USED)
list(GET _cpud_list_identity 3 CPUD_NAMESPACE_USED)
set(CPUD_TARGETS_TXT "${CPUD_BUILD_ROOT}/include/cpudispatch_targets.txt")

# --- the generator and the check, as commands ----------------------------------
set(CPUD_GEN "${CPUD_PYTHON}" "${CPUD_BUILD_SIDE}/cpudispatch_gen.py" --config "${CPUD_TARGETS_TXT}"
    --register "${CPUD_RUN_SOURCES_DIR}" ${CPUD_GEN_COMPILERS})
set(CPUD_CHECK "${CPUD_PYTHON}" "${CPUD_BUILD_SIDE}/cpudispatch_check.py" --config "${CPUD_TARGETS_TXT}")
foreach(_tool AR OBJCOPY OBJDUMP)
  if(CMAKE_${_tool})
    string(TOLOWER "${_tool}" _t)
    list(APPEND CPUD_CHECK --${_t} "${CMAKE_${_tool}}")
  endif()
endforeach()
foreach(_w IN LISTS CPUD_GEN_COMPILERS)
  if(_w MATCHES "^--cc=(.*)$")
    list(APPEND CPUD_CHECK "--cc=${CMAKE_MATCH_1}")
  endif()
endforeach()

# --- the summary, in the words and order of the Meson build's -------------------
function(_cpud_summary_line key value)
  string(LENGTH "${key}" _n)
  math(EXPR _pad "20 - ${_n}")
  string(REPEAT " " ${_pad} _sp)
  message(STATUS "    ${key}${_sp} : ${value}")
endfunction()
# A list as the summary shows it: joined by sep, or "(none)".
function(_cpud_joined out sep)
  list(LENGTH ARGN _n)
  if(_n EQUAL 0)
    set(${out} "(none)" PARENT_SCOPE)
  else()
    string(REPLACE ";" "${sep}" _s "${ARGN}")
    set(${out} "${_s}" PARENT_SCOPE)
  endif()
endfunction()
if(CPUD_LIBRARY_NAME STREQUAL "")
  set(_lib "(unknown)")
else()
  set(_lib "${CPUD_LIBRARY_NAME}")
  if(NOT CPUD_LIBRARY_VERSION STREQUAL "")
    set(_lib "${_lib} ${CPUD_LIBRARY_VERSION}")
  endif()
endif()
if(CPUD_DISABLE_OPTIMIZATION)
  set(_dis YES)
else()
  set(_dis NO)
endif()
message(STATUS "cpudispatch")
_cpud_summary_line(arch "${CPUD_ARCH}")
_cpud_summary_line(compiler "${_cpud_list_compiler}")
_cpud_summary_line(library "${_lib}")
_cpud_summary_line(mode "${CPUD_MODE}")
_cpud_summary_line(variables "${CPUD_ENV_PREFIX_USED}_DISABLE_CPU_FEATURES, ${CPUD_ENV_PREFIX_USED}_ENABLE_CPU_FEATURES")
_cpud_summary_line(namespace "${CPUD_NAMESPACE_USED}")
_cpud_summary_line(disable-optimization "${_dis}")
_cpud_joined(_v " " ${_cpud_list_known_broken})
_cpud_summary_line(known-broken "${_v}")
message(STATUS "cpudispatch baseline")
_cpud_summary_line(requested "${CPUD_CPU_BASELINE}")
_cpud_joined(_v " " ${CPUD_BASELINE})
_cpud_summary_line(enabled "${_v}")
_cpud_joined(_v " " ${CPUD_BASELINE_FLAGS})
_cpud_summary_line(flags "${_v}")
_cpud_joined(_v ", " ${_cpud_list_skipped_baseline})
_cpud_summary_line(skipped "${_v}")
message(STATUS "cpudispatch dispatch")
_cpud_summary_line(requested "${CPUD_CPU_DISPATCH}")
_cpud_joined(_v " " ${CPUD_DISPATCH})
_cpud_summary_line(enabled "${_v}")
_cpud_joined(_v ", " ${_cpud_list_skipped_dispatch})
_cpud_summary_line(skipped "${_v}")

# What the functions (cpudispatch_add_sources, cpudispatch_add_test) read
# wherever they are called: a subdirectory's variables do not reach the
# parent's folders, the cache does (rewritten at every configure).
foreach(_v CPUD_ARCH CPUD_NAMES CPUD_BASELINE CPUD_DISPATCH CPUD_BASELINE_FLAGS CPUD_NAMESPACE_USED
        CPUD_ENV_PREFIX_USED CPUD_TARGETS_TXT CPUD_GEN CPUD_CHECK CPUD_RUN_SOURCES_DIR)
  set(${_v} "${${_v}}" CACHE INTERNAL "")
endforeach()
