# SPDX-License-Identifier: MIT
# Testing a project's own code on every target, for CTest (docs/cmake.md,
# "Testing"): CTest has no test setups, so each test is added once plainly
# and once per setup, run through cpudispatch-run as the Meson setups run
# it (docs/testing-your-code.md), each labelled for `ctest -L`:
#
#   cpudispatch_add_test(NAME name COMMAND cmd [arg...]
#                        [SETUPS setup...] [WORKING_DIRECTORY dir])
#
#   name                label cpudispatch_plain: the command as it is
#   name/each_target    label cpudispatch_each_target: once per compiled
#                       target this CPU can run, and the baseline
#   name/each_cpu       label cpudispatch_each_cpu: under each qemu model
#   name/target_T       label cpudispatch_target_T (SETUPS target_AVX2)
#   name/cpu_M          label cpudispatch_cpu_M (SETUPS cpu_Nehalem)
#
# SETUPS defaults to CPUD_TEST_SETUPS (each_target each_cpu). A failing run
# names the target or model it failed under, in the test's output.
set(CPUD_TEST_SETUPS "each_target;each_cpu" CACHE STRING
    "The setups cpudispatch_add_test() adds each test under (each_target each_cpu target_T cpu_M)")

function(cpudispatch_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 _a "" "NAME;WORKING_DIRECTORY" "COMMAND;SETUPS")
  if(NOT _a_NAME OR NOT _a_COMMAND)
    message(FATAL_ERROR "cpudispatch_add_test: NAME and COMMAND are required")
  endif()
  if(NOT _a_SETUPS)
    set(_a_SETUPS ${CPUD_TEST_SETUPS})
  endif()
  set(_wd "")
  if(_a_WORKING_DIRECTORY)
    set(_wd WORKING_DIRECTORY "${_a_WORKING_DIRECTORY}")
  endif()
  add_test(NAME ${_a_NAME} COMMAND ${_a_COMMAND} ${_wd})
  set_tests_properties(${_a_NAME} PROPERTIES LABELS cpudispatch_plain)
  if(NOT CPUD_RUN)
    return()
  endif()
  # The wrapped command: a target's file by its path, and under a cross
  # build's emulator, which cpudispatch-run recognises before the program.
  list(GET _a_COMMAND 0 _first)
  list(REMOVE_AT _a_COMMAND 0)
  if(TARGET ${_first})
    set(_first "$<TARGET_FILE:${_first}>")
  endif()
  set(_cmd ${CMAKE_CROSSCOMPILING_EMULATOR} ${_first} ${_a_COMMAND})
  list(LENGTH CPUD_DISPATCH _nt)
  list(LENGTH CPUD_RUN_MODELS _nm)
  foreach(_s IN LISTS _a_SETUPS)
    if(_s STREQUAL "each_target")
      set(_how --each-target)
    elseif(_s STREQUAL "each_cpu")
      set(_how --each-cpu)
    elseif(_s MATCHES "^target_(.+)$")
      set(_how --target ${CMAKE_MATCH_1})
    elseif(_s MATCHES "^cpu_(.+)$")
      set(_how --cpu ${CMAKE_MATCH_1})
    else()
      message(FATAL_ERROR "cpudispatch_add_test(${_a_NAME}): unknown setup \"${_s}\"; the setups are each_target, "
                          "each_cpu, target_<TARGET> and cpu_<MODEL>")
    endif()
    add_test(NAME ${_a_NAME}/${_s} COMMAND ${CPUD_RUN} ${_how} -- ${_cmd} ${_wd})
    set_tests_properties(${_a_NAME}/${_s} PROPERTIES LABELS cpudispatch_${_s} SKIP_RETURN_CODE 77)
  endforeach()
endfunction()
