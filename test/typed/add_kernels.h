// The dispatched add kernels of add.dispatch.cpp, as the typed tests
// declare them, and their one type-erased signature.
#pragma once
#include <cstddef>

#include "add.dispatch.h"
#include "cpudispatch/dispatch.hpp"

using binary = void (*)(const void *, const void *, void *, std::size_t);
CPUD_DISPATCH(void, add_i32, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, add_i64, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, add_f32, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, add_f64, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, add_c64, (const void *, const void *, void *, std::size_t));
CPUD_DISPATCH(void, add_which, (const void *, const void *, void *, std::size_t));
