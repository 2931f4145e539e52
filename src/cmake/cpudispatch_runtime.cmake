# SPDX-License-Identifier: MIT
# The run-time library and what consumers link, as src/runtime/meson.build
# and the top-level meson.build make them:
#
#   cpudispatch_runtime        the runtime's objects (an OBJECT library),
#                              compiled for the arch's floor (CPUD_FLOOR_C
#                              after the global flags: a target's own options
#                              come after CMAKE_C_FLAGS), no LTO, hidden
#                              symbols, libc only
#   cpudispatch::cpudispatch   what a program or library links: the headers,
#                              the baseline flags for every object of it, and
#                              the runtime's objects inside it (as Meson's
#                              link_whole: its start-up check is a
#                              constructor nothing references), plus
#                              --undefined=NS__cpud__startup_check_anchor
#                              for a static library's programs
#   cpudispatch::floor         mode init (Python extensions, plugins): the
#                              headers without the baseline flags
#   cpudispatch::target        what every target build of a dispatch source
#                              shares: the headers, -fno-lto,
#                              -fvisibility=hidden
#   cpudispatch-run            runs a command per target / under qemu models

# The runtime's sources: every C file of src/runtime but the other arches'
# detection sources (src/runtime/meson.build lists them in their layers;
# test cmake-front-end compares the two builds' object lists).
file(GLOB _cpud_runtime_sources "${CPUD_SOURCE_ROOT}/src/runtime/*.c")
list(FILTER _cpud_runtime_sources EXCLUDE REGEX "/detect_[^/]*\\.c$")
list(APPEND _cpud_runtime_sources "${CPUD_SOURCE_ROOT}/src/runtime/${CPUD_DETECT_SOURCE}")
set(CPUD_INCLUDE_DIRS "${CPUD_SOURCE_ROOT}/include" "${CPUD_BUILD_ROOT}/include")
# A consumer's warning flags do not apply to cpudispatch's own code (as
# the Meson build's -w for a subproject).
set(_cpud_own_code_args "")
if(NOT CPUD_TOP)
  set(_cpud_own_code_args -w)
endif()

add_library(cpudispatch_runtime OBJECT ${_cpud_runtime_sources})
target_include_directories(cpudispatch_runtime PRIVATE ${CPUD_INCLUDE_DIRS})
target_compile_options(cpudispatch_runtime PRIVATE ${CPUD_FLOOR_C} ${_cpud_own_code_args})
target_compile_definitions(cpudispatch_runtime PRIVATE CPUD__RUNTIME CPUD_NO_BASELINE_GUARD
                           CPUD_NO_INTRINSIC_HEADERS)
set_target_properties(cpudispatch_runtime PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
                      C_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON INTERPROCEDURAL_OPTIMIZATION OFF)

# The start-up check's anchor (program mode, and library mode without an
# init function), for GNU-style ELF linkers, as the Meson build adds it.
set(_cpud_link_options "")
if(NOT CPUD_MODE STREQUAL "init" AND NOT CPUD_SYSTEM MATCHES "^(windows|cygwin|darwin)$")
  set(_cpud_link_options "LINKER:--undefined=${CPUD_NAMESPACE_USED}__cpud__startup_check_anchor")
endif()

add_library(cpudispatch INTERFACE)
target_include_directories(cpudispatch INTERFACE ${CPUD_INCLUDE_DIRS})
target_compile_options(cpudispatch INTERFACE ${CPUD_BASELINE_FLAGS})
# Each target that links this holds the runtime's objects itself (a static
# library too: its programs then link them from it).
target_sources(cpudispatch INTERFACE $<TARGET_OBJECTS:cpudispatch_runtime>)
target_link_options(cpudispatch INTERFACE ${_cpud_link_options})
add_library(cpudispatch::cpudispatch ALIAS cpudispatch)

add_library(cpudispatch_floor INTERFACE)
target_include_directories(cpudispatch_floor INTERFACE ${CPUD_INCLUDE_DIRS})
target_compile_definitions(cpudispatch_floor INTERFACE CPUD_NO_BASELINE_GUARD CPUD_NO_INTRINSIC_HEADERS)
add_library(cpudispatch::floor ALIAS cpudispatch_floor)

add_library(cpudispatch_target INTERFACE)
target_include_directories(cpudispatch_target INTERFACE ${CPUD_INCLUDE_DIRS})
target_compile_options(cpudispatch_target INTERFACE -fno-lto -fvisibility=hidden)
add_library(cpudispatch::target ALIAS cpudispatch_target)

