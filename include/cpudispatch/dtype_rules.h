/* SPDX-License-Identifier: MIT */
/*
 * cpudispatch: the declared conversion rules of typed dispatch, one list per
 * rule set, each row X(FROM, TO, FORWARD, BACKWARD): FROM converts to TO
 * with FORWARD, and TO back to FROM with BACKWARD (none: no way back
 * declared). Types are dtype_list.h's C suffixes, kinds cpud::conversion's
 * names. The one copy: the C++ matrices (dtype.hpp, closed at compile time)
 * and the C runtime's (cpud_can_convert, closed once at run time) are made
 * from it; a conversion may chain rules, and a chain is as strict as its
 * loosest step.
 */
#ifndef CPUDISPATCH_DTYPE_RULES_H_
#define CPUDISPATCH_DTYPE_RULES_H_

/* The rules Numba and NumPy share for booleans and integers: booleans to
 * the smallest integers safely; wider integers of the same signedness by
 * promotion; uN to i(2N) safely; every way back unsafe. */
#define CPUD__INTEGER_RULES(X)            \
  X(BOOL, INT8, safe, unsafe)             \
  X(BOOL, UINT8, safe, unsafe)            \
  X(INT8, INT16, promote, unsafe)         \
  X(UINT8, UINT16, promote, unsafe)       \
  X(INT16, INT32, promote, unsafe)        \
  X(UINT16, UINT32, promote, unsafe)      \
  X(INT32, INT64, promote, unsafe)        \
  X(UINT32, UINT64, promote, unsafe)      \
  X(UINT8, INT16, safe, unsafe)           \
  X(UINT16, INT32, safe, unsafe)          \
  X(UINT32, INT64, safe, unsafe)

/* Numba's number rules (numba/core/typeconv/rules.py): integers to the
 * float with room for them safely (int64 too, which Numba chose to prefer
 * float64 for mixed arithmetic), int16/int32 to float16/float32 unsafely;
 * wider floats and complexes by promotion; a float to the complex of its
 * precision safely and never back. Every reverse direction is unsafe
 * except float -> complex. */
#define CPUD_NUMBA_RULES(X)               \
  CPUD__INTEGER_RULES(X)                  \
  X(INT8, FLOAT16, safe, unsafe)          \
  X(INT16, FLOAT32, safe, unsafe)         \
  X(INT32, FLOAT64, safe, unsafe)         \
  X(INT16, FLOAT16, unsafe, unsafe)       \
  X(INT32, FLOAT32, unsafe, unsafe)       \
  X(INT64, FLOAT64, safe, unsafe)         \
  X(UINT64, FLOAT64, safe, unsafe)        \
  X(FLOAT16, FLOAT32, promote, unsafe)    \
  X(FLOAT32, FLOAT64, promote, unsafe)    \
  X(FLOAT32, COMPLEX64, safe, none)       \
  X(FLOAT64, COMPLEX128, safe, none)      \
  X(COMPLEX64, COMPLEX128, promote, unsafe)

/* NumPy's casting rules (numpy.can_cast(from, to, 'safe'), NumPy 1.24): its
 * safe casts, a promotion within one kind (bool, signed, unsigned, float,
 * complex) and safe across kinds; every other cast unsafe, never none
 * (NumPy performs any cast with casting='unsafe'; complex to real drops the
 * imaginary part). Against Numba's: uint8 -> float16 and uint16 -> float32
 * (and on, to complex64) are safe, and complex -> real is unsafe, not none. */
#define CPUD_NUMPY_RULES(X)               \
  CPUD__INTEGER_RULES(X)                  \
  X(INT8, FLOAT16, safe, unsafe)          \
  X(UINT8, FLOAT16, safe, unsafe)         \
  X(INT16, FLOAT32, safe, unsafe)         \
  X(UINT16, FLOAT32, safe, unsafe)        \
  X(INT32, FLOAT64, safe, unsafe)         \
  X(UINT32, FLOAT64, safe, unsafe)        \
  X(INT64, FLOAT64, safe, unsafe)         \
  X(UINT64, FLOAT64, safe, unsafe)        \
  X(FLOAT16, FLOAT32, promote, unsafe)    \
  X(FLOAT32, FLOAT64, promote, unsafe)    \
  X(FLOAT16, COMPLEX64, safe, unsafe)     \
  X(FLOAT32, COMPLEX64, safe, unsafe)     \
  X(FLOAT64, COMPLEX128, safe, unsafe)    \
  X(COMPLEX64, COMPLEX128, promote, unsafe)

#endif /* CPUDISPATCH_DTYPE_RULES_H_ */
