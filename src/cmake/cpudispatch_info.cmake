# SPDX-License-Identifier: MIT
# cpudispatch-info and the demo kernels it shows (src/info, src/demo), as
# src/demo/meson.build and src/info/meson.build build them: C++, so only
# where the build has C++ (cpudispatch's own build enables it where there
# is a compiler; a parent's build where the parent enabled it). The
# kernels' words come from the configure step (--demo), one build per
# target with its flags, checked and joined as a consumer's are. In a
# parent's build both are built only on demand (`cmake --build B --target
# cpudispatch-info`): a consumer's build compiles nothing of ours but the
# runtime and cpudispatch-run.
#
#   cpudispatch-info   the program; installed with the rest (CPUD_INSTALL)
if(NOT "CXX" IN_LIST CPUD_LANGUAGES OR CPUD_SYSTEM STREQUAL "windows" OR NOT CPUD_DEMO_WORDS)
  return()
endif()
_cpudispatch_build(cpud_demo_kernels "${CPUD_DEMO_WORDS}" "${CPUD_SOURCE_ROOT}/src/demo"
                   "${CPUD_BUILD_ROOT}/src/demo" cpud_demo_ "")
add_executable(cpudispatch-info "${CPUD_SOURCE_ROOT}/src/info/main.cpp" "${CPUD_SOURCE_ROOT}/src/info/cpu_dump.cpp")
# detect.h, the runtime's own (what start-up reads); kernels.h, the demo's.
target_include_directories(cpudispatch-info PRIVATE "${CPUD_SOURCE_ROOT}/src/runtime" "${CPUD_SOURCE_ROOT}/src/demo")
target_link_libraries(cpudispatch-info PRIVATE cpud_demo_kernels cpudispatch)
set_target_properties(cpudispatch-info PROPERTIES CXX_STANDARD 17 CXX_EXTENSIONS OFF)
if(NOT CPUD_TOP AND NOT CPUD_INSTALL)
  set_target_properties(cpud_demo_kernels cpudispatch-info PROPERTIES EXCLUDE_FROM_ALL ON)
endif()
if(CPUD_INSTALL)
  install(TARGETS cpudispatch-info RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
