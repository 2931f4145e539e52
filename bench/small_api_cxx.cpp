// The C++ dispatcher over the small kernel, behind an API function of its
// own (bench/small_input.cpp, bench/small_calls.c).
#include <cstdint>

#include "small.dispatch.h"
#include "cpudispatch/dispatch.hpp"

// The kernels are C: declared with C linkage first, which CPUD_DISPATCH's
// own declarations then keep.
extern "C" {
CPUD_DISPATCH_DECLARE(std::uint64_t small_hash, (const void *, std::size_t, std::uint64_t))
}
CPUD_DISPATCH(std::uint64_t, small_hash, (const void *, std::size_t, std::uint64_t));

extern "C" std::uint64_t bench_small_cxx(const void *p, std::size_t n, std::uint64_t seed) {
  return small_hash(p, n, seed);
}