# --- cpudispatch-run -------------------------------------------------------
# The emulated models of the host arch, from src/run/qemu-models.txt (the
# list the Meson build and tools/qemu-matrix.py read).
set(_cpud_run_qemu "qemu-${CPUD_ARCH}")
set(_cpud_run_sysroot "")
set(_cpud_run_models "")
file(STRINGS "${CPUD_SOURCE_ROOT}/src/run/qemu-models.txt" _cpud_model_lines)
foreach(_l IN LISTS _cpud_model_lines)
  string(REGEX REPLACE "[ \t]+" ";" _w "${_l}")
  list(LENGTH _w _n)
  if(_n GREATER_EQUAL 4)
    list(GET _w 0 _arch)
    if(_arch STREQUAL CPUD_ARCH)
      list(GET _w 1 _cpud_run_qemu)
      list(GET _w 2 _sysroot)
      list(GET _w 3 _model)
      if(CMAKE_CROSSCOMPILING AND NOT _sysroot STREQUAL "-")
        set(_cpud_run_sysroot "${_sysroot}")
      endif()
      list(APPEND _cpud_run_models "${_model}")
    endif()
  endif()
endforeach()
set(CPUD_RUN_MODELS "${_cpud_run_models}" CACHE INTERNAL "")
if(CPUD_SYSTEM STREQUAL "windows")
  # Windows builds: cpudispatch-run is a program of the build machine that
  # starts Wine (docs/windows.md); the CMake front end has no such build yet.
  set(CPUD_RUN "" CACHE INTERNAL "")
  return()
endif()
string(REPLACE ";" " " _models "${_cpud_run_models}")
file(MAKE_DIRECTORY "${CPUD_BUILD_ROOT}/src/run")
file(WRITE "${CPUD_BUILD_ROOT}/src/run/run_config.h.tmp"
     "/* Written by src/cmake/cpudispatch_runtime.cmake */\n"
     "#define CPUD_RUN_QEMU \"${_cpud_run_qemu}\"\n"
     "#define CPUD_RUN_SYSROOT \"${_cpud_run_sysroot}\"\n"
     "#define CPUD_RUN_MODELS \"${_models}\"\n"
     "#define CPUD_RUN_SOURCES_DIR \"${CPUD_RUN_SOURCES_DIR}\"\n"
     "#define CPUD_RUN_WINE \"\"\n")
configure_file("${CPUD_BUILD_ROOT}/src/run/run_config.h.tmp" "${CPUD_BUILD_ROOT}/src/run/run_config.h" COPYONLY)
add_executable(cpudispatch-run "${CPUD_SOURCE_ROOT}/src/run/main.c")
target_include_directories(cpudispatch-run PRIVATE "${CPUD_BUILD_ROOT}/src/run")
target_compile_options(cpudispatch-run PRIVATE ${_cpud_own_code_args})
target_link_libraries(cpudispatch-run PRIVATE cpudispatch)
set_target_properties(cpudispatch-run PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF)
# The wrapper a test runs under: a cross build's cpudispatch-run is a
# program of the target arch, run under qemu (CMAKE_CROSSCOMPILING_EMULATOR).
# A cross build with no emulator cannot run its tests: no wrapped tests
# (as the Meson build makes no setups there).
if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(CPUD_RUN "")
elseif(CMAKE_CROSSCOMPILING)
  set(CPUD_RUN ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:cpudispatch-run>)
else()
  set(CPUD_RUN $<TARGET_FILE:cpudispatch-run>)
endif()
set(CPUD_RUN "${CPUD_RUN}" CACHE INTERNAL "")

