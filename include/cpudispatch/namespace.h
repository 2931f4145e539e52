/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: every symbol this build defines carries its namespace.
 *
 * A library made with cpudispatch holds its own copy of the runtime. In a
 * shared library hidden visibility keeps that copy to itself; in a static
 * link it does not: two static libraries that defined the same hidden
 * symbols would share one runtime (the first on the link line), one
 * start-up check, one reading of the variables. So every external name of
 * the runtime is a macro for the same name behind the build's namespace
 * (CPUD_NAMESPACE, generated in cpudispatch_namespace.h: the project's
 * name and a hash), as zlib's Z_PREFIX does: callers write cpud_have(),
 * the object defines xxhash_3f09a2c1__cpud__have_slow. The dispatch
 * sources' kernels get the same treatment in their generated headers, and
 * the C++ API lives in an inline namespace of the same name (below).
 *
 * The list is the runtime's: test `runtime-namespaced` fails when an object
 * of it defines a symbol outside the namespace (a function added without
 * its line here).
 */
#ifndef CPUDISPATCH_NAMESPACE_H_
#define CPUDISPATCH_NAMESPACE_H_

#include "cpudispatch/attributes.h"
#include "cpudispatch_namespace.h"

#define CPUD__NS_CAT_(ns, name) ns##__##name
#define CPUD__NS_CAT(ns, name) CPUD__NS_CAT_(ns, name)
/* NAME behind this build's namespace. */
#define CPUD__NS(name) CPUD__NS_CAT(CPUD_NAMESPACE, name)
/* The same as a string, for assembler text (the runtime's ELF note). */
#define CPUD__NS_STR_(x) #x
#define CPUD__NS_STR(x) CPUD__NS_STR_(x)

