// Demo dispatched kernels (src/demo/kernels.dispatch.cpp), shown by
// cpudispatch-info and used by the tests and benchmarks.
#ifndef CPUDISPATCH_DEMO_KERNELS_H_
#define CPUDISPATCH_DEMO_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "kernels.dispatch.h"
#include "cpudispatch/dispatch.hpp"

CPUD_DISPATCH(float, cpud_demo_sum_f32, (const float *, std::size_t));
CPUD_DISPATCH(float, cpud_demo_dot_f32, (const float *, const float *, std::size_t));
CPUD_DISPATCH(std::size_t, cpud_demo_count_u8, (const std::uint8_t *, std::size_t, std::uint8_t));

#endif
