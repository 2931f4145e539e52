# SPDX-License-Identifier: MIT
# The options of cpudispatch's configure, as CMake cache variables: the
# Meson option NAME is CPUD_<NAME> in upper case, - as _ (cpu-baseline:
# CPUD_CPU_BASELINE). Their types, defaults, choices and descriptions are
# read from meson_options.txt, the one list of them, so both front ends
# offer the same options with the same defaults. A combo's value outside
# its choices stops configure here, naming the value and the choices.

set(CPUD_OPTION_NAMES cpu-baseline cpu-dispatch disable-optimization allow-broken-compilers env-prefix namespace
    mode summary-skipped)

file(READ "${CMAKE_CURRENT_LIST_DIR}/../../meson_options.txt" _cpud_options_text)
# One list item per option(...) call (a ; of a description kept apart).
string(REPLACE ";" "<semicolon>" _cpud_options_text "${_cpud_options_text}")
string(REPLACE "\noption(" ";option(" _cpud_option_calls "${_cpud_options_text}")
set(_cpud_seen "")
foreach(_call IN LISTS _cpud_option_calls)
  string(STRIP "${_call}" _call)
  if(NOT _call MATCHES "^option\\('[a-z-]+', type: '[a-z]+',.*description: '([^'\\\\]|\\\\.)*'\\)$")
    continue()
  endif()
  string(REPLACE "<semicolon>" ";" _call "${_call}")
  string(REGEX REPLACE "^option\\('([a-z-]+)'.*" "\\1" _name "${_call}")
  list(FIND CPUD_OPTION_NAMES "${_name}" _at)
  if(_at LESS 0)
    continue()
  endif()
  list(APPEND _cpud_seen "${_name}")
  string(REGEX REPLACE "^option\\('[a-z-]+', type: '([a-z]+)'.*" "\\1" _type "${_call}")
  string(REGEX REPLACE ".*description: '(([^'\\\\]|\\\\.)*)'\\)$" "\\1" _desc "${_call}")
  string(REPLACE "\\'" "'" _desc "${_desc}")
  string(TOUPPER "CPUD_${_name}" _var)
  string(REPLACE "-" "_" _var "${_var}")
  if(_type STREQUAL "boolean")
    string(REGEX REPLACE ".*, value: (true|false),.*" "\\1" _default "${_call}")
    string(TOUPPER "${_default}" _default)
    set(${_var} ${_default} CACHE BOOL "${_desc}")
  else()
    string(REGEX REPLACE ".*, value: '([^']*)',.*" "\\1" _default "${_call}")
    set(${_var} "${_default}" CACHE STRING "${_desc}")
    if(_type STREQUAL "combo")
      string(REGEX REPLACE ".*choices: \\[([^]]*)\\].*" "\\1" _choices "${_call}")
      string(REGEX REPLACE "'|[ ]" "" _choices "${_choices}")
      string(REPLACE "," ";" _choices "${_choices}")
      set_property(CACHE ${_var} PROPERTY STRINGS ${_choices})
      list(FIND _choices "${${_var}}" _ok)
      if(_ok LESS 0)
        string(REPLACE ";" ", " _list "${_choices}")
        message(FATAL_ERROR "cpudispatch: ${_var}: \"${${_var}}\" is not one of ${_list} (meson_options.txt: ${_name})")
      endif()
    endif()
  endif()
endforeach()
foreach(_name IN LISTS CPUD_OPTION_NAMES)
  list(FIND _cpud_seen "${_name}" _at)
  if(_at LESS 0)
    message(FATAL_ERROR "cpudispatch: meson_options.txt has no option '${_name}' in the form this file reads")
  endif()
endforeach()

# Not options of configure: what the CMake build of cpudispatch itself adds.
option(CPUD_INSTALL "Install the runtime, headers, cpudispatch-run, a pkg-config file and a CMake package"
       ${CPUD_TOP})