/* The runtime's external symbols (src/runtime/), in name order. */
#define cpud__adds_sets CPUD__NS(cpud__adds_sets)
#define cpud__apply_env CPUD__NS(cpud__apply_env)
#define cpud__apply_env_masks CPUD__NS(cpud__apply_env_masks)
#define cpud__check_baseline_of CPUD__NS(cpud__check_baseline_of)
#define cpud__claim_env_errors CPUD__NS(cpud__claim_env_errors)
#define cpud__close_over_implied CPUD__NS(cpud__close_over_implied)
#define cpud__compiled_targets CPUD__NS(cpud__compiled_targets)
#define cpud__cpuid_count CPUD__NS(cpud__cpuid_count)
#define cpud__detect_raw CPUD__NS(cpud__detect_raw)
#define cpud__detect_raw_from CPUD__NS(cpud__detect_raw_from)
#define cpud__detect_raw_with CPUD__NS(cpud__detect_raw_with)
#define cpud__dispatched_mask CPUD__NS(cpud__dispatched_mask)
#define cpud__each_own_note CPUD__NS(cpud__each_own_note)
#define cpud__env_failure CPUD__NS(cpud__env_failure)
#define cpud__epoch CPUD__NS(cpud__epoch)
#define cpud__first_note CPUD__NS(cpud__first_note)
#define cpud__first_to_print CPUD__NS(cpud__first_to_print)
#define cpud__have_slow CPUD__NS(cpud__have_slow)
#define cpud__implied_sets CPUD__NS(cpud__implied_sets)
#define cpud__in_main_program CPUD__NS(cpud__in_main_program)
#define cpud__init CPUD__NS(cpud__init)
#define cpud__leaf_name CPUD__NS(cpud__leaf_name)
#define cpud__leaves_read CPUD__NS(cpud__leaves_read)
#define cpud__libc_cpuid_copy CPUD__NS(cpud__libc_cpuid_copy)
#define cpud__live_vector_bytes CPUD__NS(cpud__live_vector_bytes)
#define cpud__mask_count CPUD__NS(cpud__mask_count)
#define cpud__mask_names CPUD__NS(cpud__mask_names)
#define cpud__names_something CPUD__NS(cpud__names_something)
#define cpud__next_name CPUD__NS(cpud__next_name)
#define cpud__no_kernel CPUD__NS(cpud__no_kernel)
#define cpud__no_target CPUD__NS(cpud__no_target)
#define cpud__parse_target_name CPUD__NS(cpud__parse_target_name)
#define cpud__pick_find CPUD__NS(cpud__pick_find)
#define cpud__print_once CPUD__NS(cpud__print_once)
#define cpud__print_warnings CPUD__NS(cpud__print_warnings)
#define cpud__printed_table CPUD__NS(cpud__printed_table)
#define cpud__printed_table_note CPUD__NS(cpud__printed_table_note)
#define cpud__process_mask CPUD__NS(cpud__process_mask)
#define cpud__publish_initial CPUD__NS(cpud__publish_initial)
#define cpud__ranks_below CPUD__NS(cpud__ranks_below)
#define cpud__register CPUD__NS(cpud__register)
#define cpud__register_operator CPUD__NS(cpud__register_operator)
#define cpud__removes_sets CPUD__NS(cpud__removes_sets)
#define cpud__replace_detected CPUD__NS(cpud__replace_detected)
#define cpud__reselect CPUD__NS(cpud__reselect)
#define cpud__startup_check_anchor CPUD__NS(cpud__startup_check_anchor)
#define cpud__startup_detected CPUD__NS(cpud__startup_detected)
#define cpud__startup_wanted CPUD__NS(cpud__startup_wanted)
#define cpud__state_complete_detected CPUD__NS(cpud__state_complete_detected)
#define cpud__state_detected CPUD__NS(cpud__state_detected)
#define cpud__state_disabled CPUD__NS(cpud__state_disabled)
#define cpud__state_epoch CPUD__NS(cpud__state_epoch)
#define cpud__state_process CPUD__NS(cpud__state_process)
#define cpud__state_ready CPUD__NS(cpud__state_ready)
#define cpud__state_reselect CPUD__NS(cpud__state_reselect)
#define cpud__state_seq CPUD__NS(cpud__state_seq)
#define cpud__state_set_base CPUD__NS(cpud__state_set_base)
#define cpud__state_set_disabled CPUD__NS(cpud__state_set_disabled)
#define cpud__state_set_thread_allowed CPUD__NS(cpud__state_set_thread_allowed)
#define cpud__state_thread_mask CPUD__NS(cpud__state_thread_mask)
#define cpud__t_mask CPUD__NS(cpud__t_mask)
#define cpud__t_restricted CPUD__NS(cpud__t_restricted)
#define cpud__t_seen CPUD__NS(cpud__t_seen)
#define cpud__unregister_operator CPUD__NS(cpud__unregister_operator)
#define cpud__usable CPUD__NS(cpud__usable)
#define cpud__usable_slow CPUD__NS(cpud__usable_slow)
#define cpud__vector_feature CPUD__NS(cpud__vector_feature)
#define cpud_assume_cpu CPUD__NS(cpud_assume_cpu)
#define cpud_baseline_mask CPUD__NS(cpud_baseline_mask)
#define cpud_can_convert CPUD__NS(cpud_can_convert)
#define cpud_check_baseline CPUD__NS(cpud_check_baseline)
#define cpud_close_over_implied CPUD__NS(cpud_close_over_implied)
#define cpud_detect_cpu CPUD__NS(cpud_detect_cpu)
#define cpud_detected_mask CPUD__NS(cpud_detected_mask)
#define cpud_disabled_features CPUD__NS(cpud_disabled_features)
#define cpud_feature_by_name CPUD__NS(cpud_feature_by_name)
#define cpud_feature_name CPUD__NS(cpud_feature_name)
#define cpud_for_each_operator CPUD__NS(cpud_for_each_operator)
#define cpud_functions CPUD__NS(cpud_functions)
#define cpud_host_init CPUD__NS(cpud_host_init)
#define cpud_library_init CPUD__NS(cpud_library_init)
#define cpud_resolve CPUD__NS(cpud_resolve)
#define cpud_resolve_or_fallback CPUD__NS(cpud_resolve_or_fallback)
#define cpud_set_disabled_features CPUD__NS(cpud_set_disabled_features)
#define cpud_set_thread_allowed CPUD__NS(cpud_set_thread_allowed)
#define cpud_set_usable_mask CPUD__NS(cpud_set_usable_mask)
#define cpud_thread_allowed CPUD__NS(cpud_thread_allowed)
#define cpud_vector_bytes CPUD__NS(cpud_vector_bytes)
#define cpud_with_implied CPUD__NS(cpud_with_implied)

/* C++: the API's namespace cpud holds an inline namespace of the build's
 * name, so that inline functions and templates of two libraries' copies
 * (which read their own runtime) are never merged by the linker; code
 * writes cpud::feature_set as ever. Hidden, as every cpudispatch symbol:
 * a library exports none of them. */
#ifdef __cplusplus
#define CPUD_NAMESPACE_BEGIN namespace cpud CPUD_HIDDEN { inline namespace CPUD_NAMESPACE CPUD_HIDDEN {
#define CPUD_NAMESPACE_END } }
#endif

#endif /* CPUDISPATCH_NAMESPACE_H_ */
