# SPDX-License-Identifier: MIT
# libxxhash with cpudispatch in place of xxh_x86dispatch.c: what
# tools/xxhash-port.py puts in cmake_unofficial/CMakeLists.txt's place for
# the "# libxxhash" branch (included from there, in its scope). The option
# is xxHash's own, tested as xxHash tests it (DISPATCH defined, any value);
# the arch is the build's, not the host's (OS_PLATFORM), and every arch
# takes this branch: each arch builds the list's names of its own table
# (x86_64: SSE2 is in its baseline, AVX2, AVX512_SKX; aarch64: SVE, which
# xxh_x86dispatch.c has no way to give) and ignores the other arches'.
#
#   XXHASH_CPUDISPATCH_DIR   cpudispatch's source tree (FetchContent SOURCE_DIR)
#   xxh3_kernels             cpudispatch_port/xxh3.dispatch.c, built for
#                            "baseline SSE2 AVX2 AVX512_SKX SVE" and checked
#   XXHASH_PORT_XXHSUM_SOURCES  what xxhsum compiles in place of xxh_x86dispatch.c
if(DEFINED DISPATCH)
  set(XXHSUM_DISPATCH ON)
  message(STATUS "Enable xxHash dispatch mode (cpudispatch)")
  set(XXHASH_CPUDISPATCH_DIR "" CACHE PATH "cpudispatch's source tree")
  if(NOT EXISTS "${XXHASH_CPUDISPATCH_DIR}/src/cmake/cpudispatch_sources.cmake")
    message(FATAL_ERROR "xxHash: DISPATCH needs -DXXHASH_CPUDISPATCH_DIR=<cpudispatch's source tree>")
  endif()
  include(FetchContent)
  FetchContent_Declare(cpudispatch SOURCE_DIR "${XXHASH_CPUDISPATCH_DIR}")
  FetchContent_MakeAvailable(cpudispatch)

  set(_xxh_port "${XXHASH_DIR}/cpudispatch_port")
  # The dispatch source includes xxhash.h: every target build gets its folder.
  add_library(xxhash_port_headers INTERFACE)
  target_include_directories(xxhash_port_headers INTERFACE "${XXHASH_DIR}")
  cpudispatch_add_sources(xxh3_kernels SOURCES ../cpudispatch_port/xxh3.dispatch.c
                          TARGETS "baseline SSE2 AVX2 AVX512_SKX SVE" LIBRARIES xxhash_port_headers)

  # The library holds the kernels and the runtime itself, static or shared,
  # with no link to a cpudispatch target: xxHash's export() and
  # install(EXPORT xxHashTargets) name nothing of cpudispatch
  # (docs/cmake.md, "A library").
  add_library(xxhash "${_xxh_port}/xxh3_dispatch_api.c" "${XXHASH_DIR}/xxhash.c")
  cpudispatch_embed(xxhash xxh3_kernels)
  set(CMAKE_C_FLAGS "${CMAKE_C_FLAGS} -DXXHSUM_DISPATCH=1")
  # xxhsum compiled xxh_x86dispatch.c itself; it takes the entry points the
  # same way (its own copy, the kernels, the runtime: see the xxhsum block).
  set(XXHASH_PORT_XXHSUM_SOURCES "${_xxh_port}/xxh3_dispatch_api.c")

  # Not xxHash's: which build each entry point runs (tools/xxhash-port.py).
  add_executable(xxh3_probe EXCLUDE_FROM_ALL "${_xxh_port}/xxh3_probe.c" "${_xxh_port}/xxh3_dispatch_api.c")
  target_include_directories(xxh3_probe PRIVATE "${XXHASH_DIR}")
  target_link_libraries(xxh3_probe PRIVATE xxhash xxh3_kernels cpudispatch::cpudispatch)
else()
  add_library(xxhash "${XXHASH_DIR}/xxhash.c")
endif()
