/* SPDX-License-Identifier: MIT */
// Demo dispatched kernels (src/demo/kernels.dispatch.cpp) and a typed
// operator over three of them, shown by cpudispatch-info and used by the
// tests and benchmarks.
#ifndef CPUDISPATCH_DEMO_KERNELS_H_
#define CPUDISPATCH_DEMO_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "kernels.dispatch.h"
#include "cpudispatch/dispatch.hpp"
#include "cpudispatch/operator.hpp"

CPUD_DISPATCH(float, cpud_demo_sum_f32, (const float *, std::size_t));
CPUD_DISPATCH(float, cpud_demo_dot_f32, (const float *, const float *, std::size_t));
CPUD_DISPATCH(std::size_t, cpud_demo_count_u8, (const std::uint8_t *, std::size_t, std::uint8_t));

// A typed operator over dispatched kernels: 'sum' of an array by element
// type (cpudispatch-info lists it, its kernels and its resolution cache).
using cpud_demo_reduce = void (*)(const void *, std::size_t, void *);
CPUD_DISPATCH(void, cpud_demo_sum_any_i64, (const void *, std::size_t, void *));
CPUD_DISPATCH(void, cpud_demo_sum_any_f32, (const void *, std::size_t, void *));
CPUD_DISPATCH(void, cpud_demo_sum_any_f64, (const void *, std::size_t, void *));
inline constexpr cpud::kernel<cpud_demo_reduce> cpud_demo_sum_kernels[] = {
    CPUD_KERNEL(cpud_demo_sum_any_i64, cpud::dtype::int64),
    CPUD_KERNEL(cpud_demo_sum_any_f32, cpud::dtype::float32),
    CPUD_KERNEL(cpud_demo_sum_any_f64, cpud::dtype::float64),
};
inline cpud::op<cpud_demo_reduce> cpud_demo_sum{"sum", cpud_demo_sum_kernels};

#endif