# --- install (cpudispatch as the top-level project) --------------------------
# What the Meson build installs (test cmake-install compares the two): the
# runtime as a static archive, every public header and the generated ones
# beside them (they include each other with quotes), cpudispatch-run, the
# license, cpudispatch.pc (the baseline flags, the whole archive), and a
# CMake package for find_package(cpudispatch) with the same targets.
if(CPUD_INSTALL)
  include(GNUInstallDirs)
  add_library(cpudispatch_archive STATIC $<TARGET_OBJECTS:cpudispatch_runtime>)
  set_target_properties(cpudispatch_archive PROPERTIES OUTPUT_NAME cpudispatch LINKER_LANGUAGE C)
  install(TARGETS cpudispatch_archive ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  file(GLOB _cpud_headers "${CPUD_SOURCE_ROOT}/include/cpudispatch/*.h" "${CPUD_SOURCE_ROOT}/include/cpudispatch/*.hpp")
  install(FILES ${_cpud_headers} "${CPUD_BUILD_ROOT}/include/cpudispatch_config.h"
          "${CPUD_BUILD_ROOT}/include/cpudispatch_features.h" "${CPUD_BUILD_ROOT}/include/cpudispatch_namespace.h"
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cpudispatch)
  install(FILES "${CPUD_SOURCE_ROOT}/LICENSE" DESTINATION ${CMAKE_INSTALL_DATADIR}/licenses/cpudispatch)
  if(TARGET cpudispatch-run)
    install(TARGETS cpudispatch-run RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
  string(REPLACE ";" " " _flags "${CPUD_BASELINE_FLAGS}")
  string(REPLACE ";" " " _baseline "${CPUD_BASELINE}")
  file(WRITE "${CPUD_BUILD_ROOT}/cpudispatch.pc"
       "prefix=${CMAKE_INSTALL_PREFIX}\n"
       "includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}\n"
       "libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}\n\n"
       "Name: cpudispatch\n"
       "Description: CPU feature detection and dispatch runtime (baseline: ${_baseline})\n"
       "Version: ${PROJECT_VERSION}\n"
       "Libs: -Wl,--whole-archive -L\${libdir} -lcpudispatch -Wl,--no-whole-archive\n"
       "Cflags: -I\${includedir} ${_flags}\n")
  install(FILES "${CPUD_BUILD_ROOT}/cpudispatch.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  # The package: paths relative to the installed file, so a prefix moved
  # (DESTDIR, a copied tree) still finds itself.
  set(_pkg_dir "${CMAKE_INSTALL_LIBDIR}/cmake/cpudispatch")
  file(RELATIVE_PATH _up "/${_pkg_dir}" "/")
  set(_anchor "")
  if(_cpud_link_options)
    set(_anchor "\n  INTERFACE_LINK_OPTIONS \"${_cpud_link_options}\"")
  endif()
  file(WRITE "${CPUD_BUILD_ROOT}/cpudispatchConfig.cmake"
       "# Written by src/cmake/cpudispatch_runtime.cmake: cpudispatch ${PROJECT_VERSION}, installed\n"
       "# (baseline ${_baseline}; namespace ${CPUD_NAMESPACE_USED}). docs/cmake.md, \"After an install\".\n"
       "get_filename_component(_cpud_prefix \"\${CMAKE_CURRENT_LIST_DIR}/${_up}\" ABSOLUTE)\n"
       "set(CPUDISPATCH_BASELINE \"${CPUD_BASELINE}\")\n"
       "set(CPUDISPATCH_DISPATCH \"${CPUD_DISPATCH}\")\n"
       "set(CPUDISPATCH_NAMESPACE \"${CPUD_NAMESPACE_USED}\")\n"
       "set(CPUDISPATCH_ENV_PREFIX \"${CPUD_ENV_PREFIX_USED}\")\n"
       "if(NOT TARGET cpudispatch::cpudispatch)\n"
       "  # The runtime whole: its start-up check is a constructor nothing references.\n"
       "  add_library(cpudispatch::cpudispatch INTERFACE IMPORTED)\n"
       "  set_target_properties(cpudispatch::cpudispatch PROPERTIES\n"
       "    INTERFACE_INCLUDE_DIRECTORIES \"\${_cpud_prefix}/${CMAKE_INSTALL_INCLUDEDIR}\"\n"
       "    INTERFACE_COMPILE_OPTIONS \"${CPUD_BASELINE_FLAGS}\"\n"
       "    INTERFACE_LINK_LIBRARIES \"-Wl,--whole-archive;\${_cpud_prefix}/${CMAKE_INSTALL_LIBDIR}/libcpudispatch.a;-Wl,--no-whole-archive\"${_anchor})\n"
       "  add_library(cpudispatch::floor INTERFACE IMPORTED)\n"
       "  set_target_properties(cpudispatch::floor PROPERTIES\n"
       "    INTERFACE_INCLUDE_DIRECTORIES \"\${_cpud_prefix}/${CMAKE_INSTALL_INCLUDEDIR}\"\n"
       "    INTERFACE_COMPILE_DEFINITIONS \"CPUD_NO_BASELINE_GUARD;CPUD_NO_INTRINSIC_HEADERS\")\n"
       "endif()\n"
       "unset(_cpud_prefix)\n")
  include(CMakePackageConfigHelpers)
  write_basic_package_version_file("${CPUD_BUILD_ROOT}/cpudispatchConfigVersion.cmake" VERSION ${PROJECT_VERSION}
                                   COMPATIBILITY SameMinorVersion)
  install(FILES "${CPUD_BUILD_ROOT}/cpudispatchConfig.cmake" "${CPUD_BUILD_ROOT}/cpudispatchConfigVersion.cmake"
          DESTINATION ${_pkg_dir})
endif()
